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

// A thread capturing a stream (xp::capture) may not call cudaMalloc in its capture mode; the memory of a
// graph comes from here all the same, so the call runs in the relaxed mode, as a pool's growth must.
class RelaxedCaptureMode {
 public:
  RelaxedCaptureMode() noexcept { cudaThreadExchangeStreamCaptureMode(&mode_); }
  ~RelaxedCaptureMode() { cudaThreadExchangeStreamCaptureMode(&mode_); }
  RelaxedCaptureMode(const RelaxedCaptureMode&) = delete;
  RelaxedCaptureMode& operator=(const RelaxedCaptureMode&) = delete;

 private:
  cudaStreamCaptureMode mode_ = cudaStreamCaptureModeRelaxed;
};

}  // namespace

void* CudaDeviceAllocator::allocate(std::size_t bytes) {
  const CudaDeviceGuard guard(device_id_);
  const RelaxedCaptureMode relaxed;
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
