#pragma once
// Raw CUDA memory for the pools: device memory of one GPU, and page-locked host memory.
// Exhaustion returns nullptr (the pool frees its cache and retries); other failures throw CudaError.
#include "xp/memory_pool.hpp"

namespace xp::detail {

class CudaDeviceAllocator final : public RawAllocator {
 public:
  explicit CudaDeviceAllocator(int device_id) : device_id_(device_id) {}
  void* allocate(std::size_t bytes) override;
  void deallocate(void* ptr, std::size_t bytes) noexcept override;

 private:
  int device_id_;
};

// Portable pinned memory: usable for asynchronous copies with every GPU.
class CudaPinnedAllocator final : public RawAllocator {
 public:
  void* allocate(std::size_t bytes) override;
  void deallocate(void* ptr, std::size_t bytes) noexcept override;
};

}  // namespace xp::detail
