#pragma once
// What the CUDA runtime says about this machine, asked once per process.
#include <cuda_runtime_api.h>

namespace xp::detail {

struct CudaDeviceCount {
  cudaError_t status;  // cudaErrorInsufficientDriver / cudaErrorNoDevice where there is no GPU
  int count;  // 0 unless status is cudaSuccess
};

const CudaDeviceCount& cuda_device_count_info() noexcept;

// Streaming multiprocessors of gpu(id) (sizes kernel grids); the device must exist.
int cuda_multiprocessor_count(int id);

}  // namespace xp::detail
