#pragma once
// A GPU's member of an NCCL communicator across processes (one process per GPU): rank 0's
// ncclGetUniqueId, handed to the others by the caller (xp::dist broadcasts it over MPI), then
// ncclCommInitRank on the member's device. Collectives are queued on the exec's stream, in place.
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "core/device_collectives.hpp"

namespace xp::detail {

std::vector<std::byte> nccl_unique_id();
std::unique_ptr<Communicator> join_nccl_communicator(Device device, std::span<const std::byte> id, int ranks, int rank);

}  // namespace xp::detail
