#include "xp/detail/reduction_planner.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "api/array/array_factory.hpp"
#include "core/layout.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

ArrayCore plan_reduction(std::string_view op, const ArrayCore& x, const Axes& axes, bool keepdims, bool ordered,
                         xp::dtype result, ReductionPlan& plan) {
  const int ndim = x.ndim();
  const std::array<bool, kMaxNdim> reduce = reduced_axes(op, axes, ndim);

  Shape out_shape, kept, reduced;
  Strides kept_strides, reduced_strides;
  for (int axis = 0; axis < ndim; ++axis) {
    const std::int64_t extent = x.shape()[axis], stride = x.strides()[axis];
    if (reduce[axis]) {
      reduced.push_back(extent);
      reduced_strides.push_back(stride);
      if (keepdims) out_shape.push_back(1);
    } else {
      kept.push_back(extent);
      kept_strides.push_back(stride);
      out_shape.push_back(extent);
    }
  }
  plan.exec = exec_on(x.device());
  if (plan.exec.device.is_gpu()) plan.scratch = &get_default_memory_pool(plan.exec.device);
  order_access(plan.exec, {&x});
  ArrayCore output = new_array(out_shape, result, plan.exec);
  plan.output = output.raw_data();
  plan.outputs = numel(kept);
  plan.reduced = numel(reduced);

  auto input = static_cast<const char*>(x.raw_data());
  if (!ordered && plan.reduced > 0) {
    // Walk every reduced axis forwards, the smallest stride innermost.
    for (int axis = 0; axis < reduced.ndim(); ++axis) {
      if (reduced_strides[axis] < 0) {
        input += (reduced[axis] - 1) * reduced_strides[axis] * static_cast<std::int64_t>(x.itemsize());
        reduced_strides[axis] = -reduced_strides[axis];
      }
    }
    std::array<int, kMaxNdim> order{};
    std::iota(order.begin(), order.begin() + reduced.ndim(), 0);
    std::stable_sort(order.begin(), order.begin() + reduced.ndim(),
                     [&](int a, int b) { return reduced_strides[a] > reduced_strides[b]; });
    Shape sorted;
    Strides sorted_strides;
    for (int i = 0; i < reduced.ndim(); ++i) {
      sorted.push_back(reduced[order[i]]);
      sorted_strides.push_back(reduced_strides[order[i]]);
    }
    reduced = sorted;
    reduced_strides = sorted_strides;
  }
  if (plan.outputs > 0 && plan.reduced > 0) {
    Strides* const kept_operands[] = {&kept_strides};
    squash_axes(kept, kept_operands);
    Strides* const reduced_operands[] = {&reduced_strides};
    squash_axes(reduced, reduced_operands);
  }
  plan.input = input;
  plan.kept_shape = kept;
  plan.kept_strides = kept_strides;
  plan.reduced_shape = reduced;
  plan.reduced_strides = reduced_strides;

  constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
  const auto [kept_low, kept_high] = offset_range(kept, kept_strides);
  const auto [reduced_low, reduced_high] = offset_range(reduced, reduced_strides);
  plan.fits_int32 =
      plan.outputs * plan.reduced <= limit && kept_low + reduced_low >= -limit && kept_high + reduced_high <= limit;
  return output;
}

}  // namespace xp::detail
