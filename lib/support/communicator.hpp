#pragma once
// Device buffers across processes: one device's member of a collective group (NCCL's communicator on
// GPUs, host staging elsewhere). The device types' collectives make them (core/device_collectives.hpp); xp::dist joins
// one per device through support/collectives.hpp.
#include <cstdint>

#include "xp/detail/exec.hpp"
#include "xp/dtype.hpp"
#include "xp/export.hpp"

namespace xp::detail {

class XP_API Communicator {
 public:
  virtual ~Communicator() = default;
  // Whether the group can sum or broadcast `type` (NCCL has no bool, int16 or uint16).
  virtual bool carries(xp::dtype type) const noexcept = 0;
  // In place, queued on exec.stream (exec.device is the member's device).
  virtual void allreduce_sum(void* data, std::int64_t count, xp::dtype type, const Exec& exec) = 0;
  virtual void broadcast(void* data, std::int64_t count, xp::dtype type, int root, const Exec& exec) = 0;
};

}  // namespace xp::detail
