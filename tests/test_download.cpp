// xp::utils::download against a real HTTP server on 127.0.0.1 (tests/http_test_server.py, stopped
// with its test), and file:// URLs.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "captured_stderr.hpp"
#include "scoped_env.hpp"
#include "source_dir.hpp"
#include "xp/progress.hpp"
#include "xp/utils.hpp"

extern char** environ;

namespace {

const std::string kBody = [] {
  std::string body;
  for (int k = 0; k < 100; ++k) body += "xparray download test\n";
  return body;
}();
constexpr const char* kBodySha1 = "234c31bb16b7a5be552cc1792e2e0f148dab8a25";

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
}

std::vector<std::filesystem::path> files_in(const std::filesystem::path& dir) {
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir)) files.push_back(e.path().filename());
  return files;
}

// Options for a download into `path`.
xp::utils::DownloadOptions into(const std::filesystem::path& path, int retries = 5, std::string sha1 = "",
                                bool overwrite = false) {
  xp::utils::DownloadOptions options;
  options.path = path;
  options.retries = retries;
  options.sha1_hash = std::move(sha1);
  options.overwrite = overwrite;
  return options;
}

doctest::Contains contains(const std::string& text) { return doctest::Contains(doctest::String(text.c_str())); }

pid_t spawn(const std::vector<std::string>& args, posix_spawn_file_actions_t* actions = nullptr) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = 0;
  REQUIRE(::posix_spawnp(&pid, argv[0], actions, nullptr, argv.data(), environ) == 0);
  return pid;
}

// A scratch directory, and the test server with its marker files there; both go with the test.
class Fixture {
 public:
  // tls: serve HTTPS with a self-signed certificate made for the test.
  explicit Fixture(bool tls = false)
      : dir_(std::filesystem::temp_directory_path() /
             ("xparray-download-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter_++))) {
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "out");
    std::filesystem::create_directories(dir_ / "markers");
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    std::vector<std::string> command{"python3", (test_source_dir() / "http_test_server.py").string(),
                                     (dir_ / "markers").string()};
    if (tls) {
      const std::string cert = (dir_ / "cert.pem").string(), key = (dir_ / "key.pem").string();
      posix_spawn_file_actions_t quiet;  // openssl draws its progress on stderr
      posix_spawn_file_actions_init(&quiet);
      posix_spawn_file_actions_addopen(&quiet, 2, "/dev/null", O_WRONLY, 0);
      const pid_t openssl = spawn({"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                                   "/CN=127.0.0.1", "-keyout", key, "-out", cert},
                                  &quiet);
      posix_spawn_file_actions_destroy(&quiet);
      int status = 0;
      ::waitpid(openssl, &status, 0);
      REQUIRE_MESSAGE(WIFEXITED(status), "openssl did not make a certificate");
      REQUIRE(WEXITSTATUS(status) == 0);
      command.insert(command.end(), {cert, key});
    }
    server_ = spawn(command, &actions);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    std::string port;
    char c = 0;
    while (::read(fds[0], &c, 1) == 1 && c != '\n') port += c;
    ::close(fds[0]);
    REQUIRE_MESSAGE(!port.empty(), "the test server did not start");
    base_ = (tls ? "https://127.0.0.1:" : "http://127.0.0.1:") + port;
  }
  ~Fixture() {
    ::kill(server_, SIGKILL);
    ::waitpid(server_, nullptr, 0);
    std::filesystem::remove_all(dir_);
  }
  std::string url(const std::string& path) const { return base_ + path; }
  std::filesystem::path out() const { return dir_ / "out"; }
  std::filesystem::path markers() const { return dir_ / "markers"; }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
  pid_t server_ = -1;
  std::string base_;
};

}  // namespace

TEST_CASE("download: into a directory and to a file, with and without a SHA-1") {
  const Fixture f;
  const auto path = xp::utils::download(f.url("/data.bin"), into(f.out()));
  CHECK(path == f.out() / "data.bin");
  CHECK(read_file(path) == kBody);
  const auto named = xp::utils::download(f.url("/data.bin"), into(f.out() / "named.bin", 5, kBodySha1));
  CHECK(named == f.out() / "named.bin");
  CHECK(read_file(named) == kBody);
  // The options as API.md writes them.
  CHECK(read_file(xp::utils::download(f.url("/data.bin"), {.path = f.out() / "designated.bin", .retries = 2})) ==
        kBody);
  CHECK(files_in(f.out()).size() == 3);  // no temporary file left
}

TEST_CASE("download: an existing file is kept unless overwrite, or its SHA-1 is not the expected one") {
  const Fixture f;
  const auto target = f.out() / "data.bin";
  std::ofstream(target) << "old";
  xp::utils::download(f.url("/data.bin"), into(f.out()));
  CHECK(read_file(target) == "old");
  xp::utils::download(f.url("/data.bin"), into(f.out(), 5, kBodySha1));
  CHECK(read_file(target) == kBody);  // "old" did not match
  std::ofstream(target) << "old";
  xp::utils::download(f.url("/data.bin"), into(f.out(), 5, "", true));
  CHECK(read_file(target) == kBody);
}

