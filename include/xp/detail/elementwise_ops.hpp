#pragma once
// The built-in elementwise operations: their codes, the dtypes they compute in and return, and how
// a call reaches a backend. The rules are constexpr so typed results (ndarray<R>) and run-time
// typed ones agree by construction.
#include <array>
#include <complex>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>

#include "xp/export.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

enum class ElementwiseOp : std::uint8_t {
  // two inputs
  add,
  subtract,
  multiply,
  divide,
  mod,
  floor_divide,
  fmod,
  power,
  maximum,
  minimum,
  fmax,
  fmin,
  equal,
  not_equal,
  less,
  less_equal,
  greater,
  greater_equal,
  logical_and,
  logical_or,
  logical_xor,
  bitwise_and,
  bitwise_or,
  bitwise_xor,
  left_shift,
  right_shift,
  gcd,
  lcm,
  // two inputs, computed in real floating point (arctan2 to ldexp)
  arctan2,
  hypot,
  copysign,
  nextafter,
  heaviside,
  ldexp,  // ldexp(x, e): computed in x's floating-point type, e an integer
  // one input
  negative,
  abs,
  floor,
  ceil,
  trunc,
  square,
  reciprocal,
  sign,
  // one input, computed in floating point (exp to rint)
  exp,
  log,
  log1p,
  expm1,
  sqrt,
  sin,
  cos,
  tan,
  tanh,
  exp2,
  log2,
  log10,
  arcsin,
  arccos,
  arctan,
  sinh,
  cosh,
  arcsinh,
  arccosh,
  arctanh,
  cbrt,
  deg2rad,
  rad2deg,
  rint,
  frexp_mantissa,  // frexp's two results, one operation each
  frexp_exponent,
  modf_fraction,  // modf's fractional part (its integral part is trunc's)
  sigmoid,
  // one input, a bool result
  logical_not,
  isnan,
  isinf,
  isfinite,
  signbit,
  // one input
  invert,
  conj,
  real,
  imag,
  angle,
  // three inputs: where(condition, x, y), clip(x, low, high)
  where,
  clip,
};

XP_API std::string_view op_name(ElementwiseOp op) noexcept;

constexpr int op_arity(ElementwiseOp op) {
  if (op >= ElementwiseOp::where) return 3;
  return op >= ElementwiseOp::negative ? 1 : 2;
}

constexpr bool is_predicate(ElementwiseOp op) {  // returns bool whatever it computes in
  return (op >= ElementwiseOp::equal && op <= ElementwiseOp::logical_xor) ||
         (op >= ElementwiseOp::logical_not && op <= ElementwiseOp::signbit);
}

constexpr bool is_float_function(ElementwiseOp op) {
  return op == ElementwiseOp::divide || op == ElementwiseOp::angle || op == ElementwiseOp::signbit ||
         (op >= ElementwiseOp::arctan2 && op <= ElementwiseOp::ldexp) ||
         (op >= ElementwiseOp::exp && op <= ElementwiseOp::sigmoid);
}

// The floating-point functions of two real inputs (arctan2 to ldexp), frexp and modf.
constexpr bool is_real_float_function(ElementwiseOp op) {
  return (op >= ElementwiseOp::arctan2 && op <= ElementwiseOp::ldexp) ||
         (op >= ElementwiseOp::frexp_mantissa && op <= ElementwiseOp::modf_fraction);
}

// Functions NumPy defines on real numbers alone: the rounding ones, floor division and the remainders,
// fmax's kin aside, cbrt, the degree conversions, signbit and the real floating-point functions.
constexpr bool is_real_only(ElementwiseOp op) {
  return (op >= ElementwiseOp::floor && op <= ElementwiseOp::trunc) || op == ElementwiseOp::mod ||
         op == ElementwiseOp::floor_divide || op == ElementwiseOp::fmod || op == ElementwiseOp::cbrt ||
         op == ElementwiseOp::deg2rad || op == ElementwiseOp::rad2deg || op == ElementwiseOp::signbit ||
         is_real_float_function(op);
}

