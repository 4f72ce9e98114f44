// Plans past 32-bit offsets split into boxes that fit in them (what GPUs' strided kernels index
// with): the boxes cover the loop once and each slot's offsets are where each box starts.
#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "core/layout.hpp"
#include "xp/detail/int32_pieces.hpp"

namespace {

using xp::Shape;
using xp::Strides;
using xp::detail::ElementwisePlan;
using xp::detail::Int32Piece;

constexpr std::int64_t kLimit = std::numeric_limits<std::int32_t>::max();

// A plan of `shape` whose slots walk it with `strides`; its last slot is the C-order position.
ElementwisePlan plan_of(const Shape& shape, const std::vector<Strides>& strides) {
  ElementwisePlan plan;
  plan.shape = shape;
  plan.size = xp::numel(shape);
  plan.operands = static_cast<int>(strides.size()) + 1;
  for (std::size_t k = 0; k < strides.size(); ++k) plan.strides[k] = strides[k];
  plan.strides[strides.size()] = xp::contiguous_strides(shape);
  return plan;
}

// The coordinates of C-order position `position` in `shape`.
std::vector<std::int64_t> coordinates(const Shape& shape, std::int64_t position) {
  std::vector<std::int64_t> result(static_cast<std::size_t>(shape.ndim()));
  for (int axis = shape.ndim() - 1; axis >= 0; --axis) {
    result[static_cast<std::size_t>(axis)] = position % shape[axis];
    position /= shape[axis];
  }
  return result;
}

bool overlap(const Shape& shape, const std::vector<std::int64_t>& a_start, const Shape& a,
             const std::vector<std::int64_t>& b_start, const Shape& b) {
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    const auto i = static_cast<std::size_t>(axis);
    if (a_start[i] + a[axis] <= b_start[i] || b_start[i] + b[axis] <= a_start[i]) return false;
  }
  return true;
}

// Every box fits in int32, starts where each slot's offset says, and the boxes tile the loop.
void check_tiling(const ElementwisePlan& plan, const std::vector<Int32Piece>& pieces) {
  const auto position_slot = static_cast<std::size_t>(plan.operands - 1);
  std::vector<std::vector<std::int64_t>> starts;
  std::int64_t covered = 0;
  for (const Int32Piece& piece : pieces) {
    REQUIRE(piece.shape.ndim() == plan.shape.ndim());
    CHECK(xp::numel(piece.shape) <= kLimit);
    const auto start = coordinates(plan.shape, piece.offsets[position_slot]);
    for (std::size_t k = 0; k < position_slot; ++k) {
      const auto [low, high] = xp::detail::offset_range(piece.shape, plan.strides[k]);
      CHECK(low >= -kLimit);
      CHECK(high <= kLimit);
      std::int64_t offset = 0;
      for (int axis = 0; axis < plan.shape.ndim(); ++axis)
        offset += start[static_cast<std::size_t>(axis)] * plan.strides[k][axis];
      CHECK(piece.offsets[k] == offset);
    }
    for (std::size_t j = 0; j < starts.size(); ++j)
      CHECK_FALSE(overlap(plan.shape, starts[j], pieces[j].shape, start, piece.shape));
    starts.push_back(start);
    covered += xp::numel(piece.shape);
  }
  CHECK(covered == plan.size);
}

}  // namespace

TEST_CASE("int32 pieces: a plan that fits is one piece at offset 0") {
  const auto plan = plan_of(Shape(1000, 3), {Strides(3, 1), Strides(1, 1000)});
  const auto pieces = xp::detail::int32_pieces(plan);
  REQUIRE(pieces.size() == 1);
  CHECK(pieces[0].shape == plan.shape);
  check_tiling(plan, pieces);
}

TEST_CASE("int32 pieces: more than 2^31 contiguous positions halve") {
  const std::int64_t n = 3 * (std::int64_t{1} << 30);
  const auto plan = plan_of(Shape(n), {Strides(1), Strides(0)});
  const auto pieces = xp::detail::int32_pieces(plan);
  CHECK(pieces.size() == 2);
  check_tiling(plan, pieces);
}

TEST_CASE("int32 pieces: a transposed input splits along its wide axis, not row by row") {
  // The input's axis 1 spans 3e9 elements; 30,000 rows each would fit, but two boxes do.
  const auto plan = plan_of(Shape(100000, 30000), {Strides(30000, 1), Strides(1, 100000)});
  const auto pieces = xp::detail::int32_pieces(plan);
  CHECK(pieces.size() <= 4);
  check_tiling(plan, pieces);
}

TEST_CASE("int32 pieces: strides past int32 and negative strides") {
  const std::int64_t far = std::int64_t{1} << 33;
  const auto plan = plan_of(Shape(3, 10), {Strides(10, 1), Strides(far, -1), Strides(-far, 0)});
  const auto pieces = xp::detail::int32_pieces(plan);
  CHECK(pieces.size() == 3);
  for (const Int32Piece& piece : pieces) CHECK(piece.shape == Shape(1, 10));
  check_tiling(plan, pieces);
}

TEST_CASE("int32 pieces: broadcast operands past 2^32 positions") {
  const std::int64_t side = std::int64_t{1} << 16;
  const auto plan = plan_of(Shape(side, side + 3), {Strides(side + 3, 1), Strides(0, 1), Strides(1, 0)});
  const auto pieces = xp::detail::int32_pieces(plan);
  CHECK(pieces.size() <= 4);
  check_tiling(plan, pieces);
}
