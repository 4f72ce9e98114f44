#pragma once
// Host memory for cpu(i) pools (and for cpu_pinned(i) when no GPU is present): 64-byte aligned, so
// every array starts on a cache line and suits the widest vector loads.
#include "xp/memory_pool.hpp"

namespace xp::detail {

class HostAllocator final : public RawAllocator {
 public:
  static constexpr std::size_t kAlignment = 64;
  static HostAllocator& instance();
  void* allocate(std::size_t bytes) override;
  void deallocate(void* ptr, std::size_t bytes) noexcept override;
};

}  // namespace xp::detail
