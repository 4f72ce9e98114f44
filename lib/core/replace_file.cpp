// gluon.utils.replace_file (in core: every layer's files are written through it): rename(2) is atomic on POSIX; fsync
// of the data before it and of the directory after it make the new contents and the new name survive a crash.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "xp/error.hpp"
#include "xp/utils/files.hpp"

namespace xp::utils {

namespace {

void sync_path(const std::filesystem::path& path, int flags, const std::filesystem::path& src,
               const std::filesystem::path& dst) {
  const int fd = ::open(path.c_str(), flags | O_CLOEXEC);
  XP_CHECK(fd >= 0, IOError, "replace_file(", src, ", ", dst, "): cannot open ", path, ": ", std::strerror(errno));
  const int synced = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  XP_CHECK(synced == 0, IOError, "replace_file(", src, ", ", dst, "): cannot flush ", path, ": ", std::strerror(error));
}

}  // namespace

void replace_file(const std::filesystem::path& src, const std::filesystem::path& dst) {
  sync_path(src, O_RDONLY, src, dst);
  XP_CHECK(::rename(src.c_str(), dst.c_str()) == 0, IOError, "replace_file: cannot rename ", src, " to ", dst, ": ",
           std::strerror(errno));
  const std::filesystem::path directory = dst.has_parent_path() ? dst.parent_path() : ".";
  sync_path(directory, O_RDONLY | O_DIRECTORY, src, dst);
}

}  // namespace xp::utils
