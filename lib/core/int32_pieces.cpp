#include "xp/detail/int32_pieces.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "core/layout.hpp"

namespace xp::detail {

namespace {

constexpr std::int64_t kLimit = std::numeric_limits<std::int32_t>::max();

bool fits_int32(const ElementwisePlan& plan, const Shape& shape) {
  if (numel(shape) > kLimit) return false;
  for (int k = 0; k < plan.operands; ++k) {
    const auto [low, high] = offset_range(shape, plan.strides[static_cast<std::size_t>(k)]);
    if (low < -kLimit || high > kLimit) return false;
  }
  return true;
}

// The axis whose halving shrinks the box most: the widest span of memory (any slot's), else, where
// every stride is 0, the longest extent.
int axis_to_halve(const ElementwisePlan& plan, const Shape& shape) {
  int best = -1;
  std::int64_t best_span = -1;
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    if (shape[axis] < 2) continue;
    std::int64_t widest_stride = 1;
    for (int k = 0; k < plan.operands; ++k)
      widest_stride = std::max(widest_stride, std::abs(plan.strides[static_cast<std::size_t>(k)][axis]));
    // Fits in int64: extents and strides come from arrays that fit in memory.
    const std::int64_t span = widest_stride * (shape[axis] - 1);
    if (span > best_span) best = axis, best_span = span;
  }
  return best;
}

void split_into(const ElementwisePlan& plan, const Int32Piece& box, std::vector<Int32Piece>& pieces) {
  if (fits_int32(plan, box.shape)) {
    pieces.push_back(box);
    return;
  }
  const int axis = axis_to_halve(plan, box.shape);
  Int32Piece low = box, high = box;
  low.shape[axis] = box.shape[axis] / 2;
  high.shape[axis] = box.shape[axis] - low.shape[axis];
  for (int k = 0; k < plan.operands; ++k) {
    const auto slot = static_cast<std::size_t>(k);
    high.offsets[slot] += low.shape[axis] * plan.strides[slot][axis];
  }
  split_into(plan, low, pieces);
  split_into(plan, high, pieces);
}

}  // namespace

std::vector<Int32Piece> int32_pieces(const ElementwisePlan& plan) {
  std::vector<Int32Piece> pieces;
  split_into(plan, Int32Piece{plan.shape, {}}, pieces);
  return pieces;
}

}  // namespace xp::detail
