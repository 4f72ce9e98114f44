#include "cuda/nccl_allreduce.hpp"

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "cuda/nccl_check.hpp"
#include "xp/error.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

namespace {

// Communicators by device list; never destroyed (ncclCommDestroy at exit could run after the driver
// has shut down).
const std::vector<ncclComm_t>& communicators(const std::vector<int>& devices) {
  static std::mutex mutex;
  static std::map<std::vector<int>, std::vector<ncclComm_t>> cache;
  const std::lock_guard lock(mutex);
  auto& comms = cache[devices];
  if (comms.empty()) {
    std::vector<ncclComm_t> made(devices.size());
    XP_NCCL_CHECK(ncclCommInitAll(made.data(), static_cast<int>(devices.size()), devices.data()));
    comms = std::move(made);
  }
  return comms;
}

}  // namespace

void nccl_allreduce_sum(std::span<const CollectiveBuffer> buffers, std::int64_t count, xp::dtype type) {
  if (buffers.empty() || count == 0) return;
  if (is_complex(type)) {  // NCCL has no complex types: a sum of complex numbers is a sum of their parts
    type = real_part_type(type);
    count *= 2;
  }
  const ncclDataType_t element = nccl_type(type, "allreduce");
  std::vector<int> devices;
  for (const CollectiveBuffer& b : buffers) devices.push_back(b.exec.device.id());
  const std::vector<ncclComm_t>& comms = communicators(devices);
  XP_NCCL_CHECK(ncclGroupStart());
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    const ncclResult_t queued =
        ncclAllReduce(buffers[i].input, buffers[i].output, static_cast<std::size_t>(count), element, ncclSum, comms[i],
                      static_cast<cudaStream_t>(buffers[i].exec.stream.native_handle()));
    if (queued != ncclSuccess) {
      ncclGroupEnd();  // leaves the group before reporting, so that later calls are not inside it
      check_nccl(queued, "ncclAllReduce");
    }
  }
  XP_NCCL_CHECK(ncclGroupEnd());
}

}  // namespace xp::detail
