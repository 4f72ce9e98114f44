#pragma once
// Collectives over arrays, for the layers above the arrays (lib/api/ops/collectives.cpp): the sum over one
// process's devices (the kvstore's), and the narrow way xp::dist reaches a device's communicator (a
// group id, a member joined with it; the stream its work goes on is support/ordered_exec.hpp's).
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "support/communicator.hpp"
#include "support/ordered_exec.hpp"
#include "xp/detail/exec.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// outputs[i] = sum of inputs (same shape and dtype; one pair per device, on distinct devices; an output
// may be its input).
XP_API void allreduce_sum(std::span<const ArrayCore* const> inputs, std::span<const ArrayCore* const> outputs);

// A new id for a group of `device`'s type spanning processes (NCCL's unique id on GPUs).
XP_API std::vector<std::byte> new_communicator_id(Device device);
// `device`'s member of the group `id` names, as rank `rank` of `ranks` (every process at once).
XP_API std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                       int rank);

}  // namespace xp::detail
