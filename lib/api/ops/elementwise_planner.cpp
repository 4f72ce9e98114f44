#include "xp/detail/elementwise_planner.hpp"

#include <limits>

#include "api/array/array_factory.hpp"
#include "api/array/overlap.hpp"
#include "core/layout.hpp"
#include "core/view_plan.hpp"

namespace xp::detail {

namespace {

// The common case, planned without broadcasting or squashing: every array operand (and `out`) is
// C-contiguous with one shape, on one device, and `out` shares memory with no input but in place.
// Returns the first array, or null when the general plan is needed.
const ArrayCore* same_layout(std::span<const ArrayCore* const> inputs, const ArrayCore* out) {
  const ArrayCore* first = out;
  for (const ArrayCore* input : inputs) first = first ? first : input;
  if (!first) return nullptr;
  const auto fits = [&](const ArrayCore& a) {
    return a.device() == first->device() && a.shape() == first->shape() && a.is_contiguous();
  };
  if (out && !fits(*out)) return nullptr;
  for (const ArrayCore* input : inputs) {
    if (!input) continue;
    if (!fits(*input)) return nullptr;
    if (out && input->shares_buffer_with(*out) && input->raw_data() != out->raw_data() && may_overlap(*input, *out))
      return nullptr;
  }
  return first;
}

// Plans into `out`, or into a new array stored in *allocated.
void plan(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore* out, xp::dtype result,
          ElementwisePlan& plan, ArrayCore* allocated) {
  const int operands = static_cast<int>(inputs.size()) + 1;
  XP_CHECK(operands <= kMaxOperands, ValueError, op, ": at most ", kMaxOperands - 1, " operands are supported, not ",
           inputs.size());
  plan.operands = operands;

  if (const ArrayCore* first = same_layout(inputs, out)) {
    if (out) {
      plan_contiguous(inputs, *out, plan);
    } else {
      *allocated = new_array(first->shape(), result, exec_on(first->device()));
      plan_contiguous(inputs, *allocated, plan);
    }
    return;
  }

  // The arrays among the inputs, then the output, with their argument positions.
  std::array<const ArrayCore*, kMaxOperands> arrays{};
  std::array<int, kMaxOperands> positions{};
  std::array<const Shape*, kMaxOperands> shapes{};
  std::size_t n = 0;
  for (std::size_t k = 0; k <= inputs.size(); ++k) {
    const ArrayCore* a = k < inputs.size() ? inputs[k] : out;
    if (!a) continue;
    arrays[n] = a;
    positions[n] = static_cast<int>(k);
    shapes[n] = &a->shape();
    ++n;
  }
  XP_CHECK(n > 0, ValueError, op, ": at least one operand must be an array");
  plan.exec = exec_on(common_device(op, std::span(arrays.data(), n), std::span(positions.data(), n)));
  order_access(plan.exec, std::span(arrays.data(), n));
  const Shape shape = broadcast_shapes(op, std::span(shapes.data(), n));

  if (out) {
    XP_CHECK(out->shape() == shape, ValueError, op, ": the output has shape ", out->shape(),
             " but the operands broadcast to ", shape);
    XP_CHECK(!has_repeated_elements(*out), ValueError, op,
             ": the output is a broadcast view, several of its positions share one element");
  } else {
    *allocated = new_array(shape, result, plan.exec);
  }
  const ArrayCore& output = out ? *out : *allocated;

  plan.data[0] = output.raw_data();
  plan.strides[0] = output.strides();
  Strides zeros;
  for (int axis = 0; axis < shape.ndim(); ++axis) zeros.push_back(0);
  for (int k = 1; k < operands; ++k) {
    const ArrayCore* input = inputs[k - 1];
    if (!input) {
      plan.data[k] = nullptr;
      plan.strides[k] = zeros;
      continue;
    }
    Strides strides = broadcast_strides(input->shape(), input->strides(), shape);
    const bool in_place = input->raw_data() == output.raw_data() && strides == output.strides();
    if (!in_place && may_overlap(*input, output)) {
      const ArrayCore copy = copy_to(*input, plan.exec.device);
      plan.keep_alive.push_back(copy.buffer());
      plan.data[k] = copy.raw_data();
      plan.strides[k] = broadcast_strides(copy.shape(), copy.strides(), shape);
      continue;
    }
    plan.data[k] = input->raw_data();
    plan.strides[k] = strides;
  }

  plan.shape = shape;
  plan.size = numel(shape);
  finish_plan(plan);
}

}  // namespace

void plan_contiguous(std::span<const ArrayCore* const> inputs, const ArrayCore& out, ElementwisePlan& plan) {
  plan.operands = static_cast<int>(inputs.size()) + 1;
  plan.exec = exec_on(out.device());
  order_access(plan.exec, inputs);
  order_access(plan.exec, {&out});
  plan.size = static_cast<std::int64_t>(out.size());
  plan.shape = Shape(plan.size);
  plan.data[0] = out.raw_data();
  plan.strides[0] = Strides(1);
  for (int k = 1; k < plan.operands; ++k) {
    const ArrayCore* input = inputs[static_cast<std::size_t>(k - 1)];
    plan.data[k] = input ? input->raw_data() : nullptr;
    plan.strides[k] = Strides(input ? 1 : 0);
  }
  plan.contiguous = true;
  plan.fits_int32 = plan.size <= std::numeric_limits<std::int32_t>::max();
}

ArrayCore plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, xp::dtype result,
                           ElementwisePlan& plan) {
  ArrayCore output;
  detail::plan(op, inputs, nullptr, result, plan, &output);
  return output;
}

void plan_elementwise(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out,
                      ElementwisePlan& plan) {
  detail::plan(op, inputs, &out, out.dtype(), plan, nullptr);
}

}  // namespace xp::detail
