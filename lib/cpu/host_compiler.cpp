#include "cpu/host_compiler.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

#include "core/compile_error.hpp"
#include "xp/error.hpp"

extern char** environ;

namespace xp::detail {

namespace {

std::atomic<std::size_t> compilations{0};

// -fwrapv: signed arithmetic wraps, as on GPUs. It also keeps GCC 12's vectoriser from
// miscompiling reductions over signed char lanes (sums of int8 came out wrong at -O3 without it).
// -nodefaultlibs and kLibraries: a kernel needs libm, libc and libgcc's helpers, not libstdc++, and
// linking against libstdc++ took a quarter of a small kernel's compile (85 -> 64 ms).
// -O2 for reductions: their lanes vectorise at -O2 already, and -O3's loop versioning and peeling
// doubled their compile (290 -> 140 ms) for a tenth of their bandwidth. Elementwise loops keep -O3.
// -pipe: the assembler runs beside the compiler instead of after it (a reduction: 160 -> 140 ms).
constexpr const char* kFlags[] = {"-std=c++17", "-fwrapv", "-fno-math-errno", "-fPIC",
                                  "-shared",    "-w",      "-pipe",           "-nodefaultlibs"};
const char* optimization_flag(KernelKind kind) { return kind == KernelKind::reduction ? "-O2" : "-O3"; }
constexpr const char* kLibraries[] = {"-lm", "-lc", "-lgcc"};

std::vector<std::string> compiler_command() {
  const char* text = std::getenv("XP_CXX");
  std::istringstream words(text && *text ? text : XP_HOST_CXX);
  std::vector<std::string> command;
  for (std::string word; words >> word;) command.push_back(word);
  XP_CHECK(!command.empty(), ValueError, "XP_CXX names no compiler");
  return command;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

// Runs argv with stdout and stderr into `log`; returns the exit status (-1 if it did not start).
int run(const std::vector<std::string>& argv, const std::filesystem::path& log) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_adddup2(&actions, 1, 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  const int started = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (started != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A private directory for one compile, removed with it.
class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "xparray-jit-XXXXXX").string();
    XP_CHECK(::mkdtemp(pattern.data()) != nullptr, Error, "cannot create a directory for compiling a kernel in ",
             std::filesystem::temp_directory_path(), ": ", std::strerror(errno));
    path_ = pattern;
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string command_text(const std::vector<std::string>& command) {
  std::string text;
  for (const std::string& word : command) text += (text.empty() ? "" : " ") + word;
  return text;
}

}  // namespace

const std::string& host_compiler_identity() {
  static const std::string identity = [] {
    std::vector<std::string> command = compiler_command();
    const ScratchDir scratch;
    command.push_back("--version");
    const int status = run(command, scratch.path() / "version");
    std::string version = read_file(scratch.path() / "version");
    version = version.substr(0, version.find('\n'));
    command.pop_back();
    XP_CHECK(status == 0, CompileError, "the host compiler \"", command_text(command),
             "\" does not run (set XP_CXX to a C++17 compiler): ", version);
    std::string id = command_text(command) + " | " + version + " |";
    id += std::string(" ") + optimization_flag(KernelKind::elementwise) + " (reductions " +
          optimization_flag(KernelKind::reduction) + ")";
    for (const char* flag : kFlags) id += std::string(" ") + flag;
    for (const char* library : kLibraries) id += std::string(" ") + library;
    return id;
  }();
  return identity;
}

std::size_t host_compilations() noexcept { return compilations.load(); }

std::string compile_host_source(std::string_view kernel, std::string_view source, KernelKind kind) {
  ++compilations;
  const ScratchDir scratch;
  const std::filesystem::path input = scratch.path() / "kernel.cpp", output = scratch.path() / "kernel.so",
                              log = scratch.path() / "log";
  {
    std::ofstream file(input, std::ios::binary);
    file.write(source.data(), static_cast<std::streamsize>(source.size()));
    XP_CHECK(file.flush(), Error, "cannot write ", input);
  }
  std::vector<std::string> command = compiler_command();
  command.emplace_back(optimization_flag(kind));
  for (const char* flag : kFlags) command.emplace_back(flag);
  command.insert(command.end(), {"-o", output.string(), input.string()});
  command.insert(command.end(), std::begin(kLibraries), std::end(kLibraries));
  const int status = run(command, log);
  if (status != 0) {
    std::string text = read_file(log);
    if (status < 0) text = "cannot start " + command.front();
    throw_compile_error(kernel, command_text(compiler_command()), text, source);
  }
  std::string shared_object = read_file(output);
  XP_CHECK(!shared_object.empty(), CompileError, "kernel ", kernel, ": the host compiler wrote no ", output);
  return shared_object;
}

HostModule::HostModule(std::string_view shared_object) {
  // An anonymous file: nothing on disk can change under the loader, and nothing is left behind.
  const int fd = ::memfd_create("xparray-kernel", MFD_CLOEXEC);
  XP_CHECK(fd >= 0, Error, "memfd_create failed: ", std::strerror(errno));
  std::size_t written = 0;
  while (written < shared_object.size()) {
    const ssize_t n = ::write(fd, shared_object.data() + written, shared_object.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      throw Error("cannot write a kernel to memory: ", std::strerror(error));
    }
    written += static_cast<std::size_t>(n);
  }
  // The descriptor stays open while the module is loaded: the loader knows modules by path, and a
  // reused descriptor number would name an older module.
  const std::string path = "/proc/self/fd/" + std::to_string(fd);
  handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* error = ::dlerror();
    ::close(fd);
    throw Error("cannot load a compiled kernel: ", error ? error : "dlopen failed");
  }
  fd_ = fd;
}

HostModule::~HostModule() {
  ::dlclose(handle_);
  ::close(fd_);
}

void* HostModule::symbol(const std::string& name) const {
  void* address = ::dlsym(handle_, name.c_str());
  XP_CHECK(address != nullptr, Error, "compiled kernel has no function ", name);
  return address;
}

}  // namespace xp::detail
