#include "cuda/nccl_communicator.hpp"

#include <cstring>

#include "cuda/nccl_check.hpp"
#include "xp/error.hpp"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp::detail {

namespace {

class NcclCommunicator final : public Communicator {
 public:
  NcclCommunicator(Device device, const ncclUniqueId& id, int ranks, int rank) : device_(device) {
    const ScopedCudaDevice on(device.id());
    XP_NCCL_CHECK(ncclCommInitRank(&comm_, ranks, id, rank));
  }
  // Destroyed by xp::dist::finalize, while the driver is still up.
  ~NcclCommunicator() override { ncclCommDestroy(comm_); }
  NcclCommunicator(const NcclCommunicator&) = delete;
  NcclCommunicator& operator=(const NcclCommunicator&) = delete;

  bool carries(xp::dtype type) const noexcept override { return nccl_type_of(type).has_value(); }

  void allreduce_sum(void* data, std::int64_t count, xp::dtype type, const Exec& exec) override {
    const ScopedCudaDevice on(device_.id());
    XP_NCCL_CHECK(ncclAllReduce(data, data, static_cast<std::size_t>(count), nccl_type(type, "allreduce"), ncclSum,
                                comm_, static_cast<cudaStream_t>(exec.stream.native_handle())));
  }

  void broadcast(void* data, std::int64_t count, xp::dtype type, int root, const Exec& exec) override {
    const ScopedCudaDevice on(device_.id());
    XP_NCCL_CHECK(ncclBroadcast(data, data, static_cast<std::size_t>(count), nccl_type(type, "broadcast"), root, comm_,
                                static_cast<cudaStream_t>(exec.stream.native_handle())));
  }

 private:
  Device device_;
  ncclComm_t comm_ = nullptr;
};

}  // namespace

std::vector<std::byte> nccl_unique_id() {
  ncclUniqueId id;
  XP_NCCL_CHECK(ncclGetUniqueId(&id));
  std::vector<std::byte> bytes(sizeof id);
  std::memcpy(bytes.data(), &id, sizeof id);
  return bytes;
}

std::unique_ptr<Communicator> join_nccl_communicator(Device device, std::span<const std::byte> id, int ranks,
                                                     int rank) {
  ncclUniqueId unique;
  XP_CHECK(id.size() == sizeof unique, ValueError, "NCCL: a group id of ", id.size(), " bytes, not ", sizeof unique);
  std::memcpy(&unique, id.data(), sizeof unique);
  return std::make_unique<NcclCommunicator>(device, unique, ranks, rank);
}

}  // namespace xp::detail
