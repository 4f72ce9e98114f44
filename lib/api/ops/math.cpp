// The built-in elementwise operations: types, conversions and checks, then one call to the device kernels.
#include <array>
#include <cstring>
#include <limits>
#include <utility>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "core/elementwise_checks.hpp"
#include "xp/detail/elementwise_planner.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/ndarray.hpp"
#include "xp/profile.hpp"
#include "xp/type_info.hpp"

namespace xp::detail {

namespace {

// Out of line: its plan is 1.5 KB that run_contiguous's serial path does not need.
[[gnu::noinline]] void run_planned(ElementwiseOp op, std::span<const ArrayCore* const> inputs, const ArrayCore& out,
                                   DeviceKernels& kernels) {
  ElementwisePlan plan;
  plan_contiguous(inputs, out, plan);
  kernels.elementwise(ElementwiseCall{op, out.dtype()}, plan);
}

// The usual call with an output, planned in a few comparisons: an operation that keeps its dtype,
// array operands of the output's dtype and shape, all C-contiguous on its device, the output
// aliasing an input only exactly. Small ones on host devices run the device kernels' serial loop at once.
// Returns false to leave the call to the general planner.
bool run_contiguous(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore& out) {
  const xp::dtype type = out.dtype();
  if (!keeps_dtype(op, type) || !out.is_contiguous() || out.size() == 0) return false;
  std::array<const ArrayCore*, 3> inputs{};  // then the output, for the access gate
  std::array<const void*, 2> data{};
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const ArrayCore* a = operands[k].array;
    if (!a || a->dtype() != type || a->device() != out.device() || !a->is_contiguous() ||
        !(a->shape() == out.shape()) || (a->shares_buffer_with(out) && a->raw_data() != out.raw_data()))
      return false;
    inputs[k] = a;
    data[k] = a->raw_data();
  }
  const std::span<const ArrayCore* const> arrays(inputs.data(), operands.size());
  DeviceKernels& kernels = kernels_for(out.device());
  const auto size = static_cast<std::int64_t>(out.size());
  if (size < kParallelGrain) {
    if (const DeviceKernels::SerialLoop loop = kernels.serial_loop(op, type)) {
      const Exec exec = exec_on(out.device());
      if (!exec.asynchronous) {  // its work is done as it is queued: run it here
        inputs[operands.size()] = &out;
        order_access(exec, std::span(inputs.data(), operands.size() + 1));
        loop(out.raw_data(), data.data(), size);
        return true;
      }
    }
  }
  run_planned(op, arrays, out, kernels);
  return true;
}

// Runs `call` over `inputs` into `out`, or into a new array of dtype `result` stored in *allocated.
// An output of another dtype than `result` (the caller's choice) receives the result converted,
// through a temporary.
void run_into(const ElementwiseCall& call, std::span<const ArrayCore* const> inputs, xp::dtype result,
              const ArrayCore* out, ArrayCore* allocated) {
  const std::string_view name = op_name(call.op);
  ElementwisePlan plan;
  if (!out || out->dtype() == result) {
    if (out) plan_elementwise(name, inputs, *out, plan);
    else *allocated = plan_elementwise(name, inputs, result, plan);
    if (plan.size > 0) kernels_for(plan.exec.device).elementwise(call, plan);
    return;
  }
  const ArrayCore staged = new_array(out->shape(), result, out->device());
  plan_elementwise(name, inputs, staged, plan);
  if (plan.size > 0) kernels_for(plan.exec.device).elementwise(call, plan);
  kernels_for(out->device()).copy_cast(view_of(staged, plan.exec), view_of(*out, plan.exec), plan.exec);
}

// Runs op into `out`, or into a new array stored in *allocated.
void run(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore* out, ArrayCore* allocated) {
  const std::string_view name = op_name(op);
  XP_ASSERT(static_cast<int>(operands.size()) == op_arity(op));
  std::array<OperandType, 3> types{};
  for (std::size_t k = 0; k < operands.size(); ++k)
    types[k] =
        operands[k].array ? OperandType{operands[k].array->dtype(), false} : OperandType{operands[k].scalar.type, true};
  const xp::dtype compute = checked_compute_dtype(op, std::span(types.data(), operands.size()));
  const xp::dtype result = result_dtype(op, compute);

  // 2-byte floats are read as float32 and each result rounded once, by the kernels themselves.
  ElementwiseCall call{op, compute};
  std::array<const ArrayCore*, 3> inputs{};
  std::vector<ArrayCore> converted;  // inputs converted to the compute dtype (rarely any)
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const xp::dtype slot = input_dtype(op, k, compute);
    if (const ArrayCore* array = operands[k].array) {
      inputs[k] = array;
      if (array->dtype() != slot) {
        if (converted.empty()) converted.reserve(operands.size());  // the pointers below stay valid
        inputs[k] = &converted.emplace_back(astype(*array, slot));
      }
    } else {
      call.scalars[k] = convert_scalar(operands[k].scalar, slot, name);
    }
  }

  XP_CHECK(!out || can_cast(result, out->dtype(), Casting::same_kind), TypeError, name, ": cannot write a ", result,
           " result into a ", out->dtype(), " output (NumPy's same_kind casting)");
  run_into(call, std::span(inputs.data(), operands.size()), result, out, allocated);
}

}  // namespace

ArrayCore elementwise(ElementwiseOp op, std::span<const Operand> operands) {
  const profile_range profiled(op_name(op));
  ArrayCore result;
  run(op, operands, nullptr, &result);
  return result;
}

void elementwise(ElementwiseOp op, std::span<const Operand> operands, const ArrayCore& out) {
  const profile_range profiled(op_name(op));
  note_write(out);
  if (run_contiguous(op, operands, out)) return;
  run(op, operands, &out, nullptr);
}

}  // namespace xp::detail
