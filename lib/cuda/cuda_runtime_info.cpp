#include "cuda/cuda_runtime_info.hpp"

#include <array>
#include <atomic>

#include "cuda/cuda_check.hpp"
#include "xp/device.hpp"

namespace xp::detail {

const CudaDeviceCount& cuda_device_count_info() noexcept {
  static const CudaDeviceCount info = [] {
    int count = 0;
    const cudaError_t status = cudaGetDeviceCount(&count);
    if (status != cudaSuccess) cudaGetLastError();
    return CudaDeviceCount{status, status == cudaSuccess ? count : 0};
  }();
  return info;
}

int cuda_multiprocessor_count(int id) {
  static std::array<std::atomic<int>, Device::kMaxDeviceId> cached{};
  int count = cached[id].load(std::memory_order_relaxed);
  if (count == 0) {
    XP_CUDA_CHECK(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, id), id);
    cached[id].store(count, std::memory_order_relaxed);
  }
  return count;
}

}  // namespace xp::detail
