// savez and savez_compressed: a zip archive of one .npy per array (core/zip_format.hpp), written with
// the file's other writers' crash safety. Stored members go from the arrays' memory to the file; deflated
// ones through a buffer of their compressed bytes.
#include <zlib.h>

#include <climits>
#include <set>
#include <string>
#include <vector>

#include "api/files/npy_codec.hpp"
#include "core/zip_format.hpp"
#include "support/temporary_file.hpp"
#include "xp/npy.hpp"
#include "xp/profile.hpp"

namespace xp {

namespace {

struct Member {
  detail::ZipMember zip;
  std::string local_header;
  detail::NpyBytes npy;
  std::unique_ptr<char[]> deflated;  // compressed_size bytes, for a deflated member
};

std::uint32_t crc_of(const detail::NpyBytes& npy) {
  uLong crc = crc32_z(0, reinterpret_cast<const Bytef*>(npy.header.data()), npy.header.size());
  // An empty array's memory may be null, which crc32 takes for a restart.
  if (!npy.elements.empty())
    crc = crc32_z(crc, reinterpret_cast<const Bytef*>(npy.elements.data()), npy.elements.size());
  return static_cast<std::uint32_t>(crc);
}

// Deflates the .npy's bytes (raw deflate, as zip holds them) at zlib's default level, np.savez_compressed's.
void deflate_member(Member& member, const std::string& where) {
  z_stream z{};
  XP_CHECK(deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK, IOError,
           where, ": zlib's deflateInit2 failed");
  const std::size_t capacity = deflateBound(&z, member.zip.size);
  member.deflated = std::make_unique_for_overwrite<char[]>(capacity);
  const auto run = [&](int flush) {
    z.next_out = reinterpret_cast<Bytef*>(member.deflated.get() + z.total_out);
    z.avail_out = static_cast<uInt>(std::min(capacity - z.total_out, detail::kZlibChunk));
    const int status = deflate(&z, flush);
    if (status == Z_STREAM_ERROR || (status == Z_BUF_ERROR && z.avail_out == 0)) {
      deflateEnd(&z);
      throw IOError(where, ": zlib's deflate failed (", status, ") on '", member.zip.name, "'");
    }
    return status;
  };
  for (const std::string_view part : {std::string_view(member.npy.header), member.npy.elements}) {
    for (std::size_t at = 0; at < part.size(); at += detail::kZlibChunk) {
      z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(part.data() + at));
      z.avail_in = static_cast<uInt>(std::min(part.size() - at, detail::kZlibChunk));
      while (z.avail_in > 0) run(Z_NO_FLUSH);
    }
  }
  while (run(Z_FINISH) != Z_STREAM_END) {}
  member.zip.compressed_size = z.total_out;
  deflateEnd(&z);
}

std::vector<Member> members_of(const NamedArrays& arrays, bool compressed, const std::string& where) {
  std::vector<Member> members(arrays.size());
  std::set<std::string_view> names;
  std::uint64_t offset = 0;
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    const auto& [name, array] = arrays[i];
    XP_CHECK(names.insert(name).second, ValueError, where, ": two arrays are named '", name, "'");
    Member& member = members[i];
    member.zip.name = name + ".npy";
    XP_CHECK(member.zip.name.size() <= 0xffff, ValueError, where, ": the name of array ", i, " has ", name.size(),
             " bytes; a zip member's name holds 65531 at most");
    member.npy = detail::npy_bytes(array);
    member.zip.size = member.npy.header.size() + member.npy.elements.size();
    member.zip.crc32 = crc_of(member.npy);
    member.zip.method = compressed ? detail::kZipDeflated : detail::kZipStored;
    if (compressed) {
      deflate_member(member, where);
      member.npy = {};  // a device array's copy is not kept beside its deflated bytes
    } else {
      member.zip.compressed_size = member.zip.size;
    }
    member.zip.header_offset = offset;
    member.local_header = detail::zip_local_header(member.zip);
    offset += member.local_header.size() + member.zip.compressed_size;
  }
  return members;
}

void write_npz(const std::filesystem::path& path, const NamedArrays& arrays, bool compressed, const char* op) {
  const std::filesystem::path file = detail::with_suffix(path, ".npz");
  const std::string where = detail::join_message(op, "(", file, ")");
  const std::vector<Member> members = members_of(arrays, compressed, where);
  std::vector<detail::ZipMember> entries;
  std::vector<std::string_view> parts;
  std::uint64_t directory_offset = 0;
  for (const Member& member : members) {
    entries.push_back(member.zip);
    parts.push_back(member.local_header);
    if (compressed) {
      parts.emplace_back(member.deflated.get(), member.zip.compressed_size);
    } else {
      parts.push_back(member.npy.header);
      parts.push_back(member.npy.elements);
    }
    directory_offset += member.local_header.size() + member.zip.compressed_size;
  }
  const std::string directory = detail::zip_directory(entries, directory_offset);
  parts.push_back(directory);
  detail::write_file_replacing(file, parts, where);
}

}  // namespace

void savez(const std::filesystem::path& path, const NamedArrays& arrays) {
  const profile_range profiled("savez");
  write_npz(path, arrays, false, "savez");
}

void savez_compressed(const std::filesystem::path& path, const NamedArrays& arrays) {
  const profile_range profiled("savez_compressed");
  write_npz(path, arrays, true, "savez_compressed");
}

}  // namespace xp
