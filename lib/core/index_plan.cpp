// NumPy's basic and advanced indexing rules over shapes (core/index_plan.hpp).
#include "core/index_plan.hpp"

#include <sstream>

#include "core/layout.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

int axes_consumed(const IndexTerm& term) {
  switch (term.kind) {
    case IndexTermKind::newaxis:
    case IndexTermKind::ellipsis: return 0;
    case IndexTermKind::mask: return term.shape.ndim();
    default: return 1;
  }
}

bool is_array(const IndexTerm& term) {
  return term.kind == IndexTermKind::integers || term.kind == IndexTermKind::mask;
}

// How many axes the terms name and whether there is an ellipsis; IndexError for too many of either.
int named_axes(const Shape& shape, std::span<const IndexTerm> terms) {
  int named = 0, ellipses = 0;
  for (const IndexTerm& term : terms) {
    named += axes_consumed(term);
    ellipses += term.kind == IndexTermKind::ellipsis;
  }
  XP_CHECK(ellipses <= 1, IndexError, "an index can only have a single ellipsis ('...')");
  XP_CHECK(named <= shape.ndim(), IndexError, "too many indices for array: array is ", shape.ndim(),
           "-dimensional, but ", named, " were indexed");
  return named;
}

// The axes a mask covers, checked against its shape (IndexError naming both) and merged into one
// where their strides are those of a C-contiguous block.
IndexedAxes mask_axes(const IndexTerm& term, const Shape& shape, const Strides& strides, int first) {
  IndexedAxes axes;
  axes.first_axis = first;
  Shape covered;
  for (int k = 0; k < term.shape.ndim(); ++k) covered.push_back(shape[first + k]);
  for (int k = 0; k < term.shape.ndim(); ++k)
    XP_CHECK(term.shape[k] == covered[k], IndexError, "boolean index did not match indexed array along axis ",
             first + k, "; size of axis is ", covered[k], " but size of corresponding boolean axis is ", term.shape[k],
             " (the mask's shape is ", term.shape, ", the indexed axes' ", covered, ")");
  bool mergeable = true;
  for (int k = first; k + 1 < first + term.shape.ndim(); ++k)
    mergeable = mergeable && strides[k] == strides[k + 1] * shape[k + 1];
  if (mergeable && term.shape.ndim() > 1) {
    axes.extents.push_back(numel(covered));
    axes.strides.push_back(strides[first + term.shape.ndim() - 1]);
    return axes;
  }
  for (int k = 0; k < term.shape.ndim(); ++k) {
    axes.extents.push_back(covered[k]);
    axes.strides.push_back(strides[first + k]);
  }
  return axes;
}

// Whether the advanced terms (index arrays, and positions among them) stand next to each other.
bool advanced_terms_adjacent(std::span<const IndexTerm> terms) {
  int first = -1, last = -1;
  for (int k = 0; k < static_cast<int>(terms.size()); ++k) {
    if (!is_array(terms[k]) && terms[k].kind != IndexTermKind::position) continue;
    if (first < 0) first = k;
    last = k;
  }
  for (int k = first; k <= last; ++k)
    if (!is_array(terms[k]) && terms[k].kind != IndexTermKind::position) return false;
  return true;
}

Shape broadcast_index_shapes(std::span<const IndexTerm> terms) {
  std::vector<Shape> shapes;
  for (const IndexTerm& term : terms) {
    if (term.kind == IndexTermKind::integers) shapes.push_back(term.shape);
    if (term.kind == IndexTermKind::mask) shapes.push_back(Shape{term.count});
  }
  std::vector<const Shape*> pointers;
  for (const Shape& s : shapes) pointers.push_back(&s);
  try {
    return broadcast_shapes("index", pointers);
  } catch (const ValueError&) {
    std::ostringstream list;
    for (const Shape& s : shapes) list << ' ' << s;
    throw IndexError("shape mismatch: indexing arrays could not be broadcast together with shapes", list.str());
  }
}

