#include "xp/dtype.hpp"

#include <ostream>

namespace xp {

std::size_t itemsize(dtype t) noexcept {
  return visit_dtype(t, [](auto type) { return sizeof(typename decltype(type)::type); });
}

std::string_view dtype_name(dtype t) noexcept {
  switch (t) {
    case dtype::bool_: return "bool";
    case dtype::int8: return "int8";
    case dtype::int16: return "int16";
    case dtype::int32: return "int32";
    case dtype::int64: return "int64";
    case dtype::uint8: return "uint8";
    case dtype::uint16: return "uint16";
    case dtype::uint32: return "uint32";
    case dtype::uint64: return "uint64";
    case dtype::float32: return "float32";
    case dtype::float64: return "float64";
    case dtype::float16: return "float16";
    case dtype::bfloat16: return "bfloat16";
    case dtype::complex64: return "complex64";
    case dtype::complex128: return "complex128";
  }
  return "unknown";
}

std::ostream& operator<<(std::ostream& out, dtype t) { return out << dtype_name(t); }

bool is_floating(dtype t) noexcept { return t == dtype::float32 || t == dtype::float64 || is_two_byte_float(t); }

}  // namespace xp
