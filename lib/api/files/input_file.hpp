#pragma once
// A file open for reading at any offset (pread), closed with the object; its errors begin with `where`.
#include <cstddef>
#include <filesystem>
#include <string>

namespace xp::detail {

class InputFile {
 public:
  // IOError when it cannot be opened.
  InputFile(const std::filesystem::path& path, const std::string& where);
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  std::size_t size() const noexcept { return size_; }
  const std::string& where() const noexcept { return where_; }
  // Reads [offset, offset + n) into `out`; the caller has checked that the file holds it (IOError when the
  // file got shorter since).
  void read(std::size_t offset, std::size_t n, void* out) const;
  std::string read(std::size_t offset, std::size_t n) const;

 private:
  const std::string& where_;
  int fd_ = -1;
  std::size_t size_ = 0;
};

}  // namespace xp::detail
