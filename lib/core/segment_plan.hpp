#pragma once
// How an operation along one axis (sort, scan, search) sees an array: the elements of its C order
// as `outer` blocks of `length` positions along the axis, each position holding `inner` elements
// (the axes after it). Sorts need every segment contiguous: they run over a copy with the axis moved
// last and return that copy viewed in the input's axis order. Pure functions of shapes.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "xp/shape.hpp"

namespace xp::detail {

struct AxisSegments {
  int axis = 0;  // in [0, ndim); 0 for a flattened array
  std::int64_t outer = 1, length = 0, inner = 1;
  std::int64_t segments() const noexcept { return outer * inner; }
};

// The segments of `shape` along `axis` (negative counts from the end; nullopt: the flattened array,
// one segment of every element). ValueError naming `op` for an axis out of bounds, NumPy's text.
AxisSegments axis_segments(std::string_view op, const Shape& shape, std::optional<int> axis);

// The permutation that moves `axis` last, keeping the others in order: ndim entries.
std::array<int, kMaxNdim> axis_last_order(int ndim, int axis);

// Strides (in elements) that view a C-contiguous buffer of `shape` with `axis` moved last as an array
// of `shape` itself: how a sort's result, computed over contiguous segments, is returned.
Strides axis_last_strides(const Shape& shape, int axis);

}  // namespace xp::detail