TEST_CASE("download: failures are retried, then reported with the URL and the last failure") {
  const Fixture f;
  // 503 twice, then the body: three attempts succeed, two do not.
  CHECK(read_file(xp::utils::download(f.url("/flaky/a.bin"), into(f.out(), 3))) == kBody);
  CHECK_THROWS_WITH_AS(xp::utils::download(f.url("/flaky/b.bin"), into(f.out(), 2)),
                       doctest::Contains("HTTP status 503"), xp::IOError);
  CHECK(!std::filesystem::exists(f.out() / "b.bin"));
  // 404: every attempt fails.
  const auto start = std::chrono::steady_clock::now();
  CHECK_THROWS_WITH_AS(xp::utils::download(f.url("/missing.bin"), into(f.out(), 3)), contains(f.url("/missing.bin")),
                       xp::IOError);
  CHECK(std::chrono::steady_clock::now() - start >= std::chrono::milliseconds(300));  // waited 0.1 s + 0.2 s
  // A wrong SHA-1 after the last attempt: an error and no file.
  CHECK_THROWS_WITH_AS(xp::utils::download(f.url("/data.bin"), into(f.out(), 2, std::string(40, '0'))),
                       doctest::Contains("SHA-1"), xp::IOError);
  CHECK(!std::filesystem::exists(f.out() / "data.bin"));
  CHECK(files_in(f.out()) == std::vector<std::filesystem::path>{"a.bin"});
  CHECK_THROWS_AS(xp::utils::download(f.url("/data.bin"), into(f.out(), 0)), xp::ValueError);
}

TEST_CASE("download: a refused connection is an error naming the URL") {
  const Fixture f;
  // A port the system just handed out and that nothing listens on any more.
  const int probe = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof(address);
  REQUIRE(::bind(probe, reinterpret_cast<sockaddr*>(&address), sizeof(address)) == 0);
  REQUIRE(::getsockname(probe, reinterpret_cast<sockaddr*>(&address), &length) == 0);
  ::close(probe);
  const std::string url = "http://127.0.0.1:" + std::to_string(ntohs(address.sin_port)) + "/nothing.bin";
  CHECK_THROWS_WITH_AS(xp::utils::download(url, into(f.out(), 2)), contains(url), xp::IOError);
  CHECK(files_in(f.out()).empty());
}

TEST_CASE("download: https, with and without certificate checks") {
  const Fixture f(true);
  // The certificate is self-signed: a verified request fails, an unverified one works and is reported.
  CHECK_THROWS_WITH_AS(xp::utils::download(f.url("/data.bin"), into(f.out(), 1)), doctest::Contains("certificate"),
                       xp::IOError);
  std::vector<std::string> warnings;
  xp::utils::set_warning_handler([&](std::string_view message) { warnings.emplace_back(message); });
  xp::utils::DownloadOptions unverified = into(f.out());
  unverified.verify_ssl = false;
  CHECK(read_file(xp::utils::download(f.url("/data.bin"), unverified)) == kBody);
  xp::utils::set_warning_handler(nullptr);
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("unverified HTTPS request") != std::string::npos);
}

TEST_CASE("download: file:// URLs") {
  const Fixture f;
  const auto source = f.markers() / "source.bin";
  std::ofstream(source) << kBody;
  CHECK(read_file(xp::utils::download("file://" + source.string(), into(f.out()))) == kBody);
  CHECK_THROWS_AS(xp::utils::download("file://" + (f.markers() / "absent.bin").string(), into(f.out(), 1)),
                  xp::IOError);
}

TEST_CASE("download: progress (bytes, rate, ETA) on a terminal, one final line; nothing elsewhere") {
  const Fixture f;
  const auto source = f.markers() / "progress.bin";
  std::ofstream(source) << kBody;
  {
    const ScopedEnv shown("XP_PROGRESS", "1");  // stderr is a file here: as if it were a terminal
    CapturedStderr captured;
    xp::utils::download("file://" + source.string(), into(f.out()));
    const std::string text = captured.text();
    CAPTURE(text);
    // The final line: what arrived, in how long, how fast; updates before it rewrite the line in place.
    const std::size_t last = text.rfind('\r');
    REQUIRE(last != std::string::npos);
    CHECK(text.substr(last).starts_with("\rdownload progress.bin: " + xp::format_bytes(kBody.size()) + " in "));
    CHECK(text.ends_with("\n"));
    CHECK(text.substr(0, text.find_last_not_of(" \n") + 1).ends_with("/s)"));  // blanks cover a longer update
    CHECK(std::count(text.begin(), text.end(), '\n') == 1);
  }
  {
    const ScopedEnv quiet("XP_PROGRESS", std::nullopt);
    CapturedStderr captured;
    xp::utils::download("file://" + source.string(), into(f.out() / "quiet.bin"));
    CHECK(captured.text().empty());
  }
}

TEST_CASE("download: a process killed in the middle leaves no file behind") {
  const Fixture f;
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  ::setenv("XP_DOWNLOAD_CHILD_URL", f.url("/slow.bin").c_str(), 1);
  ::setenv("XP_DOWNLOAD_CHILD_DIR", f.out().c_str(), 1);
  const pid_t child = spawn({self, "--test-case=download: child process killed by its parent", "--no-version"});
  ::unsetenv("XP_DOWNLOAD_CHILD_URL");
  ::unsetenv("XP_DOWNLOAD_CHILD_DIR");
  // The server marks when it has sent the first 64 KiB; the child is then writing the file.
  for (int k = 0; k < 200 && !std::filesystem::exists(f.markers() / "slow-started"); ++k)
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  CHECK(std::filesystem::exists(f.markers() / "slow-started"));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
  CHECK(WIFSIGNALED(status));
  CHECK(files_in(f.out()).empty());
}

TEST_CASE("download: child process killed by its parent" *
          doctest::skip(std::getenv("XP_DOWNLOAD_CHILD_URL") == nullptr)) {
  xp::utils::download(std::getenv("XP_DOWNLOAD_CHILD_URL"), into(std::getenv("XP_DOWNLOAD_CHILD_DIR")));
  FAIL("the slow download finished");
}
