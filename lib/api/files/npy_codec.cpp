#include "api/files/npy_codec.hpp"

#include <algorithm>

#include "api/array/array_factory.hpp"
#include "core/npy_header.hpp"
#include "xp/transfer.hpp"

namespace xp::detail {

namespace {

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

// Reads up to the first element: the preamble (10 bytes, 12 from version 2.0 on), then the dict.
NpyHeader read_header(NpySource& source, std::size_t& data_offset, const std::string& where) {
  std::string first(std::min<std::uint64_t>(source.size(), 10), '\0');
  source.read(first.size(), first.data());
  if (first.size() == 10 && static_cast<unsigned char>(first[6]) >= 2 && source.size() >= kNpyPreambleBytes) {
    first.resize(kNpyPreambleBytes);
    source.read(2, first.data() + 10);
  }
  const NpyPreamble preamble = parse_npy_preamble(first, where);
  XP_CHECK(preamble.data_offset <= source.size(), ValueError, where, ": the file ends at byte ", source.size(),
           " inside the header, which ends at offset ", preamble.data_offset);
  std::string dict(preamble.data_offset - preamble.dict_offset, '\0');
  source.read(dict.size(), dict.data());
  data_offset = preamble.data_offset;
  return parse_npy_header(dict, preamble.dict_offset, where);
}

}  // namespace

ndarray<> read_npy(NpySource& source, Device device, const std::string& where) {
  std::size_t data_offset = 0;
  const NpyHeader header = read_header(source, data_offset, where);
  // Fortran order: the elements are those of the transpose in C order.
  Shape stored = header.shape;
  if (header.fortran_order) std::reverse(stored.begin(), stored.end());
  const std::int64_t bytes = checked_bytes(stored, header.type, where);
  XP_CHECK(static_cast<std::uint64_t>(bytes) <= source.size() - data_offset, ValueError, where,
           ": the elements (shape ", header.shape, ", ", npy_descr(header.type), ") need ", bytes,
           " bytes from offset ", data_offset, "; the file ends at byte ", source.size());
  const ArrayCore host = new_array(stored, header.type, device.is_host() ? device : cpu(0));
  auto* elements = static_cast<char*>(view_of(host, exec_on(host.device())).data);
  source.read(static_cast<std::size_t>(bytes), elements);
  if (header.big_endian) swap_bytes(elements, static_cast<std::size_t>(bytes), header.type);
  if (header.type == dtype::bool_) check_bools(elements, static_cast<std::size_t>(bytes), data_offset, where);
  const ArrayCore ordered = header.fortran_order ? transpose(host, {}) : host;
  return ndarray<>(device.is_host() ? ordered : copy_to(ordered, device));
}

NpyBytes npy_bytes(const ndarray<>& a) {
  NpyBytes out;
  out.header = npy_header(a.dtype(), a.shape());
  const std::size_t bytes = a.nbytes();
  if (a.device().is_host() && a.is_contiguous()) {
    out.elements = {static_cast<const char*>(view_of(a, exec_on(a.device())).data), bytes};
  } else {
    out.staged = std::make_unique_for_overwrite<char[]>(bytes);
    copy_to_host(a, out.staged.get(), "saving an array");
    out.elements = {out.staged.get(), bytes};
  }
  return out;
}

std::filesystem::path with_suffix(std::filesystem::path path, std::string_view suffix) {
  if (!path.native().ends_with(suffix)) path += suffix;
  return path;
}

}  // namespace xp::detail
