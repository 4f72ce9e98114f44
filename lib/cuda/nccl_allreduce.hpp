#pragma once
// The GPU collectives' allreduce_sum: NCCL over a communicator of the buffers' GPUs (one rank per GPU,
// in the buffers' order), made by ncclCommInitAll the first time that device list is seen and kept for
// the life of the process. One thread drives every GPU, so the calls are grouped
// (ncclGroupStart/End): each is queued on its buffer's stream and none waits on the host.
#include <span>

#include "core/device_collectives.hpp"

namespace xp::detail {

void nccl_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type);

}  // namespace xp::detail
