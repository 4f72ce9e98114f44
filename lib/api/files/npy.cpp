// save_npy and load_npy: the elements go between the file and a host array's own memory without another
// copy where the array allows it.
#include "xp/npy.hpp"

#include <string>

#include "api/files/input_file.hpp"
#include "api/files/npy_codec.hpp"
#include "support/temporary_file.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace {

// A whole file as one .npy.
class FileSource final : public detail::NpySource {
 public:
  explicit FileSource(const detail::InputFile& file) : file_(file) {}
  std::uint64_t size() const override { return file_.size(); }
  void read(std::size_t n, void* out) override {
    file_.read(position_, n, out);
    position_ += n;
  }

 private:
  const detail::InputFile& file_;
  std::size_t position_ = 0;
};

}  // namespace

void save_npy(const std::filesystem::path& path, const ndarray<>& a) {
  const profile_range profiled("save_npy");
  const std::filesystem::path file = detail::with_suffix(path, ".npy");
  const std::string where = detail::join_message("save_npy(", file, ")");
  const detail::NpyBytes npy = detail::npy_bytes(a);
  const std::string_view parts[] = {npy.header, npy.elements};
  detail::write_file_replacing(file, parts, where);
}

ndarray<> load_npy(const std::filesystem::path& path, Device device) {
  const profile_range profiled("load_npy");
  const std::string where = detail::join_message("load_npy(", path, ")");
  const detail::InputFile file(path, where);
  FileSource source(file);
  return detail::read_npy(source, device, where);
}

}  // namespace xp
