// Sums over devices (the kvstore's): checks, then one call to the devices' collectives where every
// device is of one type, else a sum on the first device. And xp::dist's way to a device's communicator.
#include "support/collectives.hpp"

#include <algorithm>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "xp/profile.hpp"

namespace xp::detail {

namespace {

bool same_device_type(std::span<const ArrayCore* const> arrays) {
  for (const ArrayCore* a : arrays)
    if (a->device().is_gpu() != arrays[0]->device().is_gpu()) return false;
  return true;
}

// Where devices of both kinds meet: the sum on the first input's device, copied to each output.
void allreduce_through_first(std::span<const ArrayCore* const> inputs, std::span<const ArrayCore* const> outputs) {
  const Device home = inputs[0]->device();
  ArrayCore total = copy_to(*inputs[0], home);
  for (std::size_t i = 1; i < inputs.size(); ++i) {
    const ArrayCore here = as_in_context(*inputs[i], home);
    const Operand operands[] = {{&total, {}}, {&here, {}}};
    elementwise(ElementwiseOp::add, operands, total);
  }
  for (const ArrayCore* out : outputs) copy_into(total, *out);
}

}  // namespace

void allreduce_sum(std::span<const ArrayCore* const> inputs, std::span<const ArrayCore* const> outputs) {
  const profile_range profiled("allreduce");
  XP_CHECK(!inputs.empty() && inputs.size() == outputs.size(), ValueError, "allreduce: ", inputs.size(), " inputs for ",
           outputs.size(), " outputs");
  const ArrayCore& first = *inputs[0];
  XP_CHECK(first.dtype() != xp::dtype::bool_, TypeError, "allreduce: cannot sum bool arrays");
  std::vector<Device> devices;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    for (const ArrayCore* a : {inputs[i], outputs[i]})
      XP_CHECK(a->shape() == first.shape() && a->dtype() == first.dtype(), ValueError, "allreduce: an array of ",
               a->dtype(), " ", a->shape(), " among arrays of ", first.dtype(), " ", first.shape());
    XP_CHECK(outputs[i]->device() == inputs[i]->device(), DeviceMismatchError, "allreduce: output ", i, " is on ",
             outputs[i]->device(), " but input ", i, " is on ", inputs[i]->device());
    XP_CHECK(std::find(devices.begin(), devices.end(), inputs[i]->device()) == devices.end(), ValueError,
             "allreduce: ", inputs[i]->device(), " appears twice; each device contributes one array");
    devices.push_back(inputs[i]->device());
  }
  if (inputs.size() == 1) {
    if (inputs[0]->raw_data() != outputs[0]->raw_data() || inputs[0]->strides() != outputs[0]->strides())
      copy_into(*inputs[0], *outputs[0]);
    return;
  }
  if (!same_device_type(inputs)) {
    allreduce_through_first(inputs, outputs);
    return;
  }
  // Contiguous operands: the arrays themselves where they are, else copies (outputs copied back).
  std::vector<ArrayCore> contiguous_inputs, contiguous_outputs;
  std::vector<CollectiveBuffer> buffers;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const Exec exec = exec_on(inputs[i]->device());
    contiguous_inputs.push_back(contiguous(*inputs[i], exec));
    contiguous_outputs.push_back(outputs[i]->is_contiguous() ? *outputs[i]
                                                             : new_array(first.shape(), first.dtype(), exec));
    order_access(exec, {&contiguous_inputs.back(), &contiguous_outputs.back()});
    buffers.push_back({contiguous_inputs.back().raw_data(), contiguous_outputs.back().raw_data(), exec});
  }
  collectives_for(first.device()).allreduce_sum(buffers, static_cast<std::int64_t>(first.size()), first.dtype());
  for (std::size_t i = 0; i < outputs.size(); ++i)
    if (!outputs[i]->is_contiguous()) copy_into(contiguous_outputs[i], *outputs[i]);
}

std::vector<std::byte> new_communicator_id(Device device) { return collectives_for(device).new_communicator_id(); }

std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks, int rank) {
  return collectives_for(device).join_communicator(device, id, ranks, rank);
}

}  // namespace xp::detail
