#pragma once
/// \file
/// Memory pools (CuPy's MemoryPool, MXNet's storage pool). One pool per device caches the blocks the
/// device's raw allocator hands out, so that the steady state of a training loop allocates nothing.
///
/// Policy (the same for every device; it is plain C++ and is tested with a fake raw allocator):
/// - Sizes are rounded up to 512 bytes.
/// - A request takes the smallest cached block that fits (best fit); a larger block is split and its
///   tail stays cached. Freed neighbours that came from one raw allocation merge back together.
/// - Cached blocks belong to the stream they were allocated for and are reused only on that stream.
///   A block that other streams use too is named to record_stream (c10's recordStream): when it is
///   freed, it waits until each of those streams has passed the work queued on it so far.
/// - If the raw allocator is exhausted, or the pool's limit would be exceeded, every cached block is
///   released and the request retried once; then OutOfMemoryError reports requested, used and cached
///   bytes.
/// - Zero-byte requests are not pooled: they return an empty Allocation.
/// - Thread-safe: one lock per pool, held for bookkeeping and raw allocation. In front of it, each
///   thread keeps the last 8 whole blocks of up to 16 MiB it freed and takes them back without the
///   lock (glibc's tcache idea). They count as cached, and return to the pool when one of that
///   thread's requests finds no cached block, at its exit, on any thread's free_all_blocks, when a
///   request would pass the limit or the raw allocator fails, and when the pool is destroyed.
#include <cstddef>
#include <memory>

#include "xp/device.hpp"
#include "xp/export.hpp"

namespace xp {

class Stream;

/// Where a pool's memory comes from: aligned host memory, cudaMalloc, cudaHostAlloc, or a test fake.
class XP_API RawAllocator {
 public:
  virtual ~RawAllocator() = default;
  /// Returns nullptr when memory is exhausted (the pool then frees its cache and retries once);
  /// throws for any other failure.
  virtual void* allocate(std::size_t bytes) = 0;
  /// Returns memory allocate gave, with the size asked for.
  virtual void deallocate(void* ptr, std::size_t bytes) noexcept = 0;
};

/// How a pool behaves.
struct XP_API PoolOptions {
  bool caching = true;  ///< false: freed blocks go straight back to the raw allocator
  std::size_t limit = 0;  ///< most bytes the pool may hold (used + cached); 0: no limit
};

class MemoryPool;

/// \cond DETAIL
namespace detail {
// Makes `raw` the pool's raw allocator and returns the one it had (fault-injection tests wrap it).
// Blocks the previous allocator gave are then returned to `raw`, which must hand them on to it.
XP_API RawAllocator& exchange_raw_allocator(MemoryPool& pool, RawAllocator& raw);
}  // namespace detail
/// \endcond

/// A block of pooled memory, returned to its pool when destroyed or freed. Move-only.
class XP_API Allocation {
 public:
  Allocation() noexcept = default;
  /// Takes over `other`'s block; `other` becomes empty.
  Allocation(Allocation&& other) noexcept;
  /// Frees this block (back to its pool), then takes over `other`'s.
  Allocation& operator=(Allocation&& other) noexcept;
  Allocation(const Allocation&) = delete;
  Allocation& operator=(const Allocation&) = delete;
  ~Allocation();

  void* get() const noexcept { return ptr_; }  ///< the block's address; null when empty
  std::size_t size() const noexcept { return size_; }  ///< the size that was asked for
  /// Holds a block.
  explicit operator bool() const noexcept { return ptr_ != nullptr; }
  MemoryPool* pool() const noexcept { return pool_; }  ///< null when empty
  void free() noexcept;  ///< returns the block now; a second call does nothing

 private:
  friend class MemoryPool;
  Allocation(void* ptr, std::size_t size, MemoryPool* pool, void* block) noexcept
      : ptr_(ptr), size_(size), pool_(pool), block_(block) {}
  void* ptr_ = nullptr;
  std::size_t size_ = 0;
  MemoryPool* pool_ = nullptr;
  void* block_ = nullptr;
};

/// A per-device caching allocator (CuPy's MemoryPool): freed blocks are kept for reuse, by size and stream.
class XP_API MemoryPool {
 public:
  static constexpr std::size_t kRoundSize = 512;  ///< requests are rounded up to a multiple of this many bytes

  /// The pool must outlive every Allocation it hands out (the default pools live forever).
  MemoryPool(RawAllocator& raw, Device device, PoolOptions options = {});
  ~MemoryPool();
  MemoryPool(const MemoryPool&) = delete;
  MemoryPool& operator=(const MemoryPool&) = delete;

  /// `stream` is the native handle of the stream that will use the memory (nullptr: the null stream).
  Allocation malloc(std::size_t bytes, const void* stream = nullptr);
  /// The same, for a Stream of the pool's device.
  Allocation malloc(std::size_t bytes, const Stream& stream);
  /// `stream` uses the allocation besides the stream it was allocated for (nothing to do when they
  /// are the same, or when the stream's work is done as it is queued, as on CPUs).
  void record_stream(const Allocation& allocation, const Stream& stream);

  std::size_t used_bytes() const;  ///< bytes in blocks handed out (rounded sizes)
  std::size_t free_bytes() const;  ///< bytes cached for reuse
  std::size_t total_bytes() const;  ///< used + free: what the raw allocator has given the pool
  std::size_t n_free_blocks() const;  ///< cached blocks
  void free_all_blocks();  ///< releases every cached block that is a whole raw allocation
  void set_limit(std::size_t bytes);  ///< 0: no limit
  std::size_t get_limit() const;  ///< the limit set_limit or XP_GPU_MEMORY_LIMIT gave; 0: none
  Device device() const noexcept { return device_; }  ///< the device whose memory the pool holds

 private:
  friend class Allocation;
  friend RawAllocator& detail::exchange_raw_allocator(MemoryPool& pool, RawAllocator& raw);
  struct State;
  void release(void* block) noexcept;

  Device device_;
  std::unique_ptr<State> state_;
};

/// Inline: a loop's temporaries cost one call to free.
inline Allocation::~Allocation() {
  if (pool_) pool_->release(block_);
}

/// Pinned host memory comes from a pool like any other, with cudaHostAlloc as its raw allocator.
using PinnedMemoryPool = MemoryPool;

/// The pool of a device, created at first use. Pools are never destroyed: arrays in static storage
/// may outlive any destruction order. GPU pools honour XP_GPU_MEMORY_LIMIT ("1073741824" or "40%" of
/// the device's memory); XP_DISABLE_POOL=1 turns caching off for every pool.
XP_API MemoryPool& get_default_memory_pool(Device device = current_device());
/// The pool of cpu_pinned(0): page-locked host memory used to stage host-GPU copies.
XP_API PinnedMemoryPool& get_default_pinned_memory_pool();

}  // namespace xp