// Operations NumPy defines on integers and bool alone.
constexpr bool is_bitwise(ElementwiseOp op) {
  return (op >= ElementwiseOp::bitwise_and && op <= ElementwiseOp::right_shift) || op == ElementwiseOp::invert;
}

constexpr bool is_shift(ElementwiseOp op) {
  return op == ElementwiseOp::left_shift || op == ElementwiseOp::right_shift;
}

// Operations NumPy defines on integers alone: the bitwise ones (and bool), gcd and lcm (not bool).
constexpr bool takes_integers_only(ElementwiseOp op) {
  return is_bitwise(op) || op == ElementwiseOp::gcd || op == ElementwiseOp::lcm;
}

// Operations whose result is real for complex inputs: abs, real, imag, angle.
constexpr bool gives_real_part_type(ElementwiseOp op) {
  return op == ElementwiseOp::abs || op == ElementwiseOp::real || op == ElementwiseOp::imag ||
         op == ElementwiseOp::angle;
}

// The C++ types a scalar operand may have: arithmetic types and the two complex element types.
template <class S>
concept scalar_operand =
    std::is_arithmetic_v<S> || std::is_same_v<S, std::complex<float>> || std::is_same_v<S, std::complex<double>>;

// An operand as promotion sees it: an array's dtype, or a scalar's C++ type (weak).
struct XP_API OperandType {
  xp::dtype type;
  bool scalar;
};

// The dtype a C++ scalar type stands for, by kind and size (long long is int64, char is int8 or
// uint8 as it is signed or not).
template <class S>
constexpr xp::dtype scalar_dtype() {
  static_assert(scalar_operand<S>, "scalar operands must be arithmetic types or std::complex<float/double>");
  if constexpr (!std::is_arithmetic_v<S>) return dtype_of<S>;
  else if constexpr (std::is_same_v<S, bool>) return xp::dtype::bool_;
  else if constexpr (std::is_floating_point_v<S>) return sizeof(S) <= 4 ? xp::dtype::float32 : xp::dtype::float64;
  else if constexpr (std::is_signed_v<S>)
    return sizeof(S) == 1   ? xp::dtype::int8
           : sizeof(S) == 2 ? xp::dtype::int16
           : sizeof(S) == 4 ? xp::dtype::int32
                            : xp::dtype::int64;
  else
    return sizeof(S) == 1   ? xp::dtype::uint8
           : sizeof(S) == 2 ? xp::dtype::uint16
           : sizeof(S) == 4 ? xp::dtype::uint32
                            : xp::dtype::uint64;
}

template <class A>
constexpr OperandType operand_type() {
  if constexpr (scalar_operand<A>) return {scalar_dtype<A>(), true};
  else return {dtype_of<typename A::value_type>, false};
}

// The bits of one element of any dtype (complex128's 16 bytes at most), at the start when it is shorter.
struct ElementBits {
  alignas(8) unsigned char bytes[16];
};

// A scalar operand as the library receives it: its dtype and the bits of its value.
struct XP_API ScalarValue {
  xp::dtype type = xp::dtype::bool_;
  ElementBits bits{};
};

template <class S>
ScalarValue scalar_value(S s) {
  constexpr xp::dtype type = scalar_dtype<S>();
  if constexpr (std::is_floating_point_v<S>) {
    ScalarValue v{type};
    const auto exact = static_cast<std::conditional_t<sizeof(S) <= 4, float, double>>(s);
    std::memcpy(&v.bits, &exact, sizeof(exact));
    return v;
  } else {
    ScalarValue v{type};
    std::memcpy(&v.bits, static_cast<const void*>(&s), sizeof(S));
    return v;
  }
}

constexpr ScalarKind scalar_kind(xp::dtype t) {
  if (t == xp::dtype::bool_) return ScalarKind::boolean;
  if (t == xp::dtype::float32) return ScalarKind::float32;
  if (t == xp::dtype::complex64) return ScalarKind::complex64;
  if (t == xp::dtype::complex128) return ScalarKind::complex128;
  return t == xp::dtype::float64 ? ScalarKind::float64 : ScalarKind::integer;
}

