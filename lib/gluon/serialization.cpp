// MXNet 1.x's NDArray list file (src/ndarray/ndarray.cc, NDArray::Save/Load): little-endian
//   u64 0x112, u64 0, u64 count, count arrays, u64 count of names, each name as u64 length + bytes;
// one dense array: u32 magic (V2 0xF993fac9; V3 0xF993faca, MXNet's numpy shapes, for 0-d arrays),
//   i32 storage type 0, i32 ndim, ndim i64 extents, i32 device type, i32 device id, i32 mshadow type
//   flag, the elements in C order. V1 (0xF993fac8: no storage type) is read too.

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>

#include "support/shape_check.hpp"
#include "support/temporary_file.hpp"
#include "xp/creation.hpp"
#include "xp/serialization.hpp"

static_assert(std::endian::native == std::endian::little, "the file format is little-endian");

namespace xp {

namespace {

constexpr std::uint64_t kListMagic = 0x112;
constexpr std::uint32_t kArrayV1 = 0xF993fac8, kArrayV2 = 0xF993fac9, kArrayV3 = 0xF993faca;

// mshadow's type flags (MXNet 1.9's numbering); it has none for complex types.
std::optional<std::int32_t> type_flag(dtype type) {
  switch (type) {
    case dtype::float32: return 0;
    case dtype::float64: return 1;
    case dtype::uint8: return 3;
    case dtype::int32: return 4;
    case dtype::int8: return 5;
    case dtype::int64: return 6;
    case dtype::bool_: return 7;
    case dtype::int16: return 8;
    case dtype::uint16: return 9;
    case dtype::uint32: return 10;
    case dtype::uint64: return 11;
    case dtype::float16: return 2;
    case dtype::bfloat16: return 12;
    case dtype::complex64:
    case dtype::complex128: break;
  }
  return std::nullopt;
}

std::optional<dtype> dtype_of_flag(std::int32_t flag) {
  for (int t = 0; t < kNumDtypes; ++t)
    if (type_flag(static_cast<dtype>(t)) == flag) return static_cast<dtype>(t);
  return std::nullopt;
}

class Writer {
 public:
  explicit Writer(std::string& bytes) : bytes_(bytes) {}
  template <class T>
  void put(T value) {
    bytes_.append(reinterpret_cast<const char*>(&value), sizeof value);
  }
  void put_bytes(const void* data, std::size_t n) { bytes_.append(static_cast<const char*>(data), n); }

 private:
  std::string& bytes_;
};

class Reader {
 public:
  Reader(const std::string& bytes, const std::filesystem::path& path) : bytes_(bytes), path_(path) {}
  template <class T>
  T get(const char* what) {
    T value;
    std::memcpy(&value, take(sizeof value, what), sizeof value);
    return value;
  }
  const char* take(std::size_t n, const char* what) {
    XP_CHECK(n <= bytes_.size() - offset_, ValueError, "load(", path_, "): the file ends at byte ", bytes_.size(),
             " inside ", what, " (", n, " bytes from offset ", offset_, ")");
    const char* at = bytes_.data() + offset_;
    offset_ += n;
    return at;
  }
  std::size_t offset() const noexcept { return offset_; }
  std::size_t left() const noexcept { return bytes_.size() - offset_; }
  const std::filesystem::path& path() const noexcept { return path_; }

