#include "xp/detail/elementwise_ops.hpp"

namespace xp::detail {

std::string_view op_name(ElementwiseOp op) noexcept {
  static constexpr std::string_view names[] = {
      "add",         "subtract",   "multiply",  "divide", "mod",        "power",   "maximum",
      "minimum",     "equal",      "not_equal", "less",   "less_equal", "greater", "greater_equal",
      "logical_and", "logical_or", "negative",  "abs",    "exp",        "log",     "log1p",
      "expm1",       "sqrt",       "sin",       "cos",    "tan",        "tanh",    "sigmoid",
      "logical_not", "conj",       "real",      "imag",   "angle",      "where",   "clip"};
  return names[static_cast<int>(op)];
}

}  // namespace xp::detail
