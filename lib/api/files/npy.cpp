// save_npy and load_npy: core/npy_header.hpp reads and writes the header; the elements go between the
// file and a host array's own memory without another copy where the array allows it.
#include "xp/npy.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <string>

#include "api/array/array_factory.hpp"
#include "core/npy_header.hpp"
#include "support/temporary_file.hpp"
#include "xp/profile.hpp"
#include "xp/transfer.hpp"

namespace xp {

namespace {

// A file open for reading, closed at scope exit.
class InputFile {
 public:
  InputFile(const std::filesystem::path& path, const std::string& where) : where_(where) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    XP_CHECK(fd_ >= 0, IOError, where_, ": cannot open the file: ", std::strerror(errno));
    struct stat status{};
    XP_CHECK(::fstat(fd_, &status) == 0, IOError, where_, ": cannot read the file's size: ", std::strerror(errno));
    size_ = static_cast<std::size_t>(status.st_size);
  }
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile() { ::close(fd_); }

  std::size_t size() const noexcept { return size_; }
  // Reads [offset, offset + n) into `out`; the caller has checked that the file holds it.
  void read(std::size_t offset, std::size_t n, void* out) const {
    for (std::size_t done = 0; done < n;) {
      const ssize_t got = ::pread(fd_, static_cast<char*>(out) + done, n - done, static_cast<off_t>(offset + done));
      if (got < 0 && errno == EINTR) continue;
      XP_CHECK(got > 0, IOError, where_, ": cannot read ", n, " bytes at offset ", offset, ": ",
               got < 0 ? std::strerror(errno) : "the file got shorter while being read");
      done += static_cast<std::size_t>(got);
    }
  }

 private:
  const std::string& where_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

// Big-endian elements to this machine's order: complex numbers swap each of their two parts.
void swap_bytes(char* data, std::size_t bytes, xp::dtype type) {
  const bool complex = type == dtype::complex64 || type == dtype::complex128;
  const std::size_t unit = complex ? itemsize(type) / 2 : itemsize(type);
  for (std::size_t at = 0; at < bytes; at += unit) std::reverse(data + at, data + at + unit);
}

void check_bools(const char* data, std::size_t bytes, std::size_t data_offset, const std::string& where) {
  const auto* flags = reinterpret_cast<const unsigned char*>(data);
  const auto* bad = std::find_if(flags, flags + bytes, [](unsigned char b) { return b > 1; });
  XP_CHECK(bad == flags + bytes, ValueError, where, ": the bool element at offset ",
           data_offset + static_cast<std::size_t>(bad - flags), " is the byte ", static_cast<int>(*bad),
           "; bool elements are 0 or 1");
}

detail::NpyHeader read_header(const InputFile& file, std::size_t& data_offset, const std::string& where) {
  std::string first(std::min(file.size(), detail::kNpyPreambleBytes), '\0');
  file.read(0, first.size(), first.data());
  const detail::NpyPreamble preamble = detail::parse_npy_preamble(first, where);
  XP_CHECK(preamble.data_offset <= file.size(), ValueError, where, ": the file ends at byte ", file.size(),
           " inside the header, which ends at offset ", preamble.data_offset);
  std::string dict(preamble.data_offset - preamble.dict_offset, '\0');
  file.read(preamble.dict_offset, dict.size(), dict.data());
  data_offset = preamble.data_offset;
  return detail::parse_npy_header(dict, preamble.dict_offset, where);
}

}  // namespace

void save_npy(const std::filesystem::path& path, const ndarray<>& a) {
  const profile_range profiled("save_npy");
  const std::string where = detail::join_message("save_npy(", path, ")");
  const std::string header = detail::npy_header(a.dtype(), a.shape());
  const std::size_t bytes = a.nbytes();
  // A host array's own memory when it is C-contiguous, else its elements copied out in C order.
  std::unique_ptr<char[]> staged;
  const char* elements = nullptr;
  if (a.device().is_host() && a.is_contiguous()) {
    elements = static_cast<const char*>(detail::view_of(a, detail::exec_on(a.device())).data);
  } else {
    staged = std::make_unique_for_overwrite<char[]>(bytes);
    detail::copy_to_host(a, staged.get());
    elements = staged.get();
  }
  const std::string_view parts[] = {header, {elements, bytes}};
  detail::write_file_replacing(path, parts, where);
}

ndarray<> load_npy(const std::filesystem::path& path, Device device) {
  const profile_range profiled("load_npy");
  const std::string where = detail::join_message("load_npy(", path, ")");
  const InputFile file(path, where);
  std::size_t data_offset = 0;
  const detail::NpyHeader header = read_header(file, data_offset, where);
  // Fortran order: the elements are those of the transpose in C order.
  Shape stored = header.shape;
  if (header.fortran_order) std::reverse(stored.begin(), stored.end());
  const std::int64_t bytes = detail::checked_bytes(stored, header.type, where);
  XP_CHECK(static_cast<std::uint64_t>(bytes) <= file.size() - data_offset, ValueError, where, ": the elements (shape ",
           header.shape, ", ", detail::npy_descr(header.type), ") need ", bytes, " bytes from offset ", data_offset,
           "; the file ends at byte ", file.size());
  const detail::ArrayCore host = detail::new_array(stored, header.type, device.is_host() ? device : cpu(0));
  auto* elements = static_cast<char*>(detail::view_of(host, detail::exec_on(host.device())).data);
  file.read(data_offset, static_cast<std::size_t>(bytes), elements);
  if (header.big_endian) swap_bytes(elements, static_cast<std::size_t>(bytes), header.type);
  if (header.type == dtype::bool_) check_bools(elements, static_cast<std::size_t>(bytes), data_offset, where);
  const detail::ArrayCore ordered = header.fortran_order ? detail::transpose(host, {}) : host;
  return ndarray<>(device.is_host() ? ordered : detail::copy_to(ordered, device));
}

}  // namespace xp