// Arrays promote among themselves; scalars then apply weakly (promotion.hpp). With no array, the
// scalars promote among themselves.
constexpr xp::dtype promote_operands(std::span<const OperandType> operands) {
  bool any_array = false;
  xp::dtype arrays = xp::dtype::bool_, scalars = xp::dtype::bool_;
  for (const OperandType& o : operands) {
    if (o.scalar) {
      scalars = promote_types(scalars, o.type);
    } else {
      arrays = any_array ? promote_types(arrays, o.type) : o.type;
      any_array = true;
    }
  }
  if (!any_array) return scalars;
  for (const OperandType& o : operands)
    if (o.scalar) arrays = promote_with_scalar(arrays, scalar_kind(o.type));
  return arrays;
}

// Operations whose bool inputs compute in int8, as NumPy's (it has no bool loop for them).
constexpr bool computes_bool_in_int8(ElementwiseOp op) {
  return op == ElementwiseOp::mod || op == ElementwiseOp::floor_divide || op == ElementwiseOp::fmod ||
         op == ElementwiseOp::power || op == ElementwiseOp::square || op == ElementwiseOp::reciprocal || is_shift(op);
}

// The dtype an operation computes in, from its promoted operand dtype.
constexpr xp::dtype compute_dtype(ElementwiseOp op, xp::dtype promoted) {
  if (is_float_function(op)) return float_compute_type(promoted);
  if (computes_bool_in_int8(op) && promoted == xp::dtype::bool_) return xp::dtype::int8;
  return promoted;
}

constexpr xp::dtype result_dtype(ElementwiseOp op, xp::dtype compute) {
  if (gives_real_part_type(op)) return real_part_type(compute);
  if (op == ElementwiseOp::frexp_exponent) return xp::dtype::int32;  // NumPy's frexp gives C's int
  return is_predicate(op) ? xp::dtype::bool_ : compute;
}

// Whether NumPy defines op computed in `compute`: bool has no subtract or negative, complex no remainder,
// the bitwise operations integers and bool alone, gcd and lcm integers alone.
constexpr bool is_defined(ElementwiseOp op, xp::dtype compute) {
  if (is_bitwise(op)) return !is_inexact_dtype(compute);
  if (takes_integers_only(op)) return !is_inexact_dtype(compute) && compute != xp::dtype::bool_;
  if (compute == xp::dtype::bool_)
    return op != ElementwiseOp::subtract && op != ElementwiseOp::negative && op != ElementwiseOp::sign;
  return !is_complex(compute) || !is_real_only(op);
}

// Operations of one or two inputs that compute in and return their inputs' dtype (bool aside): the
// ones a call with arrays of a single dtype can run as a plain loop, without conversions (not ldexp,
// whose exponent is read as float64).
constexpr bool keeps_dtype(ElementwiseOp op, xp::dtype type) {
  return op_arity(op) <= 2 && op != ElementwiseOp::ldexp && type != xp::dtype::bool_ && is_defined(op, type) &&
         compute_dtype(op, type) == type && result_dtype(op, type) == type;
}

// The operands that decide the compute dtype: where's condition does not, nor ldexp's exponent.
constexpr xp::dtype compute_dtype(ElementwiseOp op, std::span<const OperandType> operands) {
  if (op == ElementwiseOp::where) return promote_operands(operands.subspan(1));
  if (op == ElementwiseOp::ldexp) return float_compute_type(operands[0].type);
  return compute_dtype(op, promote_operands(operands));
}

// A built-in operation as a backend receives it, with an ElementwisePlan: slot I + 1 is input I,
// of dtype `compute` (where's condition: bool; ldexp's exponent: float64); a scalar input's value is scalars[I], as the
// bits of one element of its slot's dtype.
struct XP_API ElementwiseCall {
  ElementwiseOp op;
  xp::dtype compute;
  std::array<ElementBits, 3> scalars{};
};

}  // namespace xp::detail
