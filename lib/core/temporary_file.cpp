#include "support/temporary_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

#include "xp/error.hpp"
#include "xp/utils/files.hpp"

namespace xp::detail {

namespace {

std::string failure(std::string_view what, const std::filesystem::path& path, int error_number) {
  return std::string(what) + " " + path.string() + ": " + std::strerror(error_number);
}

}  // namespace

WrittenTemporary write_temporary_beside(const std::filesystem::path& path, std::span<const std::string_view> parts) {
  static std::atomic<unsigned> counter{0};
  std::filesystem::path temporary;
  int fd = -1;
  // A name taken already was left by an earlier process with this pid: the next number.
  do {
    temporary = path;
    temporary += "." + std::to_string(::getpid()) + "." + std::to_string(counter++) + ".tmp";
    fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  } while (fd < 0 && errno == EEXIST);
  if (fd < 0) return {{}, failure("cannot create", temporary, errno)};
  std::string why;
  for (const std::string_view bytes : parts) {
    for (std::size_t done = 0; done < bytes.size() && why.empty();) {
      const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) why = failure("cannot write", temporary, n < 0 ? errno : ENOSPC);
      else done += static_cast<std::size_t>(n);
    }
  }
  if (::close(fd) != 0 && why.empty()) why = failure("cannot write", temporary, errno);
  if (!why.empty()) {
    ::unlink(temporary.c_str());
    return {{}, why};
  }
  return {temporary, {}};
}

WrittenTemporary write_temporary_beside(const std::filesystem::path& path, std::string_view bytes) {
  return write_temporary_beside(path, std::span(&bytes, 1));
}

void write_file_replacing(const std::filesystem::path& path, std::span<const std::string_view> parts,
                          std::string_view op) {
  const WrittenTemporary aside = write_temporary_beside(path, parts);
  XP_CHECK(aside.failure.empty(), IOError, op, ": ", aside.failure);
  try {
    utils::replace_file(aside.path, path);
  } catch (...) {
    ::unlink(aside.path.c_str());
    throw;
  }
}

}  // namespace xp::detail
