#pragma once
// The ZIP container of NumPy's .npz files (PKWARE's APPNOTE 6.3, the part Python's zipfile writes): the
// members' local headers and data, then the central directory, then the end-of-directory record, with
// the ZIP64 records where a size, an offset or the member count outgrows its 16- or 32-bit field.
// Members are stored (method 0) or deflated (method 8); no encryption, no spanning.
// Pure bytes: the caller reads the file. Errors are ValueErrors that begin with `where` and name the
// offset in the file.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace xp::detail {

inline constexpr std::uint16_t kZipStored = 0, kZipDeflated = 8;
inline constexpr std::size_t kZipLocalHeaderBytes = 30;  // before the member's name and extra field
// The end-of-directory record (22 bytes) and the longest comment it may end with.
inline constexpr std::size_t kZipEndSearchBytes = 22 + 0xffff;
inline constexpr std::size_t kZip64EndBytes = 56;  // the ZIP64 end-of-directory record without extensions
// The most bytes one call of zlib takes or gives: it counts them in 32-bit unsigned integers.
inline constexpr std::size_t kZlibChunk = std::size_t(1) << 30;

struct ZipMember {
  std::string name;
  std::uint16_t method = kZipStored;
  std::uint32_t crc32 = 0;
  std::uint64_t compressed_size = 0, size = 0;
  std::uint64_t header_offset = 0;  // of its local header
};

// Where the central directory is, from the end-of-directory record.
struct ZipEnd {
  std::uint64_t members = 0;
  std::uint64_t directory_offset = 0, directory_size = 0;
  bool zip64 = false;  // then the ZIP64 record at zip64_offset holds the three figures above
  std::uint64_t zip64_offset = 0;
};

// `tail` is the file's last bytes (at most kZipEndSearchBytes), starting at `tail_offset`.
ZipEnd find_zip_end(std::string_view tail, std::uint64_t tail_offset, std::string_view where);

// `record` holds kZip64EndBytes from end.zip64_offset: the figures it has replace end's.
void read_zip64_end(std::string_view record, ZipEnd& end, std::string_view where);

// The members the directory lists, in its order; `directory` is end.directory_size bytes from
// end.directory_offset. Each member's data lies before the directory (checked against it).
std::vector<ZipMember> parse_zip_directory(std::string_view directory, const ZipEnd& end, std::string_view where);

// The offset of the member's data, from its local header: `header` holds the kZipLocalHeaderBytes at
// member.header_offset and its name after them (`header` may be longer). The data must end before the
// directory.
std::uint64_t zip_data_offset(std::string_view header, const ZipMember& member, std::uint64_t directory_offset,
                              std::string_view where);

// What a writer puts before a member's data (at member.header_offset), and after the last member's data
// (at `directory_offset`): the central directory and the end-of-directory records.
std::string zip_local_header(const ZipMember& member);
std::string zip_directory(const std::vector<ZipMember>& members, std::uint64_t directory_offset);

}  // namespace xp::detail
