#pragma once
// Plans too large for 32-bit index arithmetic run as pieces that each fit in it, so that GPUs need
// one strided kernel per operation (int32 offsets: cheaper division, and half the kernels to build).
#include <array>
#include <cstdint>
#include <vector>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/export.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

// A box of a plan's loop: `shape` has the plan's axes (each extent at most the plan's), walked with
// the plan's strides from `offsets` (per slot, in elements; a position slot's is the C-order
// position of the box's first element, since its strides are C-contiguous).
struct Int32Piece {
  Shape shape;
  std::array<std::int64_t, kMaxOperands> offsets{};
};

// Boxes covering a non-empty plan's loop once, each with fewer than 2^31 positions and every slot's
// offsets within +-(2^31 - 1) of its first element; one box when the plan fits already.
XP_API std::vector<Int32Piece> int32_pieces(const ElementwisePlan& plan);

}  // namespace xp::detail
