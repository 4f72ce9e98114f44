#include "cuda/cuda_allocators.hpp"

#include <cuda_runtime_api.h>

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"

namespace xp::detail {

namespace {
// False when memory is exhausted (the pool frees its cache and retries); any other failure throws.
// The status is taken before the pointer is read: as one call's two arguments, the pointer could be
// read before the allocation writes it.
bool allocated(cudaError_t status, const char* call, int device_id) {
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    return false;
  }
  check_cuda(status, call, device_id);
  return true;
}
}  // namespace

void* CudaDeviceAllocator::allocate(std::size_t bytes) {
  const CudaDeviceGuard guard(device_id_);
  void* ptr = nullptr;
  const cudaError_t status = cudaMalloc(&ptr, bytes);
  return allocated(status, "cudaMalloc", device_id_) ? ptr : nullptr;
}

void CudaDeviceAllocator::deallocate(void* ptr, std::size_t) noexcept {
  release_on_device(device_id_, [ptr] { cudaFree(ptr); });
}

void* CudaPinnedAllocator::allocate(std::size_t bytes) {
  void* ptr = nullptr;
  const cudaError_t status = cudaHostAlloc(&ptr, bytes, cudaHostAllocPortable);
  return allocated(status, "cudaHostAlloc", -1) ? ptr : nullptr;
}

void CudaPinnedAllocator::deallocate(void* ptr, std::size_t) noexcept { cudaFreeHost(ptr); }

}  // namespace xp::detail
