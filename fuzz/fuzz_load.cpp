// The parameter-file loader (MXNet's NDArray list format) on any bytes: arrays, or a ValueError
// saying what is wrong where. What loads prints (every element read as its dtype), and saving it,
// loading that and saving again writes the same bytes: load keeps everything save writes.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>
#include <string>

#include "fuzz_check.hpp"
#include "xp/error.hpp"
#include "xp/serialization.hpp"

namespace {

// A directory of this process's own for the saved files, removed at exit.
const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::string name = (std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp") + std::string("/xp-fuzz-XXXXXX");
    FUZZ_CHECK(::mkdtemp(name.data()) != nullptr);
    std::atexit([] { std::filesystem::remove_all(scratch()); });
    return std::filesystem::path(name);
  }();
  return dir;
}

std::string saved_bytes(const xp::NamedArrays& arrays) {
  const std::filesystem::path path = scratch() / "saved.params";
  xp::save(path, arrays);
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The input as a file that lives in memory only.
  static const int fd = ::memfd_create("xp-fuzz-load", 0);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(::ftruncate(fd, 0) == 0 && ::pwrite(fd, data, size, 0) == static_cast<ssize_t>(size));
  xp::NamedArrays arrays;
  try {
    arrays = xp::load("/proc/self/fd/" + std::to_string(fd));
  } catch (const xp::ValueError&) { return 0; }
  std::ostringstream text;
  for (const auto& [name, array] : arrays) text << name << array;
  const std::string once = saved_bytes(arrays);
  FUZZ_CHECK(saved_bytes(xp::load(scratch() / "saved.params")) == once);
  return 0;
}
