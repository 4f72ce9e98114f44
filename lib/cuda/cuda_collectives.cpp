// The collectives of GPUs: NCCL's all-reduce and communicators (cuda/without_nccl.cpp where the
// build has no NCCL).
#include "cuda/cuda_services.hpp"
#include "cuda/nccl_allreduce.hpp"
#include "cuda/nccl_communicator.hpp"

namespace xp::detail {

namespace {

class CudaCollectives final : public DeviceCollectives {
 public:
  void allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) override {
    nccl_allreduce_sum(buffers, count, type);
  }
  std::vector<std::byte> new_communicator_id() override { return nccl_unique_id(); }
  std::unique_ptr<Communicator> join_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                  int rank) override {
    return join_nccl_communicator(device, id, ranks, rank);
  }
};

}  // namespace

DeviceCollectives* cuda_collectives() noexcept {
  static CudaCollectives collectives;
  return &collectives;
}

}  // namespace xp::detail
