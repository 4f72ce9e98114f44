#pragma once
// Array math: the built-in elementwise operations as free functions and operators.
//
//   auto z = xp::add(x, y);          // or x + y; arrays and scalars mix: x + 2, 2 * x
//   xp::add(x, y, out);              // into an existing array (returns a reference to it)
//   auto b = x < y;                  // comparisons give ndarray<bool>
//
// Operands broadcast as in NumPy and must share one device. Result types follow promotion.hpp:
// typed operands give a typed result (ndarray<float> + ndarray<int> is ndarray<float>); a
// run-time typed operand gives ndarray<>. Writing into `out` of another dtype converts the result
// when NumPy's same_kind rule allows it (TypeError otherwise). Integer arithmetic wraps around;
// division is true division (an integer x / 0 is inf or NaN) and an integer remainder by zero is 0.
#include "xp/ndarray.hpp"

namespace xp {

#define XP_UNARY_FUNCTION(name)                                                           \
  template <detail::array_face A>                                                          \
  auto name(const A& a) {                                                                  \
    return detail::apply_elementwise<detail::ElementwiseOp::name>(a);                      \
  }                                                                                        \
  template <detail::array_face A, detail::array_face O>                                    \
  const O& name(const A& a, const O& out) {                                                \
    const std::array<detail::Operand, 1> operands{detail::to_operand(a)};                 \
    detail::recorded::elementwise(detail::ElementwiseOp::name, operands, out);                       \
    return out;                                                                            \
  }

#define XP_BINARY_FUNCTION(name)                                                          \
  template <detail::math_operand A, detail::math_operand B>                               \
    requires detail::has_array<A, B>                                                       \
  auto name(const A& a, const B& b) {                                                      \
    return detail::apply_elementwise<detail::ElementwiseOp::name>(a, b);                   \
  }                                                                                        \
  template <detail::math_operand A, detail::math_operand B, detail::array_face O>         \
  const O& name(const A& a, const B& b, const O& out) {                                    \
    const std::array<detail::Operand, 2> operands{detail::to_operand(a), detail::to_operand(b)}; \
    detail::recorded::elementwise(detail::ElementwiseOp::name, operands, out);                       \
    return out;                                                                            \
  }

XP_BINARY_FUNCTION(add)
XP_BINARY_FUNCTION(subtract)
XP_BINARY_FUNCTION(multiply)
XP_BINARY_FUNCTION(divide)  // true division: integers give floats
XP_BINARY_FUNCTION(mod)     // the sign of the divisor, as Python's %
XP_BINARY_FUNCTION(power)
XP_BINARY_FUNCTION(maximum)  // NaN wins
XP_BINARY_FUNCTION(minimum)
XP_BINARY_FUNCTION(equal)
XP_BINARY_FUNCTION(not_equal)
XP_BINARY_FUNCTION(less)
XP_BINARY_FUNCTION(less_equal)
XP_BINARY_FUNCTION(greater)
XP_BINARY_FUNCTION(greater_equal)
XP_BINARY_FUNCTION(logical_and)
XP_BINARY_FUNCTION(logical_or)

XP_UNARY_FUNCTION(negative)
XP_UNARY_FUNCTION(abs)
XP_UNARY_FUNCTION(exp)
XP_UNARY_FUNCTION(log)
XP_UNARY_FUNCTION(log1p)
XP_UNARY_FUNCTION(expm1)
XP_UNARY_FUNCTION(sqrt)
XP_UNARY_FUNCTION(sin)
XP_UNARY_FUNCTION(cos)
XP_UNARY_FUNCTION(tan)
XP_UNARY_FUNCTION(tanh)
XP_UNARY_FUNCTION(sigmoid)
XP_UNARY_FUNCTION(logical_not)

#undef XP_BINARY_FUNCTION
#undef XP_UNARY_FUNCTION

// condition ? x : y elementwise; the condition is converted to bool (non-zero is true).
template <detail::math_operand C, detail::math_operand X, detail::math_operand Y>
  requires detail::has_array<C, X, Y>
auto where(const C& condition, const X& x, const Y& y) {
  return detail::apply_elementwise<detail::ElementwiseOp::where>(condition, x, y);
}

// minimum(maximum(x, low), high), with NaN kept.
template <detail::array_face X, detail::math_operand L, detail::math_operand H>
auto clip(const X& x, const L& low, const H& high) {
  return detail::apply_elementwise<detail::ElementwiseOp::clip>(x, low, high);
}

#define XP_OPERATOR(symbol, name)                                                         \
  template <detail::math_operand A, detail::math_operand B>                               \
    requires detail::has_array<A, B>                                                       \
  auto operator symbol(const A& a, const B& b) {                                           \
    return name(a, b);                                                                     \
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
#undef XP_OPERATOR

template <detail::array_face A>
auto operator-(const A& a) {
  return negative(a);
}

template <detail::array_face A>
auto operator!(const A& a) {
  return logical_not(a);
}

}  // namespace xp
