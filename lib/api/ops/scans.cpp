// Scans along an axis: in the accumulation type (core/segment_calls.hpp), over the input's row-major
// elements as (outer, length, inner) blocks, so that no axis is moved; the result is row-major.
#include <array>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/axis_ops.hpp"
#include "core/segment_plan.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

namespace {

std::string_view scan_name(Scan scan) noexcept {
  static constexpr std::string_view names[] = {"cumsum", "cumprod", "nancumsum", "nancumprod"};
  return names[static_cast<int>(scan)];
}

// NaNs replaced by `value` (nancumsum's 0, nancumprod's 1).
ArrayCore without_nans(const ArrayCore& x, double value) {
  const std::array<Operand, 2> self{Operand{&x, {}}, Operand{&x, {}}};
  const ArrayCore nan = elementwise(ElementwiseOp::not_equal, self);
  const std::array<Operand, 3> choice{Operand{&nan, {}}, Operand{nullptr, scalar_value(value)}, Operand{&x, {}}};
  return elementwise(ElementwiseOp::where, choice);
}

}  // namespace

ArrayCore scan_along(Scan scan, const ArrayCore& a, std::optional<int> axis) {
  const std::string_view op = scan_name(scan);
  const profile_range profiled(op);
  const bool product = scan == Scan::cumprod || scan == Scan::nancumprod;
  const xp::dtype result = scan_dtype(a.dtype());
  // 2-byte floats accumulate in float32 and round once, as their sums do.
  const xp::dtype accumulation = is_two_byte_float(result) ? xp::dtype::float32 : result;
  const AxisSegments segments = axis_segments(op, a.shape(), axis);
  const bool nans = (scan == Scan::nancumsum || scan == Scan::nancumprod) && is_inexact_dtype(a.dtype());
  const ArrayCore values = nans ? without_nans(a, product ? 1.0 : 0.0) : a;
  const Exec exec = exec_on(a.device());
  const ArrayCore converted = values.dtype() == accumulation ? values : astype(values, accumulation);
  const ArrayCore input = contiguous(converted, exec);
  const Shape shape = axis ? a.shape() : Shape{static_cast<std::int64_t>(a.size())};
  const ArrayCore out = new_array(shape, accumulation, exec);
  order_access(exec, {&input, &out});
  const ScanCall call{product ? ScanOp::prod : ScanOp::sum,
                      accumulation,
                      input.raw_data(),
                      out.raw_data(),
                      segments.outer,
                      segments.length,
                      segments.inner,
                      &scratch_pool(exec)};
  kernels_for(exec.device).scan(call, exec);
  return accumulation == result ? out : astype(out, result);
}

}  // namespace xp::detail
