// The GPU collectives in a CUDA build configured without NCCL (none in the toolkit or a
// Python wheel): GPU arrays across processes go through host memory (xp::dist's path for the dtypes
// NCCL lacks), and a sum over several GPUs in one process says what is missing.
#include "cuda/cuda_services.hpp"
#include "cuda/nccl_allreduce.hpp"
#include "cuda/nccl_communicator.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

class HostStagedCommunicator final : public Communicator {
 public:
  bool carries(xp::dtype) const noexcept override { return false; }
  void allreduce_sum(void*, std::int64_t, xp::dtype, const Exec&) override { throw_without_nccl("allreduce"); }
  void broadcast(void*, std::int64_t, xp::dtype, int, const Exec&) override { throw_without_nccl("broadcast"); }

 private:
  [[noreturn]] static void throw_without_nccl(const char* operation) {
    throw NotImplementedError(operation,
                              " of GPU memory needs NCCL, which this build of xparray was configured without");
  }
};

}  // namespace

bool cuda_has_nccl() noexcept { return false; }

void nccl_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t, xp::dtype) {
  throw NotImplementedError("a sum over ", buffers.size(), " GPUs needs NCCL, which this build of xparray was ",
                            "configured without (CMake found no libnccl in the CUDA toolkit or a Python wheel)");
}

std::vector<std::byte> nccl_unique_id() { return {}; }

std::unique_ptr<Communicator> join_nccl_communicator(Device, std::span<const std::byte>, int, int) {
  return std::make_unique<HostStagedCommunicator>();
}

}  // namespace xp::detail
