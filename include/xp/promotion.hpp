#pragma once
/// \file
/// Type promotion: the element type of an operation's result, from its operands' types. The same
/// constexpr rules serve typed results (promote_t) and run-time typed arrays (promote_types).
///
/// Two arrays:
/// - equal types give that type; bool with anything gives the other type;
/// - a float with an integer gives that float (int32 + float32 -> float32, float16 + int16 -> float16,
///   bfloat16 + int8 -> bfloat16, as PyTorch and MXNet; NumPy would give float64 and float32); two floats
///   give the wider, and float16 with bfloat16 gives float32 (neither holds the other: ml_dtypes, PyTorch);
/// - two integers of one signedness give the wider; signed with unsigned gives the smallest signed
///   type holding both (uint8 + int8 -> int16, uint32 + int32 -> int64), and uint64 with a signed
///   type gives float64 (NumPy).
/// An array with a scalar: the scalar is "weak" (NumPy 2): the array's type wins, except that an
/// integer or bool array with a floating scalar takes the scalar's C++ type (2.5f -> float32,
/// 2.5 -> float64), and a bool array with an integer scalar gives int64.
/// Complex types: two complex give the wider; a complex with a real gives the complex type holding both
/// (complex64 + float64 -> complex128, as NumPy; with an integer, that complex, as floats do). A complex
/// scalar (std::complex<float> or std::complex<double>) makes a real array complex: a float array keeps its
/// precision (float32 -> complex64, float64 -> complex128), an integer array takes the scalar's type.
/// Functions that only make sense in floating point (true division, exp, sqrt, ...) compute integer
/// and bool inputs in float32 when they have at most 16 bits, else in float64.
#include <cstdint>
#include <type_traits>

#include "xp/dtype.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
constexpr bool is_float_dtype(dtype t) {
  return t == dtype::float32 || t == dtype::float64 || t == dtype::float16 || t == dtype::bfloat16;
}
constexpr bool is_inexact_dtype(dtype t) { return is_float_dtype(t) || is_complex(t); }
constexpr bool is_integer_dtype(dtype t) { return !is_inexact_dtype(t) && t != dtype::bool_; }
// The real type of a complex dtype's parts (float32 for complex64); other dtypes are their own.
constexpr dtype real_part_type(dtype t) {
  if (t == dtype::complex64) return dtype::float32;
  return t == dtype::complex128 ? dtype::float64 : t;
}
// The complex type whose parts hold a real floating type's values.
constexpr dtype complex_of(dtype real) { return real == dtype::float64 ? dtype::complex128 : dtype::complex64; }
constexpr bool is_unsigned_dtype(dtype t) {
  return t == dtype::uint8 || t == dtype::uint16 || t == dtype::uint32 || t == dtype::uint64;
}
constexpr int dtype_bits(dtype t) {
  switch (t) {
    case dtype::bool_: return 1;
    case dtype::int8:
    case dtype::uint8: return 8;
    case dtype::int16:
    case dtype::uint16:
    case dtype::float16:
    case dtype::bfloat16: return 16;
    case dtype::int32:
    case dtype::uint32:
    case dtype::float32: return 32;
    case dtype::complex128: return 128;
    default: return 64;
  }
}
constexpr dtype signed_of_bits(int bits) {
  return bits <= 8 ? dtype::int8 : bits <= 16 ? dtype::int16 : bits <= 32 ? dtype::int32 : dtype::int64;
}
}  // namespace detail
/// \endcond

/// NumPy's result type of two array dtypes (bool < integers < floats; mixed signedness widens).
constexpr dtype promote_types(dtype a, dtype b) {
  using namespace detail;
  if (a == b) return a;
  if (a == dtype::bool_) return b;
  if (b == dtype::bool_) return a;
  if (is_complex(a) || is_complex(b)) {
    if (is_complex(a) && is_complex(b)) return dtype_bits(a) > dtype_bits(b) ? a : b;
    const dtype c = is_complex(a) ? a : b, real = is_complex(a) ? b : a;
    return real == dtype::float64 ? dtype::complex128 : c;
  }
  if (is_float_dtype(a) || is_float_dtype(b)) {
    if (!is_float_dtype(a) || !is_float_dtype(b)) return is_float_dtype(a) ? a : b;
    if (dtype_bits(a) == dtype_bits(b)) return dtype_bits(a) == 16 ? dtype::float32 : a;  // float16, bfloat16
    return dtype_bits(a) > dtype_bits(b) ? a : b;
  }
  const bool ua = is_unsigned_dtype(a), ub = is_unsigned_dtype(b);
  if (ua == ub) return dtype_bits(a) >= dtype_bits(b) ? a : b;
  const dtype u = ua ? a : b, s = ua ? b : a;
  if (u == dtype::uint64) return dtype::float64;
  // the signed type must hold every value of the unsigned one: one bit more than it has
  const int bits = dtype_bits(u) + 1 > dtype_bits(s) ? dtype_bits(u) + 1 : dtype_bits(s);
  return signed_of_bits(bits);
}

