// Sorts along an axis: the segment plan (core/segment_plan.hpp) says which elements form each row;
// rows not contiguous along the axis are copied so first; results come back as views of row-major
// buffers in the input's axis order.
#include <array>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/axis_ops.hpp"
#include "core/segment_plan.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

namespace {

// a's elements with the segments' axis last, row-major (a itself when it is already so).
ArrayCore rows_of(const ArrayCore& a, const AxisSegments& segments, bool flattened, const Exec& exec) {
  if (flattened) return contiguous(reshape(contiguous(a, exec), Shape{static_cast<std::int64_t>(a.size())}), exec);
  const std::array<int, kMaxNdim> order = axis_last_order(a.ndim(), segments.axis);
  return contiguous(transpose(a, std::span(order.data(), static_cast<std::size_t>(a.ndim()))), exec);
}

// A row-major buffer of `rows`' shape viewed with the axis back in place: an array of `shape`.
ArrayCore in_axis_order(const ArrayCore& rows, const Shape& shape, const AxisSegments& segments, bool flattened) {
  if (flattened || segments.axis == shape.ndim() - 1) return rows;
  return ArrayCore(ArrayInternals::buffer(rows), rows.raw_data(), shape, axis_last_strides(shape, segments.axis),
                   rows.device(), rows.dtype());
}

}  // namespace

ArrayCore sort_along(SortKind kind, const ArrayCore& a, std::optional<int> axis) {
  const std::string_view op = kind == SortKind::sort ? "sort" : "argsort";
  const profile_range profiled(op);
  const AxisSegments segments = axis_segments(op, a.shape(), axis);
  const Exec exec = exec_on(a.device());
  const ArrayCore rows = rows_of(a, segments, !axis, exec);
  const ArrayCore out = new_array(rows.shape(), kind == SortKind::sort ? a.dtype() : xp::dtype::int64, exec);
  order_access(exec, {&rows, &out});
  SortCall call;
  call.type = a.dtype();
  call.keys = rows.raw_data();
  call.segments = segments.segments();
  call.length = segments.length;
  call.scratch = &scratch_pool(exec);
  if (kind == SortKind::sort) call.sorted = out.raw_data();
  else call.indices = static_cast<std::int64_t*>(out.raw_data());
  kernels_for(exec.device).sort(call, exec);
  return in_axis_order(out, a.shape(), segments, !axis);
}

ArrayCore take_positions(const ArrayCore& values, const ArrayCore& positions, int axis) {
  const AxisSegments source = axis_segments("take_positions", values.shape(), axis);
  const AxisSegments segments = axis_segments("take_positions", positions.shape(), axis);
  XP_ASSERT(source.segments() == segments.segments());
  const Exec exec = exec_on(values.device());
  const ArrayCore rows = rows_of(values, source, false, exec);
  const ArrayCore position_rows = rows_of(positions, segments, false, exec);
  const ArrayCore out = new_array(position_rows.shape(), values.dtype(), exec);
  order_access(exec, {&rows, &position_rows, &out});
  const GatherCall call{
      values.itemsize(), rows.raw_data(),     static_cast<const std::int64_t*>(position_rows.raw_data()),
      out.raw_data(),    segments.segments(), segments.length,
      source.length};
  if (out.size() > 0) kernels_for(exec.device).gather(call, exec);
  return in_axis_order(out, positions.shape(), segments, false);
}

}  // namespace xp::detail
