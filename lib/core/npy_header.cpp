#include "core/npy_header.hpp"

#include <cstdint>
#include <optional>
#include <sstream>

#include "xp/error.hpp"
#include "xp/ndim.hpp"

namespace xp::detail {

namespace {

constexpr std::string_view kNpyMagic = "\x93NUMPY";
constexpr std::size_t kMagicBytes = 8;  // the magic string and the two version bytes
constexpr std::size_t kAlignment = 64;  // NumPy's ARRAY_ALIGN
constexpr std::size_t kGrowthDigits = 21;  // NumPy's GROWTH_AXIS_MAX_DIGITS

// The descr without its byte-order character.
std::string_view npy_code(xp::dtype type) {
  switch (type) {
    case dtype::bool_: return "b1";
    case dtype::int8: return "i1";
    case dtype::uint8: return "u1";
    case dtype::int16: return "i2";
    case dtype::uint16: return "u2";
    case dtype::int32: return "i4";
    case dtype::uint32: return "u4";
    case dtype::int64: return "i8";
    case dtype::uint64: return "u8";
    case dtype::float16: return "f2";
    case dtype::bfloat16: return "V2";
    case dtype::float32: return "f4";
    case dtype::float64: return "f8";
    case dtype::complex64: return "c8";
    case dtype::complex128: return "c16";
  }
  return "";
}

// Up to 8 bytes as they would print in Python: printable characters as they are, others as \xNN.
std::string shown(std::string_view bytes) {
  std::ostringstream out;
  for (const char c : bytes.substr(0, 8)) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte >= 0x20 && byte < 0x7f) out << c;
    else out << "\\x" << "0123456789abcdef"[byte >> 4] << "0123456789abcdef"[byte & 15];
  }
  return out.str();
}

// Reads the restricted Python literal of the header: a dict of strings, True/False and int tuples.
class DictReader {
 public:
  DictReader(std::string_view text, std::size_t base, std::string_view where)
      : text_(text), base_(base), where_(where) {}

  std::size_t offset() const noexcept { return base_ + pos_; }
  char peek() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool at_end() { return peek() == '\0' && pos_ == text_.size(); }
  void expect(char c, std::string_view what) {
    if (peek() != c) fail(what);
    ++pos_;
  }
  std::string_view string(std::string_view what) {
    const char quote = peek();
    if (quote != '\'' && quote != '"') fail(what);
    const std::size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != quote && text_[pos_] != '\\') ++pos_;
    if (pos_ == text_.size() || text_[pos_] == '\\') fail("the closing quote of a string");
    return text_.substr(start, pos_++ - start);
  }
  bool boolean(std::string_view what) {
    peek();
    for (const auto& [word, value] : {std::pair{std::string_view("True"), true}, {"False", false}}) {
      if (text_.substr(pos_, word.size()) == word) {
        pos_ += word.size();
        return value;
      }
    }
    fail(what);
  }
  Shape shape() {
    expect('(', "the shape's tuple");
    Shape shape;
    while (peek() != ')') {
      const std::size_t at = offset();
      const std::int64_t extent = integer();
      XP_CHECK(shape.ndim() < kMaxNdim, ValueError, where_, ": the shape at offset ", at, " has more than ", kMaxNdim,
               " dimensions, the most an array may have");
      shape.push_back(extent);
      if (peek() == ',') ++pos_;
      else if (peek() != ')') fail("',' or ')' in the shape");
    }
    ++pos_;
    return shape;
  }
  [[noreturn]] void fail(std::string_view expected) {
    peek();
    const std::string found =
        pos_ == text_.size() ? std::string("the end of the header") : "'" + shown(text_.substr(pos_, 1)) + "'";
    throw ValueError(where_, ": the header has ", found, " at offset ", offset(), " where ", expected, " should be");
  }

 private:
  // A non-negative Python int; Python 2's long suffix (L) as NumPy reads it.
  std::int64_t integer() {
    const std::size_t start = pos_;
    std::int64_t value = 0;
    for (; pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9'; ++pos_) {
      XP_CHECK(value <= (INT64_MAX - (text_[pos_] - '0')) / 10, ValueError, where_, ": the extent at offset ",
               base_ + start, " does not fit in 64 bits");
      value = value * 10 + (text_[pos_] - '0');
    }
    if (pos_ == start) fail("an extent (a non-negative integer)");
    if (pos_ < text_.size() && (text_[pos_] == 'L' || text_[pos_] == 'l')) ++pos_;
    return value;
  }

  std::string_view text_;
  std::size_t base_;
  std::string_view where_;
  std::size_t pos_ = 0;
};

struct Descr {
  xp::dtype type;
  bool big_endian;
};

Descr parse_descr(std::string_view descr, std::size_t at, std::string_view where) {
  const char order = descr.empty() ? '\0' : descr[0];
  if (order == '<' || order == '>' || order == '|' || order == '=') {
    for (int t = 0; t < kNumDtypes; ++t) {
      const auto type = static_cast<xp::dtype>(t);
      if (descr.substr(1) == npy_code(type)) return {type, order == '>' && itemsize(type) > 1};
    }
  }
  throw ValueError(where, ": the header's descr at offset ", at, " is '", descr,
                   "', which xparray has no type for (it reads b1, i1-i8, u1-u8, f2, f4, f8, c8, c16 and V2 as "
                   "bfloat16, in either byte order)");
}

}  // namespace

