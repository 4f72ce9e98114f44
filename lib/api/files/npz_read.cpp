// load_npz: the zip directory (core/zip_format.hpp), then each member's .npy read straight into its
// array, through zlib's inflate where it is deflated, its CRC-32 computed on the way.
#include <zlib.h>

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "api/files/input_file.hpp"
#include "api/files/npy_codec.hpp"
#include "core/zip_format.hpp"
#include "xp/npy.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace {

constexpr std::size_t kCompressedChunk = std::size_t(1) << 20;
// Deflate makes at most 258 bytes of 2 bits (a byte's worth takes more than 1/1032 of it): a directory
// claiming more is not believed before anything is allocated for it.
constexpr std::uint64_t kMaxInflateRatio = 1032;

// One member's bytes as a .npy, the CRC-32 of what was read kept; finish() reads the rest and checks
// the CRC and the size against the directory's.
class MemberSource : public detail::NpySource {
 public:
  MemberSource(const detail::InputFile& file, const detail::ZipMember& member, std::uint64_t data_offset,
               const std::string& where)
      : file_(file), member_(member), data_offset_(data_offset), where_(where) {}
  std::uint64_t size() const override { return member_.size; }
  void read(std::size_t n, void* out) override {
    if (n == 0) return;  // an empty array's memory may be null, which zlib's crc32 takes for a restart
    fill(n, static_cast<char*>(out));
    crc_ = crc32_z(crc_, static_cast<const Bytef*>(out), n);
    position_ += n;
  }
  void finish() {
    std::vector<char> rest(std::min<std::uint64_t>(member_.size - position_, kCompressedChunk));
    while (position_ < member_.size) read(std::min<std::uint64_t>(rest.size(), member_.size - position_), rest.data());
    check_end();
    XP_CHECK(crc_ == member_.crc32, ValueError, where_, ": its ", member_.size, " bytes have the CRC-32 ", crc_,
             ", the directory says ", member_.crc32, " (the member is damaged)");
  }

 protected:
  virtual void fill(std::size_t n, char* out) = 0;
  virtual void check_end() {}

  const detail::InputFile& file_;
  const detail::ZipMember& member_;
  const std::uint64_t data_offset_;
  const std::string& where_;
  std::uint64_t position_ = 0;

 private:
  uLong crc_ = 0;
};

class StoredMember final : public MemberSource {
 public:
  using MemberSource::MemberSource;

 private:
  void fill(std::size_t n, char* out) override { file_.read(data_offset_ + position_, n, out); }
};

class DeflatedMember final : public MemberSource {
 public:
  DeflatedMember(const detail::InputFile& file, const detail::ZipMember& member, std::uint64_t data_offset,
                 const std::string& where)
      : MemberSource(file, member, data_offset, where), input_(kCompressedChunk) {
    XP_CHECK(inflateInit2(&z_, -MAX_WBITS) == Z_OK, IOError, where, ": zlib's inflateInit2 failed");
  }
  ~DeflatedMember() override { inflateEnd(&z_); }

 private:
  void fill(std::size_t n, char* out) override {
    for (std::size_t done = 0; done < n;) {
      XP_CHECK(!ended_, ValueError, where_, ": its deflated data ends after ", z_.total_out,
               " bytes; the directory says ", member_.size);
      done += inflate_into(out + done, n - done);
    }
  }
  // The deflate stream must end with the member's bytes.
  void check_end() override {
    char extra = 0;
    while (!ended_)
      XP_CHECK(inflate_into(&extra, 1) == 0, ValueError, where_, ": its deflated data goes on past the ", member_.size,
               " bytes the directory says");
  }
  std::size_t inflate_into(char* out, std::size_t n);

  z_stream z_{};
  std::vector<char> input_;
  std::uint64_t consumed_ = 0;  // compressed bytes given to zlib
  bool ended_ = false;
};

