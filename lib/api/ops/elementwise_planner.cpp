#include "xp/detail/elementwise_planner.hpp"

#include <limits>

#include "api/array/array_factory.hpp"
#include "api/array/overlap.hpp"
#include "api/ops/loop_shape.hpp"
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

// The array operands, inputs then the output, with their argument positions and shapes.
struct ArrayOperands {
  std::array<const ArrayCore*, kMaxOperands> array_list{};
  std::array<int, kMaxOperands> position_list{};
  std::array<const Shape*, kMaxOperands> shape_list{};
  std::size_t n = 0;
  std::span<const ArrayCore* const> arrays() const { return std::span(array_list.data(), n); }
  std::span<const int> positions() const { return std::span(position_list.data(), n); }
  std::span<const Shape* const> shapes() const { return std::span(shape_list.data(), n); }
};

ArrayOperands array_operands(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore* out) {
  ArrayOperands found;
  for (std::size_t k = 0; k <= inputs.size(); ++k) {
    const ArrayCore* a = k < inputs.size() ? inputs[k] : out;
    if (!a) continue;
    found.array_list[found.n] = a;
    found.position_list[found.n] = static_cast<int>(k);
    found.shape_list[found.n] = &a->shape();
    ++found.n;
  }
  XP_CHECK(found.n > 0, ValueError, op, ": at least one operand must be an array");
  return found;
}

// Operand k (input k - 1; null: a scalar) broadcast over `shape`; a copy when it overlaps the output
// other than element for element.
void plan_input(ElementwisePlan& plan, int k, const ArrayCore* input, const ArrayCore& output, const Shape& shape) {
  if (!input) {
    plan.data[k] = nullptr;
    plan.strides[k] = Strides();
    for (int axis = 0; axis < shape.ndim(); ++axis) plan.strides[k].push_back(0);
    return;
  }
  const Strides strides = broadcast_strides(input->shape(), input->strides(), shape);
  const bool in_place = input->raw_data() == output.raw_data() && strides == output.strides();
  if (!in_place && may_overlap(*input, output)) {
    const ArrayCore copy = copy_to(*input, plan.exec.device);
    plan.keep_alive.push_back(ArrayInternals::buffer(copy));
    plan.data[k] = copy.raw_data();
    plan.strides[k] = broadcast_strides(copy.shape(), copy.strides(), shape);
    return;
  }
  plan.data[k] = input->raw_data();
  plan.strides[k] = strides;
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

  const ArrayOperands arrays = array_operands(op, inputs, out);
  plan.exec = exec_on(common_device(op, arrays.arrays(), arrays.positions()));
  order_access(plan.exec, arrays.arrays());
  const Shape shape = loop_shape(op, arrays.shapes(), std::nullopt);

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
  for (int k = 1; k < operands; ++k) plan_input(plan, k, inputs[k - 1], output, shape);
  plan.shape = shape;
  plan.size = numel(shape);
  finish_plan(plan);
}

}  // namespace

Shape loop_shape(std::string_view op, std::span<const Shape* const> broadcast, std::optional<std::int64_t> size) {
  if (size) {
    XP_CHECK(broadcast.empty(), ValueError, "Specified 'size' can be used only if all of the ndarray are 'raw'.");
    XP_CHECK(*size >= 0, ValueError, op, ": size must not be negative, not ", *size);
    return Shape(*size);
  }
  XP_CHECK(!broadcast.empty(), ValueError, "Loop size is undecided.");
  return broadcast_shapes(op, broadcast);
}

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
