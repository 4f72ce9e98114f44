#pragma once
// What the file-format fuzzers share: the input as a file, a scratch folder for what they save, and an
// array's elements as bytes for comparing.
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "fuzz_check.hpp"
#include "xp/ndarray.hpp"
#include "xp/transfer.hpp"

namespace fuzz {

// A directory of this process's own, removed at exit.
inline const std::filesystem::path& scratch() {
  static const std::filesystem::path dir = [] {
    std::string name = (std::filesystem::exists("/dev/shm") ? "/dev/shm" : "/tmp") + std::string("/xp-fuzz-XXXXXX");
    FUZZ_CHECK(::mkdtemp(name.data()) != nullptr);
    std::atexit([] { std::filesystem::remove_all(scratch()); });
    return std::filesystem::path(name);
  }();
  return dir;
}

// The input as a file that lives in memory only (one per process, rewritten for each input).
inline std::filesystem::path input_file(const std::uint8_t* data, std::size_t size) {
  static const int fd = ::memfd_create("xp-fuzz-input", 0);
  FUZZ_CHECK(fd >= 0);
  FUZZ_CHECK(::ftruncate(fd, 0) == 0 && ::pwrite(fd, data, size, 0) == static_cast<ssize_t>(size));
  return "/proc/self/fd/" + std::to_string(fd);
}

inline std::string file_bytes(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

inline std::string elements(const xp::ndarray<>& a) {
  std::string bytes(a.nbytes(), '\0');
  xp::detail::copy_to_host(a, bytes.data());
  return bytes;
}

}  // namespace fuzz
