#pragma once
// The sum of buffers of several cpu devices, written to each device's output (the host collectives'
// allreduce_sum): every device's memory is host memory, so one parallel pass reads all inputs and
// writes all outputs, without gathering copies.
#include <span>

#include "core/device_collectives.hpp"

namespace xp::detail {

void host_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type);

// The collectives of cpu devices: host_allreduce_sum, and no process groups of their own (MPI reaches
// host memory itself).
DeviceCollectives& host_collectives();

}  // namespace xp::detail
