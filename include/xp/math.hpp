#pragma once
/// \file
/// Array math: the built-in elementwise operations as free functions and operators.
///
/// \code{.cpp}
///   auto z = xp::add(x, y);          // or x + y; arrays and scalars mix: x + 2, 2 * x
///   xp::add(x, y, out);              // into an existing array (returns a reference to it)
///   auto b = x < y;                  // comparisons give ndarray<bool>
/// \endcode
///
/// Operands broadcast as in NumPy and must share one device. Result types follow promotion.hpp:
/// typed operands give a typed result (`ndarray<float>` + `ndarray<int>` is `ndarray<float>`); a
/// run-time typed operand gives `ndarray<>`. Writing into `out` of another dtype converts the result
/// when NumPy's same_kind rule allows it (TypeError otherwise). Integer arithmetic wraps around;
/// division is true division (an integer x / 0 is inf or NaN) and an integer remainder by zero is 0.
#include <utility>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/traced_value.hpp"

namespace xp {

/// Stamps out a unary function: name(a) and name(a, out).
#define XP_UNARY_FUNCTION(name)                                                \
  template <detail::elementwise_face A>                                        \
  auto name(const A& a) {                                                      \
    return detail::apply_elementwise<detail::ElementwiseOp::name>(a);          \
  }                                                                            \
  template <detail::array_face A, detail::array_face O>                        \
  const O& name(const A& a, const O& out) {                                    \
    const std::array<detail::Operand, 1> operands{detail::to_operand(a)};      \
    detail::recorded::elementwise(detail::ElementwiseOp::name, operands, out); \
    return out;                                                                \
  }

/// Stamps out a binary function: name(a, b) and name(a, b, out).
#define XP_BINARY_FUNCTION(name)                                                                 \
  template <detail::elementwise_operand A, detail::elementwise_operand B>                        \
    requires detail::has_elementwise_face<A, B>                                                  \
  auto name(const A& a, const B& b) {                                                            \
    return detail::apply_elementwise<detail::ElementwiseOp::name>(a, b);                         \
  }                                                                                              \
  template <detail::math_operand A, detail::math_operand B, detail::array_face O>                \
  const O& name(const A& a, const B& b, const O& out) {                                          \
    const std::array<detail::Operand, 2> operands{detail::to_operand(a), detail::to_operand(b)}; \
    detail::recorded::elementwise(detail::ElementwiseOp::name, operands, out);                   \
    return out;                                                                                  \
  }

/// a + b elementwise (also `a + b`). add(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(add)
///@}
/// a - b elementwise. subtract(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(subtract)
///@}
/// a * b elementwise. multiply(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(multiply)
///@}
/// a / b elementwise, true division: integers give floats. divide(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(divide)
///@}
/// The remainder of a / b, with the sign of the divisor as Python's %. mod(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(mod)
///@}
/// a // b elementwise, the quotient rounded toward minus infinity as Python's // (integers by 0 give 0; complex:
/// TypeError). floor_divide(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(floor_divide)
///@}
/// The remainder of a / b truncated, with the sign of the dividend as C's fmod (integers by 0 give 0; complex:
/// TypeError). fmod(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(fmod)
///@}
/// a to the power b elementwise. power(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(power)
///@}
/// The larger of a and b elementwise; NaN wins. maximum(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(maximum)
///@}
/// The smaller of a and b elementwise; NaN wins. minimum(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(minimum)
///@}
/// The larger of a and b elementwise; NaN loses (NaN only where both are). fmax(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(fmax)
///@}
/// The smaller of a and b elementwise; NaN loses (NaN only where both are). fmin(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(fmin)
///@}
/// a == b elementwise, a bool array. equal(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(equal)
///@}
/// a != b elementwise, a bool array. not_equal(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(not_equal)
///@}
/// a < b elementwise, a bool array. less(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(less)
///@}
/// a <= b elementwise, a bool array. less_equal(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(less_equal)
///@}
/// a > b elementwise, a bool array. greater(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(greater)
///@}
/// a >= b elementwise, a bool array. greater_equal(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(greater_equal)
///@}
/// a && b elementwise (non-zero is true), a bool array. logical_and(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(logical_and)
///@}
/// a || b elementwise (non-zero is true), a bool array. logical_or(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(logical_or)
///@}
/// Whether exactly one of a and b is true (non-zero) elementwise, a bool array. logical_xor(a, b, out) writes into
/// `out`.
///@{
XP_BINARY_FUNCTION(logical_xor)
///@}
/// a & b elementwise, on integers and bool (TypeError for others). bitwise_and(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(bitwise_and)
///@}
/// a | b elementwise, on integers and bool. bitwise_or(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(bitwise_or)
///@}
/// a ^ b elementwise, on integers and bool. bitwise_xor(a, b, out) writes into `out` and returns it.
///@{
XP_BINARY_FUNCTION(bitwise_xor)
///@}
/// a << b elementwise, on integers (bool computes in int8); a count of the width or more, or negative, gives 0.
///@{
XP_BINARY_FUNCTION(left_shift)
///@}
/// a >> b elementwise, arithmetic for signed integers; a count of the width or more, or negative, gives 0
/// (-1 for negative a).
///@{
XP_BINARY_FUNCTION(right_shift)
///@}
/// The greatest common divisor of |a| and |b| elementwise, on integers (not bool, as NumPy); gcd(0, 0) is 0.
///@{
XP_BINARY_FUNCTION(gcd)
///@}
/// The least common multiple of |a| and |b| elementwise, on integers; 0 where either is 0.
///@{
XP_BINARY_FUNCTION(lcm)
///@}
/// The angle of the point (x2, y = x1) in radians, atan2(x1, x2), elementwise (real input). arctan2(x1, x2, out)
/// writes into `out`.
///@{
XP_BINARY_FUNCTION(arctan2)
///@}
/// sqrt(a^2 + b^2) elementwise without overflow in between (real input). hypot(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(hypot)
///@}
/// |a| with the sign of b elementwise (real input). copysign(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(copysign)
///@}
/// The next value of a's floating-point type after a toward b elementwise (float16: float16's next, as NumPy).
/// nextafter(a, b, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(nextafter)
///@}
/// The step function: 0 where x < 0, 1 where x > 0, at_zero where x is 0, NaN for NaN (real input).
/// heaviside(x, at_zero, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(heaviside)
///@}
/// x * 2^e elementwise, in x's floating-point type (integer x: the float type NumPy computes it in); e must be
/// integers or bool (TypeError otherwise). ldexp(x, e, out) writes into `out`.
///@{
XP_BINARY_FUNCTION(ldexp)
///@}

/// -a elementwise. negative(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(negative)
///@}
/// |a| elementwise. abs(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(abs)
///@}
/// e to the a elementwise. exp(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(exp)
///@}
/// The natural logarithm elementwise. log(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(log)
///@}
/// log(1 + a), accurate near 0. log1p(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(log1p)
///@}
/// exp(a) - 1, accurate near 0. expm1(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(expm1)
///@}
/// The square root elementwise. sqrt(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(sqrt)
///@}
/// The sine elementwise. sin(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(sin)
///@}
/// The cosine elementwise. cos(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(cos)
///@}
/// The tangent elementwise. tan(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(tan)
///@}
/// The hyperbolic tangent elementwise. tanh(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(tanh)
///@}
/// 1 / (1 + exp(-a)) elementwise. sigmoid(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(sigmoid)
///@}
/// !a elementwise (non-zero is true), a bool array. logical_not(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(logical_not)
///@}
/// ~a elementwise on integers; not a on bool (NumPy's invert). invert(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(invert)
///@}
/// The complex conjugate elementwise (real arrays: a copy). conj(a, out) writes into `out` and returns it.
///@{
XP_UNARY_FUNCTION(conj)
///@}
/// The real part elementwise, a real array (complex64 -> float32); a copy, where NumPy gives a view.
///@{
XP_UNARY_FUNCTION(real)
///@}
/// The imaginary part elementwise, a real array (zeros for real input); a copy, where NumPy gives a view.
///@{
XP_UNARY_FUNCTION(imag)
///@}
/// The argument atan2(imag, real) in radians elementwise, a real array (0 or pi for real input).
///@{
XP_UNARY_FUNCTION(angle)
///@}

/// The largest integer not above a, elementwise (integers and bool are their own floor; complex: TypeError). floor(a,
/// out) writes into `out`.
///@{
XP_UNARY_FUNCTION(floor)
///@}
/// The smallest integer not below a, elementwise (integers and bool unchanged; complex: TypeError). ceil(a, out) writes
/// into `out`.
///@{
XP_UNARY_FUNCTION(ceil)
///@}
/// a rounded toward zero, elementwise (integers and bool unchanged; complex: TypeError). trunc(a, out) writes into
/// `out`.
///@{
XP_UNARY_FUNCTION(trunc)
///@}
/// a rounded to the nearest integer, halves to even, elementwise, in floating point (complex: each part). rint(a, out)
/// writes into `out`.
///@{
XP_UNARY_FUNCTION(rint)
///@}
/// a * a elementwise, in a's dtype (bool computes in int8, as NumPy). square(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(square)
///@}
/// 1 / a elementwise, in a's dtype: integers divide as integers (1 / 0 gives 0; NumPy warns and gives 0 too).
/// reciprocal(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(reciprocal)
///@}
/// -1, 0 or 1 elementwise (NaN for NaN); of complex z, z / |z| (0 at 0), as NumPy 2. Bool: TypeError. sign(a, out)
/// writes into `out`.
///@{
XP_UNARY_FUNCTION(sign)
///@}
/// 2 to the a elementwise. exp2(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(exp2)
///@}
/// The base-2 logarithm elementwise. log2(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(log2)
///@}
/// The base-10 logarithm elementwise. log10(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(log10)
///@}
/// The cube root elementwise (real input; complex: TypeError). cbrt(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(cbrt)
///@}
/// The inverse sine elementwise (complex: the principal value). arcsin(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arcsin)
///@}
/// The inverse cosine elementwise (complex: the principal value). arccos(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arccos)
///@}
/// The inverse tangent elementwise (complex: the principal value). arctan(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arctan)
///@}
/// The hyperbolic sine elementwise. sinh(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(sinh)
///@}
/// The hyperbolic cosine elementwise. cosh(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(cosh)
///@}
/// The inverse hyperbolic sine elementwise. arcsinh(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arcsinh)
///@}
/// The inverse hyperbolic cosine elementwise. arccosh(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arccosh)
///@}
/// The inverse hyperbolic tangent elementwise. arctanh(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(arctanh)
///@}
/// Degrees to radians elementwise, a * (pi / 180) (real input). deg2rad(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(deg2rad)
///@}
/// Radians to degrees elementwise, a * (180 / pi) (real input). rad2deg(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(rad2deg)
///@}
/// Whether a is NaN elementwise, a bool array (complex: either part; integers: false). isnan(a, out) writes into `out`.
///@{
XP_UNARY_FUNCTION(isnan)
///@}
/// Whether a is infinite elementwise, a bool array (complex: either part; integers: false). isinf(a, out) writes into
/// `out`.
///@{
XP_UNARY_FUNCTION(isinf)
///@}
/// Whether a is finite elementwise, a bool array (complex: both parts; integers: true). isfinite(a, out) writes into
/// `out`.
///@{
XP_UNARY_FUNCTION(isfinite)
///@}
/// Whether a's sign bit is set elementwise (true for -0.0 and negative NaN), a bool array (real input). signbit(a, out)
/// writes into `out`.
///@{
XP_UNARY_FUNCTION(signbit)
///@}
#undef XP_BINARY_FUNCTION
#undef XP_UNARY_FUNCTION

/// NumPy's name for mod: the remainder with the sign of the divisor.
template <detail::elementwise_operand A, detail::elementwise_operand B>
  requires detail::has_elementwise_face<A, B>
auto remainder(const A& a, const B& b) {
  return mod(a, b);
}

/// (floor_divide(a, b), mod(a, b)), as Python's divmod: two passes (NumPy's loop makes both in one).
template <detail::elementwise_operand A, detail::elementwise_operand B>
  requires detail::has_elementwise_face<A, B>
auto divmod(const A& a, const B& b) {
  return std::pair{floor_divide(a, b), mod(a, b)};
}

/// (mantissa, exponent) with a = mantissa * 2^exponent, |mantissa| in [0.5, 1) (0 and 0 for 0; a itself and 0 for
/// infinities and NaN); the exponent an int32 array, as NumPy's (real input; integers compute in floating point).
template <detail::elementwise_face A>
auto frexp(const A& a) {
  return std::pair{detail::apply_elementwise<detail::ElementwiseOp::frexp_mantissa>(a),
                   detail::apply_elementwise<detail::ElementwiseOp::frexp_exponent>(a)};
}

/// (fractional part, integral part) of a, both with a's sign (modf(-0.5) is (-0.5, -0.0)), in floating point
/// (real input). The integral part is a - fraction with the fraction's sign: exact, and -0.0 where trunc gives it.
template <detail::elementwise_face A>
auto modf(const A& a) {
  auto fraction = detail::apply_elementwise<detail::ElementwiseOp::modf_fraction>(a);
  auto whole = copysign(subtract(a, fraction), fraction);
  return std::pair{std::move(fraction), std::move(whole)};
}

/// a rounded to `decimals` decimal places (negative: to tens, hundreds...), halves to even, as NumPy's around:
/// a * 10^decimals rounded and divided back (a / 10^-decimals, rounded and multiplied, for negative), so the
/// result is the nearest float to the decimal rounding, not always it. Integers are unchanged for decimals >= 0 and
/// rounded in float64 otherwise; complex numbers part by part. The result has a's dtype. A traced value (xp::fuse)
/// gets the same operations.
///@{
XP_API ndarray<> around(const ndarray<>& a, int decimals = 0);
XP_API TracedValue around(const TracedValue& a, int decimals = 0);
template <class T>
ndarray<T> around(const ndarray<T>& a, int decimals = 0) {
  return around(ndarray<>(a), decimals).template as<T>();
}
///@}

/// condition ? x : y elementwise; the condition is converted to bool (non-zero is true).
template <detail::elementwise_operand C, detail::elementwise_operand X, detail::elementwise_operand Y>
  requires detail::has_elementwise_face<C, X, Y>
auto where(const C& condition, const X& x, const Y& y) {
  return detail::apply_elementwise<detail::ElementwiseOp::where>(condition, x, y);
}

/// minimum(maximum(x, low), high), with NaN kept.
template <detail::elementwise_face X, detail::elementwise_operand L, detail::elementwise_operand H>
auto clip(const X& x, const L& low, const H& high) {
  return detail::apply_elementwise<detail::ElementwiseOp::clip>(x, low, high);
}

/// Stamps out an operator that calls the named function.
#define XP_OPERATOR(symbol, name)                                         \
  template <detail::elementwise_operand A, detail::elementwise_operand B> \
    requires detail::has_elementwise_face<A, B>                           \
  auto operator symbol(const A& a, const B& b) {                          \
    return name(a, b);                                                    \
  }

XP_OPERATOR(+, add)
XP_OPERATOR(-, subtract)
XP_OPERATOR(*, multiply)
XP_OPERATOR(/, divide)
XP_OPERATOR(%, mod)
XP_OPERATOR(==, equal)
XP_OPERATOR(!=, not_equal)
XP_OPERATOR(<, less)
XP_OPERATOR(<=, less_equal)
XP_OPERATOR(>, greater)
XP_OPERATOR(>=, greater_equal)
XP_OPERATOR(&&, logical_and)
XP_OPERATOR(||, logical_or)
XP_OPERATOR(&, bitwise_and)
XP_OPERATOR(|, bitwise_or)
XP_OPERATOR(^, bitwise_xor)
XP_OPERATOR(<<, left_shift)
XP_OPERATOR(>>, right_shift)
#undef XP_OPERATOR

/// Stamps out a compound assignment: a op= b computes in place into a (a view writes through to its
/// array), with NumPy's same_kind rule for the result into a's dtype (TypeError otherwise: int32 += 1.5).
#define XP_COMPOUND(symbol, op)                                                                  \
  template <detail::array_face A, detail::math_operand B>                                        \
  const A& operator symbol(const A & a, const B & b) {                                           \
    const std::array<detail::Operand, 2> operands{detail::to_operand(a), detail::to_operand(b)}; \
    detail::recorded::elementwise(detail::ElementwiseOp::op, operands, a);                       \
    return a;                                                                                    \
  }

XP_COMPOUND(+=, add)
XP_COMPOUND(-=, subtract)
XP_COMPOUND(*=, multiply)
XP_COMPOUND(/=, divide)
XP_COMPOUND(%=, mod)
XP_COMPOUND(&=, bitwise_and)
XP_COMPOUND(|=, bitwise_or)
XP_COMPOUND(^=, bitwise_xor)
XP_COMPOUND(<<=, left_shift)
XP_COMPOUND(>>=, right_shift)
#undef XP_COMPOUND

/// -a: negative(a).
template <detail::elementwise_face A>
auto operator-(const A& a) {
  return negative(a);
}

/// !a: logical_not(a).
template <detail::elementwise_face A>
auto operator!(const A& a) {
  return logical_not(a);
}

/// ~a: invert(a).
template <detail::elementwise_face A>
auto operator~(const A& a) {
  return invert(a);
}

}  // namespace xp
