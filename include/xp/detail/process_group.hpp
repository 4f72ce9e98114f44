#pragma once
// How the kvstore and the Trainer reach other processes without linking MPI: xp::dist (its own
// library) registers its group at xp::dist::init and withdraws it at finalize.
#include <string>
#include <vector>

#include "xp/ndarray.hpp"

namespace xp::detail {

class ProcessGroup {
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

// The registered group (null when none). set_process_group(nullptr) withdraws it.
ProcessGroup* process_group() noexcept;
void set_process_group(ProcessGroup* group) noexcept;

}  // namespace xp::detail
