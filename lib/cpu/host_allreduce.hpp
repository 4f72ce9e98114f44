#pragma once
// The sum of buffers of several cpu devices, written to each device's output (the CPU backend's
// allreduce_sum): every device's memory is host memory, so one parallel pass reads all inputs and
// writes all outputs, without gathering copies.
#include <span>

#include "core/backend.hpp"

namespace xp::detail {

void host_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type);

}  // namespace xp::detail
