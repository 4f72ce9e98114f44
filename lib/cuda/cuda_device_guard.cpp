#include "cuda/cuda_device_guard.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_runtime_info.hpp"

namespace xp::detail {

void check_gpu_exists(int id) {
  const CudaDeviceCount& count = cuda_device_count_info();
  if (count.status != cudaSuccess) throw_cuda_error(count.status, "cudaGetDeviceCount", id);
  if (id >= count.count) throw_cuda_error(cudaErrorInvalidDevice, "cudaSetDevice", id);
}

}  // namespace xp::detail
