#pragma once
// Arrays across processes: how the kvstore and the Trainer reach the other processes without linking
// MPI. xp::dist (its own library: dist/mpi_process_group.hpp) registers its group at xp::dist::init and
// withdraws it at finalize; the registry is lib/parallel/process_group.cpp.
#include <string>
#include <vector>

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

// The registered group (null when none). set_process_group(nullptr) withdraws it.
XP_API ProcessGroup* process_group() noexcept;
XP_API void set_process_group(ProcessGroup* group) noexcept;

}  // namespace xp::detail
