#pragma once
// NumPy's indexing rules as a pure plan over shapes and strides (no data): what the basic indices
// (positions, slices, newaxis, ellipsis) make of the array, a view, and, when index arrays are
// present, where their broadcast shape goes in the result and which axes each one reads. The result
// of an advanced index is C-ordered as (outer, index_shape, inner): element [o, b, i] is the view's
// element at outer offset o + inner offset i + the offsets the index arrays give at b.
#include <cstdint>
#include <span>
#include <vector>

#include "xp/index.hpp"
#include "xp/shape.hpp"

namespace xp::detail {

enum class IndexTermKind : std::uint8_t { position, slice, newaxis, ellipsis, integers, mask };

// One index as the plan sees it: index arrays by their shapes only.
struct IndexTerm {
  IndexTermKind kind = IndexTermKind::position;
  std::int64_t position = 0;  // position
  xp::slice range;  // slice
  Shape shape;  // integers: the index array's; mask: the mask's
  std::int64_t count = 0;  // mask: how many of its elements are true
};

// The axes one index array reads. An integer array reads one axis; a mask reads as many as it has
// dimensions, and its true positions are C-order positions over `extents`: one axis of their product
// where the strides allow, so that a position times the last stride is the offset.
struct IndexedAxes {
  int term = 0;  // in the caller's list
  int first_axis = 0;  // of the indexed array, for messages
  Shape extents;
  Strides strides;  // in elements
};

struct IndexPlan {
  std::int64_t offset = 0;  // elements from the array's first one to the view's
  Shape outer_shape;  // the result's axes before the index arrays' (all of them for a basic index)
  Strides outer_strides;
  Shape index_shape;  // the index arrays' broadcast shape
  Shape inner_shape;  // the result's axes after it
  Strides inner_strides;
  std::vector<IndexedAxes> indexed;  // one per index array, in the caller's order; empty: a view

  bool advanced() const noexcept { return !indexed.empty(); }
  Shape result_shape() const;
};

// The plan of `terms` over an array of `shape` and `strides`. IndexError with NumPy's texts: too many
// indices, two ellipses, a position out of bounds, a mask whose shape is not the axes it covers,
// index arrays that do not broadcast together; ValueError for a zero slice step or a result of more
// than kMaxNdim axes.
IndexPlan plan_index(const Shape& shape, const Strides& strides, std::span<const IndexTerm> terms);

// Python's slice.indices() over `extent`: the first position and how many the slice selects.
std::pair<std::int64_t, std::int64_t> slice_positions(const slice& s, std::int64_t extent);

}  // namespace xp::detail
