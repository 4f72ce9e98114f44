#pragma once
// How the kvstore and the Trainer reach other processes without linking MPI: xp::dist (its own
// library) registers its group at xp::dist::init and withdraws it at finalize. And the narrow way
// xp::dist reaches a device's collectives (NCCL on GPUs): a group id, and a member joined with it.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "xp/detail/exec.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

class XP_API ProcessGroup {
 public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // In place, over every process (fused in buckets).
  virtual void allreduce(const std::vector<ndarray<>>& arrays) = 0;
  virtual void broadcast(const std::vector<ndarray<>>& arrays, int root) = 0;
  // Every process's text, in rank order.
  virtual std::vector<std::string> allgather(const std::string& text) = 0;
};

// One device's member of a collective group that spans processes (NCCL's ncclCommInitRank on GPUs).
// Every process joins with the id one of them made (new_process_group_id) and its rank.
class XP_API ProcessCommunicator {
 public:
  virtual ~ProcessCommunicator() = default;
  // Whether the group can sum or broadcast `type` (NCCL has no bool, int16 or uint16).
  virtual bool carries(xp::dtype type) const noexcept = 0;
  // In place, queued on exec.stream (exec.device is the member's device).
  virtual void allreduce_sum(void* data, std::int64_t count, xp::dtype type, const Exec& exec) = 0;
  virtual void broadcast(void* data, std::int64_t count, xp::dtype type, int root, const Exec& exec) = 0;
};

// A new id for a group of `device`'s type spanning processes (NCCL's unique id on GPUs).
XP_API std::vector<std::byte> new_process_group_id(Device device);
// `device`'s member of the group `id` names, as rank `rank` of `ranks` (every process at once).
XP_API std::unique_ptr<ProcessCommunicator> join_process_group(Device device, std::span<const std::byte> id,
                                                                int ranks, int rank);

// The stream a collective over `arrays` runs on (`device`'s current one), with their pending work on
// other streams ordered before it (the arrays' access gate).
XP_API Exec collective_exec(Device device, std::span<const ArrayCore* const> arrays);

// The registered group (null when none). set_process_group(nullptr) withdraws it.
XP_API ProcessGroup* process_group() noexcept;
XP_API void set_process_group(ProcessGroup* group) noexcept;

}  // namespace xp::detail