/// The kind of a scalar operand: its C++ type, reduced to what promotion looks at.
enum class ScalarKind : std::uint8_t { boolean, integer, float32, float64, complex64, complex128 };

/// The ScalarKind of C++ type S.
template <class S>
constexpr ScalarKind scalar_kind_of() {
  static_assert(
      std::is_arithmetic_v<S> || std::is_same_v<S, std::complex<float>> || std::is_same_v<S, std::complex<double>>,
      "scalar operands must be arithmetic types or std::complex<float/double>");
  if constexpr (std::is_same_v<S, std::complex<float>>) return ScalarKind::complex64;
  else if constexpr (std::is_same_v<S, std::complex<double>>) return ScalarKind::complex128;
  else if constexpr (std::is_same_v<S, bool>) return ScalarKind::boolean;
  else if constexpr (std::is_integral_v<S>) return ScalarKind::integer;
  else if constexpr (std::is_same_v<S, float>) return ScalarKind::float32;
  else return ScalarKind::float64;
}

/// The result type of an array and a scalar: the scalar changes the kind only (NumPy 2's weak scalars).
constexpr dtype promote_with_scalar(dtype array, ScalarKind scalar) {
  const bool complex_scalar = scalar == ScalarKind::complex64 || scalar == ScalarKind::complex128;
  if (is_complex(array) || (detail::is_float_dtype(array) && !complex_scalar)) return array;
  if (detail::is_float_dtype(array)) return detail::complex_of(array);
  switch (scalar) {
    case ScalarKind::boolean: return array;
    case ScalarKind::integer: return array == dtype::bool_ ? dtype::int64 : array;
    case ScalarKind::float32: return dtype::float32;
    case ScalarKind::float64: return dtype::float64;
    case ScalarKind::complex64: return dtype::complex64;
    case ScalarKind::complex128: break;
  }
  return dtype::complex128;
}

/// The floating type that float-only functions compute integer and bool inputs in.
constexpr dtype float_compute_type(dtype t) {
  if (detail::is_inexact_dtype(t)) return t;
  return detail::dtype_bits(t) <= 16 ? dtype::float32 : dtype::float64;
}

/// Maps a dtype to its C++ element type (member `type`); type_of is the short form.
template <dtype t>
struct dtype_type;
/// \cond DTYPE_SPECIALIZATIONS
// A table, one row per dtype.
// clang-format off
template <> struct dtype_type<dtype::bool_> { using type = bool; };
template <> struct dtype_type<dtype::int8> { using type = std::int8_t; };
template <> struct dtype_type<dtype::int16> { using type = std::int16_t; };
template <> struct dtype_type<dtype::int32> { using type = std::int32_t; };
template <> struct dtype_type<dtype::int64> { using type = std::int64_t; };
template <> struct dtype_type<dtype::uint8> { using type = std::uint8_t; };
template <> struct dtype_type<dtype::uint16> { using type = std::uint16_t; };
template <> struct dtype_type<dtype::uint32> { using type = std::uint32_t; };
template <> struct dtype_type<dtype::uint64> { using type = std::uint64_t; };
template <> struct dtype_type<dtype::float32> { using type = float; };
template <> struct dtype_type<dtype::float64> { using type = double; };
template <> struct dtype_type<dtype::float16> { using type = float16; };
template <> struct dtype_type<dtype::bfloat16> { using type = bfloat16; };
template <> struct dtype_type<dtype::complex64> { using type = std::complex<float>; };
template <> struct dtype_type<dtype::complex128> { using type = std::complex<double>; };
// clang-format on
/// \endcond

/// The C++ element type of a dtype.
template <dtype t>
using type_of = typename dtype_type<t>::type;

/// The element type of an operation on element types A and B.
template <class A, class B>
using promote_t = type_of<promote_types(dtype_of<A>, dtype_of<B>)>;

/// The element type of an operation on element type A and a scalar of type S.
template <class A, class S>
using promote_scalar_t = type_of<promote_with_scalar(dtype_of<A>, scalar_kind_of<S>())>;

/// The floating element type that float-only functions compute T in.
template <class T>
using float_compute_t = type_of<float_compute_type(dtype_of<T>)>;

}  // namespace xp
