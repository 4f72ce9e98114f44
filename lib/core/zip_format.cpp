#include "core/zip_format.hpp"

#include <algorithm>
#include <utility>

#include "xp/error.hpp"

namespace xp::detail {

namespace {

constexpr std::string_view kLocalSignature("PK\3\4", 4), kDirectorySignature("PK\1\2", 4), kEndSignature("PK\5\6", 4),
    kZip64EndSignature("PK\6\6", 4), kZip64LocatorSignature("PK\6\7", 4);
constexpr std::size_t kDirectoryEntryBytes = 46, kEndBytes = 22, kZip64LocatorBytes = 20;
constexpr std::uint16_t kZip64ExtraId = 1;
constexpr std::uint32_t kFull32 = 0xffffffff;
constexpr std::uint16_t kFull16 = 0xffff;
constexpr std::uint16_t kEncrypted = 1, kUtf8Name = 0x800;
constexpr std::uint16_t kVersion = 20, kZip64Version = 45, kMadeOnUnix = 3 << 8;
constexpr std::uint16_t kDate1980 = 1 << 5 | 1;  // 1980-01-01 00:00, the earliest DOS date: the same bytes each save
constexpr std::uint32_t kRegularFileMode = 0100644u << 16;

// The little-endian integer of `n` bytes at `at`; the caller has checked that they are there.
std::uint64_t little(std::string_view bytes, std::size_t at, int n) {
  std::uint64_t value = 0;
  for (int i = n; i-- > 0;) value = value << 8 | static_cast<unsigned char>(bytes[at + i]);
  return value;
}

void put(std::string& out, std::uint64_t value, int n) {
  for (int i = 0; i < n; ++i, value >>= 8) out += static_cast<char>(value & 0xff);
}

// Whether [offset, offset + n) ends at or before `limit`, without overflowing.
bool fits(std::uint64_t offset, std::uint64_t n, std::uint64_t limit) { return offset <= limit && n <= limit - offset; }

// The ZIP64 extra field's figures replace those of the entry that are full (0xffffffff), in its order.
void read_zip64_extra(std::string_view extra, std::uint64_t extra_offset, ZipMember& member, bool offset_full,
                      std::string_view where) {
  std::uint64_t* const wanted[] = {member.size == kFull32 ? &member.size : nullptr,
                                   member.compressed_size == kFull32 ? &member.compressed_size : nullptr,
                                   offset_full ? &member.header_offset : nullptr};
  for (std::size_t at = 0; at + 4 <= extra.size();) {
    const auto id = little(extra, at, 2), bytes = little(extra, at + 2, 2);
    XP_CHECK(at + 4 + bytes <= extra.size(), ValueError, where, ": the extra field at offset ", extra_offset + at,
             " of '", member.name, "' says ", bytes, " bytes, past the ", extra.size(), " of the entry's extra data");
    if (id == kZip64ExtraId) {
      std::size_t field = at + 4;
      for (std::uint64_t* const figure : wanted) {
        if (figure == nullptr) continue;
        XP_CHECK(field + 8 <= at + 4 + bytes, ValueError, where, ": the ZIP64 extra field at offset ",
                 extra_offset + at, " of '", member.name, "' holds ", bytes, " bytes, too few for its full sizes");
        *figure = little(extra, field, 8);
        field += 8;
      }
      return;
    }
    at += 4 + bytes;
  }
  XP_CHECK(wanted[0] == nullptr && wanted[1] == nullptr && wanted[2] == nullptr, ValueError, where, ": the entry of '",
           member.name, "' has a full size or offset field (0xffffffff) and no ZIP64 extra field to hold it");
}

// One central directory entry at `at` of `directory`; its length in `length`.
ZipMember parse_entry(std::string_view directory, std::size_t at, const ZipEnd& end, std::size_t& length,
                      std::string_view where) {
  const std::uint64_t offset = end.directory_offset + at;
  XP_CHECK(at + kDirectoryEntryBytes <= directory.size() &&
               directory.substr(at, kDirectorySignature.size()) == kDirectorySignature,
           ValueError, where, ": no directory entry (PK\\1\\2) at offset ", offset, " where the directory's ",
           end.members, " entries should be");
  const auto flags = little(directory, at + 8, 2);
  const auto name_bytes = little(directory, at + 28, 2), extra_bytes = little(directory, at + 30, 2),
             comment_bytes = little(directory, at + 32, 2);
  length = kDirectoryEntryBytes + name_bytes + extra_bytes + comment_bytes;
  XP_CHECK(at + length <= directory.size(), ValueError, where, ": the directory entry at offset ", offset,
           " runs past the directory's end at offset ", end.directory_offset + directory.size());
  ZipMember member;
  member.name = std::string(directory.substr(at + kDirectoryEntryBytes, name_bytes));
  member.method = static_cast<std::uint16_t>(little(directory, at + 10, 2));
  member.crc32 = static_cast<std::uint32_t>(little(directory, at + 16, 4));
  member.compressed_size = little(directory, at + 20, 4);
  member.size = little(directory, at + 24, 4);
  member.header_offset = little(directory, at + 42, 4);
  XP_CHECK(!(flags & kEncrypted), ValueError, where, ": '", member.name, "' (entry at offset ", offset,
           ") is encrypted; .npz members are not");
  XP_CHECK(member.method == kZipStored || member.method == kZipDeflated, ValueError, where, ": '", member.name,
           "' (entry at offset ", offset, ") is compressed with method ", member.method,
           "; NumPy writes 0 (stored) and 8 (deflated)");
  const std::size_t extra_at = at + kDirectoryEntryBytes + name_bytes;
  read_zip64_extra(directory.substr(extra_at, extra_bytes), end.directory_offset + extra_at, member,
                   member.header_offset == kFull32, where);
  XP_CHECK(member.method != kZipStored || member.compressed_size == member.size, ValueError, where, ": '", member.name,
           "' (entry at offset ", offset, ") is stored with ", member.compressed_size, " bytes that unpack to ",
           member.size);
  XP_CHECK(
      fits(member.header_offset, kZipLocalHeaderBytes + name_bytes, end.directory_offset) &&
          fits(member.header_offset + kZipLocalHeaderBytes + name_bytes, member.compressed_size, end.directory_offset),
      ValueError, where, ": '", member.name, "' (entry at offset ", offset, ") has its ", member.compressed_size,
      " bytes at offset ", member.header_offset, ", which do not end before the directory at offset ",
      end.directory_offset);
  return member;
}

}  // namespace

ZipEnd find_zip_end(std::string_view tail, std::uint64_t tail_offset, std::string_view where) {
  const std::size_t at =
      tail.size() < kEndBytes ? std::string_view::npos : tail.rfind(kEndSignature, tail.size() - kEndBytes);
  XP_CHECK(at != std::string_view::npos, ValueError, where,
           ": not a zip archive: no end-of-directory record (PK\\5\\6) "
           "in its last ",
           tail.size(), " bytes, from offset ", tail_offset);
  const std::uint64_t end_offset = tail_offset + at;
  XP_CHECK(little(tail, at + 4, 2) == little(tail, at + 6, 2) && little(tail, at + 8, 2) == little(tail, at + 10, 2),
           ValueError, where, ": the end-of-directory record at offset ", end_offset,
           " describes an archive spanning several disks");
  ZipEnd end;
  end.members = little(tail, at + 10, 2);
  end.directory_size = little(tail, at + 12, 4);
  end.directory_offset = little(tail, at + 16, 4);
  const std::size_t locator = at - kZip64LocatorBytes;
  if (at >= kZip64LocatorBytes && tail.substr(locator, kZip64LocatorSignature.size()) == kZip64LocatorSignature) {
    end.zip64 = true;
    end.zip64_offset = little(tail, locator + 8, 8);
    XP_CHECK(end.zip64_offset <= tail_offset + locator && kZip64EndBytes <= tail_offset + locator - end.zip64_offset,
             ValueError, where, ": the ZIP64 locator at offset ", tail_offset + locator,
             " puts the ZIP64 end-of-directory record at offset ", end.zip64_offset, ", which does not end before it");
    return end;
  }
  XP_CHECK(fits(end.directory_offset, end.directory_size, end_offset), ValueError, where,
           ": the end-of-directory record at offset ", end_offset, " puts the ", end.directory_size,
           "-byte directory at offset ", end.directory_offset, ", which does not end before the record");
  return end;
}

void read_zip64_end(std::string_view record, ZipEnd& end, std::string_view where) {
  XP_CHECK(record.size() >= kZip64EndBytes && record.substr(0, kZip64EndSignature.size()) == kZip64EndSignature,
           ValueError, where, ": no ZIP64 end-of-directory record (PK\\6\\6) at offset ", end.zip64_offset,
           " where its locator says");
  XP_CHECK(little(record, 16, 4) == 0 && little(record, 20, 4) == 0 && little(record, 24, 8) == little(record, 32, 8),
           ValueError, where, ": the ZIP64 end-of-directory record at offset ", end.zip64_offset,
           " describes an archive spanning several disks");
  end.members = little(record, 32, 8);
  end.directory_size = little(record, 40, 8);
  end.directory_offset = little(record, 48, 8);
  XP_CHECK(fits(end.directory_offset, end.directory_size, end.zip64_offset), ValueError, where,
           ": the ZIP64 end-of-directory record at offset ", end.zip64_offset, " puts the ", end.directory_size,
           "-byte directory at offset ", end.directory_offset, ", which does not end before the record");
}

std::vector<ZipMember> parse_zip_directory(std::string_view directory, const ZipEnd& end, std::string_view where) {
  std::vector<ZipMember> members;
  // Each entry takes 46 bytes at least: a count beyond that is not believed (nor reserved for).
  members.reserve(std::min<std::uint64_t>(end.members, directory.size() / kDirectoryEntryBytes));
  std::size_t at = 0;
  for (std::uint64_t i = 0; i < end.members; ++i) {
    std::size_t length = 0;
    members.push_back(parse_entry(directory, at, end, length, where));
    at += length;
  }
  return members;
}

std::uint64_t zip_data_offset(std::string_view header, const ZipMember& member, std::uint64_t directory_offset,
                              std::string_view where) {
  XP_CHECK(header.size() >= kZipLocalHeaderBytes && header.substr(0, kLocalSignature.size()) == kLocalSignature,
           ValueError, where, ": no local header (PK\\3\\4) at offset ", member.header_offset,
           " where the directory puts '", member.name, "'");
  const auto name_bytes = little(header, 26, 2), extra_bytes = little(header, 28, 2);
  XP_CHECK(header.substr(kZipLocalHeaderBytes, name_bytes) == member.name, ValueError, where,
           ": the local header at offset ", member.header_offset, " names '",
           header.substr(kZipLocalHeaderBytes, name_bytes), "', the directory '", member.name, "'");
  const std::uint64_t data = member.header_offset + kZipLocalHeaderBytes + name_bytes + extra_bytes;
  XP_CHECK(fits(data, member.compressed_size, directory_offset), ValueError, where, ": the ", member.compressed_size,
           " bytes of '", member.name, "' from offset ", data, " do not end before the directory at offset ",
           directory_offset);
  return data;
}

std::string zip_local_header(const ZipMember& member) {
  const bool zip64 = member.size >= kFull32 || member.compressed_size >= kFull32;
  const bool utf8 = std::any_of(member.name.begin(), member.name.end(), [](char c) { return c & 0x80; });
  std::string out(kLocalSignature);
  put(out, zip64 ? kZip64Version : kVersion, 2);
  put(out, utf8 ? kUtf8Name : 0, 2);
  put(out, member.method, 2);
  put(out, 0, 2);
  put(out, kDate1980, 2);
  put(out, member.crc32, 4);
  put(out, zip64 ? kFull32 : member.compressed_size, 4);
  put(out, zip64 ? kFull32 : member.size, 4);
  put(out, member.name.size(), 2);
  put(out, zip64 ? 20 : 0, 2);
  out += member.name;
  if (zip64) {
    put(out, kZip64ExtraId, 2);
    put(out, 16, 2);
    put(out, member.size, 8);
    put(out, member.compressed_size, 8);
  }
  return out;
}

namespace {

void put_directory_entry(std::string& out, const ZipMember& member) {
  const bool size_full = member.size >= kFull32, compressed_full = member.compressed_size >= kFull32,
             offset_full = member.header_offset >= kFull32;
  const int zip64_bytes = 8 * (size_full + compressed_full + offset_full);
  const bool utf8 = std::any_of(member.name.begin(), member.name.end(), [](char c) { return c & 0x80; });
  out += kDirectorySignature;
  put(out, kMadeOnUnix | kZip64Version, 2);
  put(out, zip64_bytes ? kZip64Version : kVersion, 2);
  put(out, utf8 ? kUtf8Name : 0, 2);
  put(out, member.method, 2);
  put(out, 0, 2);
  put(out, kDate1980, 2);
  put(out, member.crc32, 4);
  put(out, compressed_full ? kFull32 : member.compressed_size, 4);
  put(out, size_full ? kFull32 : member.size, 4);
  put(out, member.name.size(), 2);
  put(out, zip64_bytes ? 4 + zip64_bytes : 0, 2);
  put(out, 0, 2);  // comment
  put(out, 0, 2);  // disk
  put(out, 0, 2);  // internal attributes
  put(out, kRegularFileMode, 4);
  put(out, offset_full ? kFull32 : member.header_offset, 4);
  out += member.name;
  if (zip64_bytes == 0) return;
  put(out, kZip64ExtraId, 2);
  put(out, zip64_bytes, 2);
  for (const auto& [full, figure] : {std::pair{size_full, member.size},
                                     {compressed_full, member.compressed_size},
                                     {offset_full, member.header_offset}})
    if (full) put(out, figure, 8);
}

void put_zip64_end(std::string& out, std::uint64_t members, std::uint64_t directory_offset,
                   std::uint64_t directory_size) {
  const std::uint64_t record_offset = directory_offset + directory_size;
  out += kZip64EndSignature;
  put(out, kZip64EndBytes - 12, 8);  // the record's size after this field
  put(out, kMadeOnUnix | kZip64Version, 2);
  put(out, kZip64Version, 2);
  put(out, 0, 4);
  put(out, 0, 4);
  put(out, members, 8);
  put(out, members, 8);
  put(out, directory_size, 8);
  put(out, directory_offset, 8);
  out += kZip64LocatorSignature;
  put(out, 0, 4);
  put(out, record_offset, 8);
  put(out, 1, 4);  // disks
}

}  // namespace

std::string zip_directory(const std::vector<ZipMember>& members, std::uint64_t directory_offset) {
  std::string out;
  for (const ZipMember& member : members) put_directory_entry(out, member);
  const std::uint64_t directory_size = out.size();
  const bool zip64 = members.size() >= kFull16 || directory_offset >= kFull32 || directory_size >= kFull32;
  if (zip64) put_zip64_end(out, members.size(), directory_offset, directory_size);
  out += kEndSignature;
  put(out, 0, 2);
  put(out, 0, 2);
  for (int twice = 0; twice < 2; ++twice) put(out, zip64 ? kFull16 : members.size(), 2);
  put(out, zip64 ? kFull32 : directory_size, 4);
  put(out, zip64 ? kFull32 : directory_offset, 4);
  put(out, 0, 2);  // comment
  return out;
}

}  // namespace xp::detail
