#include "cpu/host_allocator.hpp"

#include <cstdlib>

namespace xp::detail {

HostAllocator& HostAllocator::instance() {
  static HostAllocator allocator;
  return allocator;
}

void* HostAllocator::allocate(std::size_t bytes) {
  // aligned_alloc wants a multiple of the alignment; pooled sizes are multiples of 512 already.
  return std::aligned_alloc(kAlignment, (bytes + kAlignment - 1) / kAlignment * kAlignment);
}

void HostAllocator::deallocate(void* ptr, std::size_t) noexcept { std::free(ptr); }

}  // namespace xp::detail
