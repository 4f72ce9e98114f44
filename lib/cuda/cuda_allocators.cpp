#include "cuda/cuda_allocators.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"

namespace xp::detail {

namespace {
void* nullptr_if_exhausted(cudaError_t status, void* ptr, const char* call, int device_id) {
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return nullptr;
  }
  check_cuda(status, call, device_id);
  return ptr;
}
}  // namespace

void* CudaDeviceAllocator::allocate(std::size_t bytes) {
  const CudaDeviceGuard guard(device_id_);
  void* ptr = nullptr;
  return nullptr_if_exhausted(cudaMalloc(&ptr, bytes), ptr, "cudaMalloc", device_id_);
}

void CudaDeviceAllocator::deallocate(void* ptr, std::size_t) noexcept {
  release_on_device(device_id_, [ptr] { cudaFree(ptr); });
}

void* CudaPinnedAllocator::allocate(std::size_t bytes) {
  void* ptr = nullptr;
  return nullptr_if_exhausted(cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable), ptr,
                              "cudaHostAlloc", -1);
}

void CudaPinnedAllocator::deallocate(void* ptr, std::size_t) noexcept { cudaFreeHost(ptr); }

}  // namespace xp::detail
