#include "core/view_plan.hpp"

#include <array>
#include <limits>

#include "core/layout.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

bool offsets_fit_int32(const Shape& shape, const Strides& strides) {
  const auto [low, high] = offset_range(shape, strides);
  constexpr std::int64_t limit = std::numeric_limits<std::int32_t>::max();
  return low >= -limit && high <= limit;
}

}  // namespace

ElementwisePlan plan_views(const Exec& exec, const StridedView& out, std::span<const StridedView> inputs,
                           WithPosition position) {
  ElementwisePlan plan;
  plan.exec = exec;
  plan.operands = 1 + static_cast<int>(inputs.size()) + (position == WithPosition::yes ? 1 : 0);
  XP_ASSERT(plan.operands <= kMaxOperands);
  plan.shape = out.shape;
  plan.size = numel(out.shape);
  plan.data[0] = out.data;
  plan.strides[0] = out.strides;
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    XP_ASSERT(inputs[k].shape == out.shape);
    plan.data[k + 1] = inputs[k].data;
    plan.strides[k + 1] = inputs[k].strides;
  }
  if (position == WithPosition::yes) plan.strides[plan.operands - 1] = contiguous_strides(out.shape);
  finish_plan(plan);
  return plan;
}

void finish_plan(ElementwisePlan& plan) {
  const auto operands = static_cast<std::size_t>(plan.operands);
  if (plan.size > 0) {
    std::array<Strides*, kMaxOperands> all{};
    for (std::size_t k = 0; k < operands; ++k) all[k] = &plan.strides[k];
    squash_axes(plan.shape, std::span(all.data(), operands));
  }
  // Scalars and the position slot have no data: how they are walked is not memory traffic.
  std::array<const Strides*, kMaxOperands> in_memory{};
  std::size_t n_in_memory = 0;
  for (std::size_t k = 0; k < operands; ++k)
    if (plan.data[k]) in_memory[n_in_memory++] = &plan.strides[k];
  plan.contiguous = walks_with_unit_stride(plan.shape, std::span(in_memory.data(), n_in_memory));
  plan.fits_int32 = plan.size <= std::numeric_limits<std::int32_t>::max();
  for (std::size_t k = 0; k < operands; ++k)
    plan.fits_int32 = plan.fits_int32 && offsets_fit_int32(plan.shape, plan.strides[k]);
}

}  // namespace xp::detail
