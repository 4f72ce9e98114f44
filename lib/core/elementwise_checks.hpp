#pragma once
// The checks a built-in elementwise operation makes of its operands' dtypes before anything runs, shared
// by the array functions (lib/api/ops/math.cpp) and xp::fuse's trace (core/fusion_graph.cpp) so that a
// fused expression refuses what the unfused one refuses, with the same message.
#include <span>
#include <string_view>

#include "xp/detail/elementwise_ops.hpp"

namespace xp::detail {

// The dtype `op` computes in over operands of `types`; TypeError, as NumPy's, where it has no loop for it.
xp::dtype checked_compute_dtype(ElementwiseOp op, std::span<const OperandType> types);

// The dtype input k of `op` is read as: where's condition bool, ldexp's exponent float64 (every exponent
// exactly), the others `compute`.
constexpr xp::dtype input_dtype(ElementwiseOp op, std::size_t k, xp::dtype compute) {
  if (op == ElementwiseOp::where && k == 0) return xp::dtype::bool_;
  if (op == ElementwiseOp::ldexp && k == 1) return xp::dtype::float64;
  return compute;
}

// A scalar converted to `target`: its bits as one element of that dtype. An integer that the target
// integer type cannot hold is a ValueError naming `op` (NumPy 2: OverflowError).
ElementBits convert_scalar(const ScalarValue& scalar, xp::dtype target, std::string_view op);

}  // namespace xp::detail
