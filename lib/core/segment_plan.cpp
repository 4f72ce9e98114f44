#include "core/segment_plan.hpp"

#include "core/layout.hpp"
#include "xp/error.hpp"

namespace xp::detail {

AxisSegments axis_segments(std::string_view op, const Shape& shape, std::optional<int> axis) {
  AxisSegments segments;
  if (!axis) {
    segments.length = numel(shape);
    return segments;
  }
  XP_CHECK(shape.ndim() > 0, ValueError, op, ": axis ", *axis, " is out of bounds for array of dimension 0");
  segments.axis = normalize_axis(*axis, shape.ndim(), op);
  segments.length = shape[segments.axis];
  for (int i = 0; i < segments.axis; ++i) segments.outer *= shape[i];
  for (int i = segments.axis + 1; i < shape.ndim(); ++i) segments.inner *= shape[i];
  return segments;
}

std::array<int, kMaxNdim> axis_last_order(int ndim, int axis) {
  std::array<int, kMaxNdim> order{};
  int at = 0;
  for (int i = 0; i < ndim; ++i)
    if (i != axis) order[at++] = i;
  if (ndim > 0) order[at] = axis;
  return order;
}

Strides axis_last_strides(const Shape& shape, int axis) {
  Strides strides;
  for (int i = 0; i < shape.ndim(); ++i) strides.push_back(0);
  std::int64_t step = 1;
  if (shape.ndim() == 0) return strides;
  strides[axis] = step;
  step *= shape[axis];
  for (int i = shape.ndim() - 1; i >= 0; --i) {
    if (i == axis) continue;
    strides[i] = step;
    step *= shape[i];
  }
  return strides;
}

}  // namespace xp::detail