NpyPreamble parse_npy_preamble(std::string_view first, std::string_view where) {
  XP_CHECK(first.substr(0, kNpyMagic.size()) == kNpyMagic, ValueError, where, ": not a .npy file: it starts with '",
           shown(first), "', not NumPy's '\\x93NUMPY'");
  XP_CHECK(first.size() >= kMagicBytes, ValueError, where, ": the file ends at byte ", first.size(),
           " inside the format version (offset 6)");
  NpyPreamble preamble;
  preamble.major = static_cast<unsigned char>(first[6]);
  preamble.minor = static_cast<unsigned char>(first[7]);
  XP_CHECK(preamble.major >= 1 && preamble.major <= 3 && preamble.minor == 0, ValueError, where, ": format version ",
           preamble.major, ".", preamble.minor, " at offset 6; NumPy writes 1.0, 2.0 and 3.0");
  const std::size_t length_bytes = preamble.major == 1 ? 2 : 4;
  XP_CHECK(first.size() >= kMagicBytes + length_bytes, ValueError, where, ": the file ends at byte ", first.size(),
           " inside the header's length (offset 8)");
  std::size_t length = 0;
  for (std::size_t i = length_bytes; i-- > 0;) length = length << 8 | static_cast<unsigned char>(first[8 + i]);
  preamble.dict_offset = kMagicBytes + length_bytes;
  preamble.data_offset = preamble.dict_offset + length;
  return preamble;
}

NpyHeader parse_npy_header(std::string_view dict, std::size_t dict_offset, std::string_view where) {
  DictReader in(dict, dict_offset, where);
  in.expect('{', "the dict's '{'");
  std::optional<Descr> descr;
  std::optional<bool> fortran_order;
  std::optional<Shape> shape;
  while (in.peek() != '}') {
    const std::size_t key_at = in.offset();
    const std::string_view key = in.string("a key (a string) or '}'");
    in.expect(':', "':' after a key");
    in.peek();  // past the spaces: the value's own offset
    const std::size_t value_at = in.offset();
    XP_CHECK(key == "descr" || key == "fortran_order" || key == "shape", ValueError, where,
             ": the header has the key '", key, "' at offset ", key_at,
             "; NumPy's has 'descr', 'fortran_order' and 'shape' alone");
    XP_CHECK(!(key == "descr"   ? descr.has_value()
               : key == "shape" ? shape.has_value()
                                : fortran_order.has_value()),
             ValueError, where, ": the header has the key '", key, "' twice (again at offset ", key_at, ")");
    if (key == "descr") {
      if (in.peek() == '[') in.fail("descr's string (a structured type's list of fields is not read)");
      descr = parse_descr(in.string("descr's string"), value_at, where);
    } else if (key == "fortran_order") {
      fortran_order = in.boolean("fortran_order's True or False");
    } else {
      shape = in.shape();
    }
    if (in.peek() == ',') in.expect(',', "','");
    else if (in.peek() != '}') in.fail("',' or '}'");
  }
  in.expect('}', "'}'");
  if (!in.at_end()) in.fail("the end of the header (spaces and a newline)");
  for (const auto& [present, key] : {std::pair{descr.has_value(), "descr"},
                                     {fortran_order.has_value(), "fortran_order"},
                                     {shape.has_value(), "shape"}})
    XP_CHECK(present, ValueError, where, ": the header at offset ", dict_offset, " has no '", key, "' key");
  return {descr->type, descr->big_endian, *fortran_order, *shape};
}

std::string npy_descr(xp::dtype type) { return (itemsize(type) == 1 ? "|" : "<") + std::string(npy_code(type)); }

std::string npy_header(xp::dtype type, const Shape& shape) {
  std::string dict = "{'descr': '" + npy_descr(type) + "', 'fortran_order': False, 'shape': (";
  for (int axis = 0; axis < shape.ndim(); ++axis) dict += (axis ? ", " : "") + std::to_string(shape[axis]);
  dict += shape.ndim() == 1 ? ",), }" : "), }";
  // NumPy leaves room for the first axis to grow in place (appending along it rewrites the header only).
  if (shape.ndim() > 0) dict.append(kGrowthDigits - std::to_string(shape[0]).size(), ' ');
  // Version 1.0's 16-bit length always holds it: at most 16 extents of 20 digits (NumPy needs 2.0 for
  // structured types with many fields, which xparray has none of). NumPy pads a whole block when the
  // elements would start aligned already.
  const std::size_t padding = kAlignment - (kMagicBytes + 2 + dict.size() + 1) % kAlignment;
  const std::size_t length = dict.size() + padding + 1;
  std::string header(kNpyMagic);
  header += '\1';
  header += '\0';
  header += static_cast<char>(length & 0xff);
  header += static_cast<char>(length >> 8);
  header += dict;
  header.append(padding, ' ');
  header += '\n';
  return header;
}

}  // namespace xp::detail