// As much of [out, out + n) as one call of inflate makes, given the next compressed chunk when it has
// used the last.
std::size_t DeflatedMember::inflate_into(char* out, std::size_t n) {
  if (z_.avail_in == 0) {
    XP_CHECK(consumed_ < member_.compressed_size, ValueError, where_, ": its ", member_.compressed_size,
             " deflated bytes end before the deflate stream does (after ", z_.total_out, " of its ", member_.size,
             " bytes)");
    const std::size_t chunk = std::min<std::uint64_t>(input_.size(), member_.compressed_size - consumed_);
    file_.read(data_offset_ + consumed_, chunk, input_.data());
    z_.next_in = reinterpret_cast<Bytef*>(input_.data());
    z_.avail_in = static_cast<uInt>(chunk);
    consumed_ += chunk;
  }
  z_.next_out = reinterpret_cast<Bytef*>(out);
  z_.avail_out = static_cast<uInt>(std::min(n, detail::kZlibChunk));
  const uInt room = z_.avail_out;
  const int status = inflate(&z_, Z_NO_FLUSH);
  XP_CHECK(status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR, ValueError, where_,
           ": its deflated data is damaged before byte ", data_offset_ + consumed_ - z_.avail_in,
           " of the file: ", z_.msg != nullptr ? z_.msg : "zlib's inflate failed");
  ended_ = status == Z_STREAM_END;
  return room - z_.avail_out;
}

// The archive's directory: where each member's data starts.
struct Directory {
  std::vector<detail::ZipMember> members;
  std::uint64_t directory_offset = 0;
};

Directory read_directory(const detail::InputFile& file, const std::string& where) {
  const std::size_t tail_bytes = std::min(file.size(), detail::kZipEndSearchBytes);
  const std::size_t tail_offset = file.size() - tail_bytes;
  detail::ZipEnd end = detail::find_zip_end(file.read(tail_offset, tail_bytes), tail_offset, where);
  if (end.zip64) detail::read_zip64_end(file.read(end.zip64_offset, detail::kZip64EndBytes), end, where);
  const std::string directory = file.read(end.directory_offset, end.directory_size);
  return {detail::parse_zip_directory(directory, end, where), end.directory_offset};
}

// The member's array; the key NumPy gives it is its name without ".npy".
ndarray<> read_member(const detail::InputFile& file, const detail::ZipMember& member, std::uint64_t directory_offset,
                      Device device, const std::string& where) {
  const std::string header = file.read(member.header_offset, detail::kZipLocalHeaderBytes + member.name.size());
  const std::uint64_t data_offset = detail::zip_data_offset(header, member, directory_offset, where);
  const std::string in_member = detail::join_message(where, ": member '", member.name, "'");
  XP_CHECK(member.method == detail::kZipStored || member.size / kMaxInflateRatio <= member.compressed_size, ValueError,
           in_member, ": the directory says its ", member.compressed_size, " deflated bytes make ", member.size,
           ", more than deflate can make of them");
  std::unique_ptr<MemberSource> source;
  if (member.method == detail::kZipStored)
    source = std::make_unique<StoredMember>(file, member, data_offset, in_member);
  else source = std::make_unique<DeflatedMember>(file, member, data_offset, in_member);
  ndarray<> array = detail::read_npy(*source, device, in_member);
  source->finish();
  return array;
}

}  // namespace

NamedArrays load_npz(const std::filesystem::path& path, Device device) {
  const profile_range profiled("load_npz");
  const std::string where = detail::join_message("load_npz(", path, ")");
  const detail::InputFile file(path, where);
  const Directory directory = read_directory(file, where);
  NamedArrays arrays;
  std::map<std::string, std::uint64_t> offsets;
  for (const detail::ZipMember& member : directory.members) {
    std::string name = member.name.ends_with(".npy") ? member.name.substr(0, member.name.size() - 4) : member.name;
    const auto [taken, added] = offsets.emplace(name, member.header_offset);
    XP_CHECK(added, ValueError, where, ": two members (at offsets ", taken->second, " and ", member.header_offset,
             ") are both the array '", name, "'");
    arrays.emplace_back(std::move(name), read_member(file, member, directory.directory_offset, device, where));
  }
  return arrays;
}

}  // namespace xp
