#pragma once
// Collectives over a device type's devices: within a process (allreduce_sum) and the groups across
// processes that a process group (lib/support/process_group.hpp) builds on. CPU:
// lib/cpu/host_allreduce.cpp; CUDA: lib/cuda/cuda_collectives.cpp (NCCL). Found through
// core/device_registry.hpp.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "support/communicator.hpp"
#include "xp/detail/exec.hpp"
#include "xp/device.hpp"
#include "xp/dtype.hpp"

namespace xp::detail {

// One device's part of a collective: what it contributes and where its copy of the result goes (the
// same memory for an in-place collective), with the device and stream it runs on.
struct CollectiveBuffer {
  const void* input = nullptr;
  void* output = nullptr;
  Exec exec;
};

class DeviceCollectives {
 public:
  virtual ~DeviceCollectives() = default;

  // Every output set to the sum of every input, `count` C-contiguous elements of `type` each, one
  // buffer per device (distinct devices of this type). CPU: one parallel pass over host memory;
  // CUDA: an NCCL all-reduce over a communicator of those devices, made once and kept.
  virtual void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) = 0;
  // Groups across processes for this type's devices: an id to share (empty: there are no such groups,
  // as for the CPU's, whose memory MPI reaches itself), and a device's membership of group `id` as
  // `rank` of `ranks`.
  virtual std::vector<std::byte> new_communicator_id() = 0;
  virtual std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                          int rank) = 0;
};

}  // namespace xp::detail
