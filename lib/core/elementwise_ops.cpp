#include "xp/detail/elementwise_ops.hpp"

#include <iterator>

namespace xp::detail {

std::string_view op_name(ElementwiseOp op) noexcept {
  static constexpr std::string_view names[] = {
      "add",         "subtract",   "multiply",    "divide",        "mod",         "floor_divide", "fmod",
      "power",       "maximum",    "minimum",     "fmax",          "fmin",        "equal",        "not_equal",
      "less",        "less_equal", "greater",     "greater_equal", "logical_and", "logical_or",   "logical_xor",
      "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",    "right_shift", "gcd",          "lcm",
      "arctan2",     "hypot",      "copysign",    "nextafter",     "heaviside",   "ldexp",        "negative",
      "abs",         "floor",      "ceil",        "trunc",         "square",      "reciprocal",   "sign",
      "exp",         "log",        "log1p",       "expm1",         "sqrt",        "sin",          "cos",
      "tan",         "tanh",       "exp2",        "log2",          "log10",       "arcsin",       "arccos",
      "arctan",      "sinh",       "cosh",        "arcsinh",       "arccosh",     "arctanh",      "cbrt",
      "deg2rad",     "rad2deg",    "rint",        "frexp",         "frexp",       "modf",         "sigmoid",
      "logical_not", "isnan",      "isinf",       "isfinite",      "signbit",     "invert",       "conj",
      "real",        "imag",       "angle",       "where",         "clip"};
  static_assert(std::size(names) == static_cast<std::size_t>(ElementwiseOp::clip) + 1);
  return names[static_cast<int>(op)];
}

}  // namespace xp::detail
