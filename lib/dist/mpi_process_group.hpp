#pragma once
// The process group xp::dist registers at init for the kvstore and the Trainer.
#include <string>
#include <vector>

#include "support/process_group.hpp"

namespace xp::dist::detail {

class MpiProcessGroup final : public xp::detail::ProcessGroup {
 public:
  int rank() const override;
  int size() const override;
  void allreduce(const std::vector<ndarray<>>& arrays) override;
  void broadcast(const std::vector<ndarray<>>& arrays, int root) override;
  std::vector<std::string> allgather(const std::string& text) override;
};

}  // namespace xp::dist::detail
