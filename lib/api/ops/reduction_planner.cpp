#include "xp/detail/reduction_planner.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "api/array/array_factory.hpp"
#include "api/ops/reduction_axes.hpp"
#include "core/layout.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

namespace {

// The input's axes split into kept and reduced ones (extents and strides), and the output's shape.
struct AxisSplit {
  Shape out_shape, kept, reduced;
  Strides kept_strides, reduced_strides;
};

AxisSplit split_axes(std::string_view op, const ArrayCore& x, const Axes& axes, bool keepdims) {
  ReductionAxes split = split_reduction_axes(op, x.shape(), axes, keepdims);
  AxisSplit result{std::move(split.out_shape), std::move(split.kept), std::move(split.reduced), {}, {}};
  split_strides(split, x.strides(), result.kept_strides, result.reduced_strides);
  return result;
}

// For an unordered reduction: every reduced axis walked forwards (moving `input` to the first element
// read), the smallest stride innermost.
void reorder_reduced_axes(AxisSplit& split, const char*& input, std::size_t itemsize) {
  Shape& reduced = split.reduced;
  Strides& strides = split.reduced_strides;
  for (int axis = 0; axis < reduced.ndim(); ++axis) {
    if (strides[axis] < 0) {
      if (input) input += (reduced[axis] - 1) * strides[axis] * static_cast<std::int64_t>(itemsize);  // not empty
      strides[axis] = -strides[axis];
    }
  }
  std::array<int, kMaxNdim> order{};
  std::iota(order.begin(), order.begin() + reduced.ndim(), 0);
  std::stable_sort(order.begin(), order.begin() + reduced.ndim(),
                   [&](int a, int b) { return strides[a] > strides[b]; });
  Shape sorted;
  Strides sorted_strides;
  for (int i = 0; i < reduced.ndim(); ++i) {
    sorted.push_back(reduced[order[i]]);
    sorted_strides.push_back(strides[order[i]]);
  }
  reduced = sorted;
  strides = sorted_strides;
}

}  // namespace

ReductionAxes split_reduction_axes(std::string_view op, const Shape& shape, const Axes& axes, bool keepdims) {
  ReductionAxes split;
  split.reduce = reduced_axes(op, axes, shape.ndim());
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    if (split.reduce[axis]) {
      split.reduced.push_back(shape[axis]);
      if (keepdims) split.out_shape.push_back(1);
    } else {
      split.kept.push_back(shape[axis]);
      split.out_shape.push_back(shape[axis]);
    }
  }
  return split;
}

void split_strides(const ReductionAxes& axes, const Strides& strides, Strides& kept, Strides& reduced) {
  for (int axis = 0; axis < strides.ndim(); ++axis) (axes.reduce[axis] ? reduced : kept).push_back(strides[axis]);
}

Strides output_kept_strides(const ReductionAxes& axes, const Strides& out_strides, bool keepdims) {
  Strides kept;
  int at = 0;
  for (int axis = 0; axis < axes.kept.ndim() + axes.reduced.ndim(); ++axis) {
    if (!axes.reduce[axis]) kept.push_back(out_strides[at]);
    if (!axes.reduce[axis] || keepdims) ++at;
  }
  return kept;
}

ArrayCore plan_reduction(std::string_view op, const ArrayCore& x, const Axes& axes, bool keepdims, bool ordered,
                         xp::dtype result, ReductionPlan& plan) {
  AxisSplit split = split_axes(op, x, axes, keepdims);
  plan.exec = exec_on(x.device());
  if (plan.exec.device.is_gpu()) plan.scratch = &scratch_pool(plan.exec);
  order_access(plan.exec, {&x});
  ArrayCore output = new_array(split.out_shape, result, plan.exec);
  plan.output = output.raw_data();
  plan.outputs = numel(split.kept);
  plan.reduced = numel(split.reduced);

  auto input = static_cast<const char*>(x.raw_data());
  if (!ordered && plan.reduced > 0) reorder_reduced_axes(split, input, x.itemsize());
  if (plan.outputs > 0 && plan.reduced > 0) {
    Strides* const kept_operands[] = {&split.kept_strides};
    squash_axes(split.kept, kept_operands);
    Strides* const reduced_operands[] = {&split.reduced_strides};
    squash_axes(split.reduced, reduced_operands);
  }
  plan.input = input;
  plan.kept_shape = split.kept;
  plan.kept_strides = split.kept_strides;
  plan.reduced_shape = split.reduced;
  plan.reduced_strides = split.reduced_strides;

  constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
  const auto [kept_low, kept_high] = offset_range(split.kept, split.kept_strides);
  const auto [reduced_low, reduced_high] = offset_range(split.reduced, split.reduced_strides);
  plan.fits_int32 =
      plan.outputs * plan.reduced <= limit && kept_low + reduced_low >= -limit && kept_high + reduced_high <= limit;
  return output;
}

}  // namespace xp::detail