 private:
  const std::string& bytes_;
  const std::filesystem::path& path_;
  std::size_t offset_ = 0;
};

void write_array(Writer& out, const ndarray<>& array) {
  out.put(array.ndim() == 0 ? kArrayV3 : kArrayV2);
  out.put(std::int32_t{0});  // dense storage
  out.put(static_cast<std::int32_t>(array.ndim()));
  for (std::int64_t extent : array.shape()) out.put(extent);
  out.put(static_cast<std::int32_t>(array.device().type()));
  out.put(static_cast<std::int32_t>(array.device().id()));
  const std::optional<std::int32_t> flag = type_flag(array.dtype());
  XP_CHECK(flag.has_value(), TypeError, "save: MXNet's parameter format has no ", array.dtype(),
           " (MXNet 1.9 numbers no complex type); convert to real and imaginary parts first");
  out.put(*flag);
  std::string elements(array.nbytes(), '\0');
  detail::copy_to_host(array, elements.data(), "saving parameters");
  out.put_bytes(elements.data(), elements.size());
}

ndarray<> read_array(Reader& in) {
  const std::size_t start = in.offset();
  const auto magic = in.get<std::uint32_t>("an array's header");
  XP_CHECK(magic == kArrayV1 || magic == kArrayV2 || magic == kArrayV3, ValueError, "load(", in.path(),
           "): an array at offset ", start, " starts with 0x", std::hex, magic,
           ", not an NDArray magic number (0xf993fac8, 0xf993fac9 or 0xf993faca)");
  if (magic != kArrayV1) {
    const auto storage = in.get<std::int32_t>("an array's storage type");
    XP_CHECK(storage == 0, ValueError, "load(", in.path(), "): the array at offset ", start, " has storage type ",
             storage, " (sparse); only dense arrays (0) are supported");
  }
  const auto ndim = in.get<std::int32_t>("an array's rank");
  XP_CHECK(ndim > 0 || (magic == kArrayV3 && ndim == 0), ValueError, "load(", in.path(), "): the array at offset ",
           start, " has no shape (rank ", ndim, "): an empty NDArray was saved");
  XP_CHECK(ndim <= kMaxNdim, ValueError, "load(", in.path(), "): the array at offset ", start, " has rank ", ndim,
           "; arrays have at most ", kMaxNdim, " dimensions");
  Shape shape;
  for (std::int32_t axis = 0; axis < ndim; ++axis) shape.push_back(in.get<std::int64_t>("an array's shape"));
  in.get<std::int32_t>("an array's device type");  // arrays come back on cpu(0)
  in.get<std::int32_t>("an array's device id");
  const auto flag = in.get<std::int32_t>("an array's type");
  const std::optional<dtype> type = dtype_of_flag(flag);
  XP_CHECK(type, ValueError, "load(", in.path(), "): the array at offset ", start, " has type flag ", flag,
           ", which xparray has no type for");
  const std::int64_t bytes =
      detail::checked_bytes(shape, *type, detail::join_message("load(", in.path(), "): the array at offset ", start));
  XP_CHECK(static_cast<std::uint64_t>(bytes) <= in.left(), ValueError, "load(", in.path(), "): the array at offset ",
           start, " of shape ", shape, " needs ", bytes, " bytes, more than the ", in.left(), " left");
  const std::size_t elements_at = in.offset();
  const char* elements = in.take(static_cast<std::size_t>(bytes), "an array's elements");
  if (*type == dtype::bool_) {
    // Any other byte is no bool value: reading it as one is undefined.
    const auto* flags = reinterpret_cast<const unsigned char*>(elements);
    const auto* bad = std::find_if(flags, flags + bytes, [](unsigned char b) { return b > 1; });
    XP_CHECK(bad == flags + bytes, ValueError, "load(", in.path(), "): the bool array at offset ", start,
             " holds the byte ", static_cast<int>(*bad), " at offset ",
             elements_at + static_cast<std::size_t>(bad - flags), "; bool elements are 0 or 1");
  }
  return ndarray<>(detail::from_host(elements, shape, *type, cpu(0)));
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  XP_CHECK(file, IOError, "load: cannot open ", path, ": ", std::strerror(errno));
  std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  XP_CHECK(!file.bad(), IOError, "load: cannot read ", path);
  return bytes;
}

}  // namespace

void save(const std::filesystem::path& path, const NamedArrays& arrays) {
  std::string bytes;
  Writer out(bytes);
  out.put(kListMagic);
  out.put(std::uint64_t{0});
  out.put(static_cast<std::uint64_t>(arrays.size()));
  for (const auto& [name, array] : arrays) write_array(out, array);
  out.put(static_cast<std::uint64_t>(arrays.size()));
  for (const auto& [name, array] : arrays) {
    out.put(static_cast<std::uint64_t>(name.size()));
    out.put_bytes(name.data(), name.size());
  }
  const std::string_view parts[] = {bytes};
  detail::write_file_replacing(path, parts, "save");
}

NamedArrays load(const std::filesystem::path& path) {
  const std::string bytes = read_file(path);
  Reader in(bytes, path);
  const auto magic = in.get<std::uint64_t>("the file's header");
  XP_CHECK(magic == kListMagic, ValueError, "load(", path, "): not an NDArray file (it starts with 0x", std::hex, magic,
           ", not 0x112)");
  in.get<std::uint64_t>("the file's header");
  const auto count = in.get<std::uint64_t>("the number of arrays");
  XP_CHECK(count <= in.left() / 4, ValueError, "load(", path, "): ", count, " arrays cannot fit in ", in.left(),
           " bytes");
  NamedArrays arrays;
  arrays.reserve(count);
  for (std::uint64_t i = 0; i < count; ++i) arrays.emplace_back(std::string(), read_array(in));
  const auto names = in.get<std::uint64_t>("the number of names");
  XP_CHECK(names == 0 || names == count, ValueError, "load(", path, "): ", names, " names for ", count, " arrays");
  for (std::uint64_t i = 0; i < names; ++i) {
    const auto length = in.get<std::uint64_t>("a name's length");
    XP_CHECK(length <= in.left(), ValueError, "load(", path, "): a name of ", length, " bytes at offset ", in.offset(),
             " with ", in.left(), " bytes left");
    arrays[i].first.assign(in.take(length, "a name"), length);
  }
  XP_CHECK(in.left() == 0, ValueError, "load(", path, "): ", in.left(), " bytes after the last name");
  return arrays;
}

}  // namespace xp
