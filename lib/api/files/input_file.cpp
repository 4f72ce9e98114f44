#include "api/files/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "xp/error.hpp"

namespace xp::detail {

InputFile::InputFile(const std::filesystem::path& path, const std::string& where) : where_(where) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  XP_CHECK(fd_ >= 0, IOError, where_, ": cannot open the file: ", std::strerror(errno));
  struct stat status{};
  if (::fstat(fd_, &status) != 0) {
    const int error = errno;
    ::close(fd_);
    throw IOError(where_, ": cannot read the file's size: ", std::strerror(error));
  }
  size_ = static_cast<std::size_t>(status.st_size);
}

InputFile::~InputFile() { ::close(fd_); }

void InputFile::read(std::size_t offset, std::size_t n, void* out) const {
  for (std::size_t done = 0; done < n;) {
    const ssize_t got = ::pread(fd_, static_cast<char*>(out) + done, n - done, static_cast<off_t>(offset + done));
    if (got < 0 && errno == EINTR) continue;
    XP_CHECK(got > 0, IOError, where_, ": cannot read ", n, " bytes at offset ", offset, ": ",
             got < 0 ? std::strerror(errno) : "the file got shorter while being read");
    done += static_cast<std::size_t>(got);
  }
}

std::string InputFile::read(std::size_t offset, std::size_t n) const {
  std::string bytes(n, '\0');
  read(offset, n, bytes.data());
  return bytes;
}

}  // namespace xp::detail