std::int64_t checked_position(std::int64_t position, std::int64_t extent, int axis) {
  const std::int64_t resolved = position < 0 ? position + extent : position;
  XP_CHECK(resolved >= 0 && resolved < extent, IndexError, "index ", position, " is out of bounds for axis ", axis,
           " with size ", extent);
  return resolved;
}

}  // namespace

std::pair<std::int64_t, std::int64_t> slice_positions(const slice& s, std::int64_t extent) {
  XP_CHECK(s.step != 0, ValueError, "slice step cannot be zero");
  const std::int64_t step = s.step;
  const auto clamp = [&](std::int64_t position, std::int64_t low, std::int64_t high) {
    if (position < 0) position += extent;
    return position < low ? low : position > high ? high : position;
  };
  if (step > 0) {
    const std::int64_t start = s.start ? clamp(*s.start, 0, extent) : 0;
    const std::int64_t stop = s.stop ? clamp(*s.stop, 0, extent) : extent;
    return {start, stop > start ? (stop - start + step - 1) / step : 0};
  }
  const std::int64_t start = s.start ? clamp(*s.start, -1, extent - 1) : extent - 1;
  const std::int64_t stop = s.stop ? clamp(*s.stop, -1, extent - 1) : -1;
  return {start, start > stop ? (start - stop - 1) / -step + 1 : 0};
}

Shape IndexPlan::result_shape() const {
  Shape result = outer_shape;
  for (int k = 0; k < index_shape.ndim(); ++k) result.push_back(index_shape[k]);
  for (int k = 0; k < inner_shape.ndim(); ++k) result.push_back(inner_shape[k]);
  return result;
}

IndexPlan plan_index(const Shape& shape, const Strides& strides, std::span<const IndexTerm> terms) {
  const int unnamed = shape.ndim() - named_axes(shape, terms);
  bool arrays = false;
  for (const IndexTerm& term : terms) arrays = arrays || is_array(term);
  const bool adjacent = !arrays || advanced_terms_adjacent(terms);
  IndexPlan plan;
  if (arrays) plan.index_shape = broadcast_index_shapes(terms);
  bool after = false;  // past the first advanced term: basic axes go to inner
  const auto keep = [&](std::int64_t extent, std::int64_t stride) {
    (after || !adjacent ? plan.inner_shape : plan.outer_shape).push_back(extent);
    (after || !adjacent ? plan.inner_strides : plan.outer_strides).push_back(stride);
  };
  int axis = 0;
  for (int k = 0; k < static_cast<int>(terms.size()); ++k) {
    const IndexTerm& term = terms[k];
    switch (term.kind) {
      case IndexTermKind::position:
        plan.offset += checked_position(term.position, shape[axis], axis) * strides[axis];
        after = after || arrays;
        ++axis;
        break;
      case IndexTermKind::slice: {
        const auto [start, length] = slice_positions(term.range, shape[axis]);
        if (length > 0) plan.offset += start * strides[axis];
        keep(length, strides[axis] * term.range.step);
        ++axis;
        break;
      }
      case IndexTermKind::newaxis: keep(1, 0); break;
      case IndexTermKind::ellipsis:
        for (int end = axis + unnamed; axis < end; ++axis) keep(shape[axis], strides[axis]);
        break;
      case IndexTermKind::integers:
        plan.indexed.push_back({k, axis, Shape{shape[axis]}, Strides{strides[axis]}});
        after = true;
        ++axis;
        break;
      case IndexTermKind::mask:
        plan.indexed.push_back(mask_axes(term, shape, strides, axis));
        plan.indexed.back().term = k;
        after = true;
        axis += term.shape.ndim();
        break;
    }
  }
  for (; axis < shape.ndim(); ++axis) keep(shape[axis], strides[axis]);
  const int ndim = plan.outer_shape.ndim() + plan.index_shape.ndim() + plan.inner_shape.ndim();
  XP_CHECK(ndim <= kMaxNdim, ValueError, "index: the result would have ", ndim, " dimensions; arrays have at most ",
           kMaxNdim);
  return plan;
}

}  // namespace xp::detail
