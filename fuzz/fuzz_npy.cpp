// load_npy on any bytes: an array, or a ValueError saying what is wrong where. What loads prints (every
// element read as its dtype); saving it and loading that gives the same type, shape and elements, and
// saving again writes the same bytes.
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
#include "xp/npy.hpp"

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

std::string saved_bytes(const xp::ndarray<>& a) {
  const std::filesystem::path path = scratch() / "saved.npy";
  xp::save_npy(path, a);
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::string elements(const xp::ndarray<>& a) {
  std::string bytes(a.nbytes(), '\0');
  xp::detail::copy_to_host(a, bytes.data());
  return bytes;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The input as a file that lives in memory only.
  static const int fd = ::memfd_create("xp-fuzz-npy", 0);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(::ftruncate(fd, 0) == 0 && ::pwrite(fd, data, size, 0) == static_cast<ssize_t>(size));
  xp::ndarray<> a;
  try {
    a = xp::load_npy("/proc/self/fd/" + std::to_string(fd));
  } catch (const xp::ValueError&) { return 0; }
  std::ostringstream text;
  text << a;
  const std::string once = saved_bytes(a);
  const xp::ndarray<> again = xp::load_npy(scratch() / "saved.npy");
  FUZZ_CHECK(again.dtype() == a.dtype() && again.shape() == a.shape() && elements(again) == elements(a));
  FUZZ_CHECK(saved_bytes(again) == once);
  return 0;
}
