#include "xp/memory_pool.hpp"

#include <array>
#include <atomic>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <mutex>
#include <utility>
#include <vector>

#include "core/device_registry.hpp"
#include "core/spin_lock.hpp"
#include "core/stream_capture.hpp"
#include "core/thread_index.hpp"
#include "xp/error.hpp"
#include "xp/stream.hpp"

namespace xp {

namespace {

constexpr std::size_t kUnit = MemoryPool::kRoundSize;
// Free blocks sit in bins found through a bitmap, so that reusing a size costs a bit scan:
// - one bin per size up to kExactUnits units (1 MiB), holding blocks of exactly that size;
// - above that, four bins per power of two, each an unsorted list searched for its best fit.
constexpr std::size_t kExactUnits = 2048;
constexpr int kFirstLargeOctave = 21;  // 2^20 bytes is the last exact size
constexpr std::size_t kBins = kExactUnits + 1 + (64 - kFirstLargeOctave + 1) * 4;
constexpr std::size_t kBitmapWords = (kBins + 63) / 64;

std::size_t bin_of(std::size_t size) noexcept {
  const std::size_t units = size / kUnit;
  if (units <= kExactUnits) return units;
  const int octave = std::bit_width(size) - 1;  // >= 20
  const std::size_t quarter = (size >> (octave - 2)) & 3;
  return kExactUnits + 1 + static_cast<std::size_t>(octave - (kFirstLargeOctave - 1)) * 4 + quarter;
}

struct Arena;

struct Block {
  char* ptr = nullptr;
  std::size_t size = 0;
  const void* stream = nullptr;  // its arena's, here for the thread caches
  bool thread_cacheable = false;  // set while handed out: it may enter its thread's cache
  Block* prev = nullptr;  // address-order neighbours cut from the same raw allocation
  Block* next = nullptr;
  Block* bin_prev = nullptr;  // links of the free list of its bin
  Block* bin_next = nullptr;
  Arena* arena = nullptr;
  bool in_use = false;
  std::vector<Stream> other_streams;  // record_stream: streams besides the arena's that use it

  bool is_whole_raw_allocation() const noexcept { return prev == nullptr && next == nullptr; }
};

// A freed block that other streams may still be using: it returns to its arena when every event
// (one per stream, recorded at the free) has passed.
struct PendingEvent {
  detail::Runtime* runtime;  // the one that made it
  Device device;
  void* event;  // null once passed
};

struct DeferredFree {
  Block* block;
  std::vector<PendingEvent> events;
};

// The free blocks of one stream.
struct Arena {
  explicit Arena(const void* s) : stream(s) {}
  const void* stream;
  std::array<Block*, kBins> bins{};
  std::array<std::uint64_t, kBitmapWords> nonempty{};

  // The first non-empty bin at or after `bin`, or kBins.
  std::size_t first_nonempty_from(std::size_t bin) const noexcept {
    if (bin >= kBins) return kBins;
    std::size_t word = bin / 64;
    std::uint64_t bits = nonempty[word] & (~std::uint64_t(0) << (bin % 64));
    while (bits == 0) {
      if (++word == kBitmapWords) return kBins;
      bits = nonempty[word];
    }
    return word * 64 + static_cast<std::size_t>(std::countr_zero(bits));
  }

  // The smallest block of `bin` holding at least `size` bytes, or nullptr.
  Block* best_fit_in(std::size_t bin, std::size_t size) const noexcept {
    Block* head = bins[bin];
    if (bin <= kExactUnits) return head && head->size >= size ? head : nullptr;  // all one size
    Block* best = nullptr;
    for (Block* b = head; b; b = b->bin_next) {
      if (b->size >= size && (!best || b->size < best->size)) best = b;
      if (best && best->size == size) break;
    }
    return best;
  }
};

// The blocks one thread freed last, which it takes back without the pool's lock: a loop
// allocates the same sizes every iteration, so most requests find the block freed one iteration
// before. Only whole raw allocations of at most kMaxSize enter, so no free neighbour waits to merge
// with one; the pool counts them as cached but keeps them in use. A slot's block pointer is the one
// thing another thread touches: under the pool's lock, free_all_blocks exchanges it for null, so the
// owner claims a block by the same exchange and finds null when it was taken (its size and stream are
// the owner's own hints).
struct alignas(64) ThreadCache {
  static constexpr int kSlots = 8;
  static constexpr std::size_t kMaxSize = std::size_t(16) << 20;  // at most 128 MiB per thread and pool

  struct Slot {
    const void* stream = nullptr;
    std::size_t size = 0;
    std::atomic<Block*> block{nullptr};  // null: empty
  };
  std::array<Slot, kSlots> slots{};
  int next_victim = 0;

  Block* take(const void* stream, std::size_t size) noexcept {
    for (Slot& slot : slots) {
      if (slot.size == size && slot.stream == stream) {
        if (Block* block = slot.block.exchange(nullptr, std::memory_order_acquire)) return block;
      }
    }
    return nullptr;
  }

  // Puts the block in an empty slot, or in place of the oldest entry, which it returns.
  Block* put(Block* block) noexcept {
    Slot* slot = nullptr;
    for (Slot& candidate : slots)
      if (!candidate.block.load(std::memory_order_relaxed)) {
        slot = &candidate;
        break;
      }
    Block* evicted = nullptr;
    if (!slot) {
      slot = &slots[static_cast<std::size_t>(next_victim)];
      next_victim = (next_victim + 1) % kSlots;
      evicted = slot->block.exchange(nullptr, std::memory_order_acquire);
    }
    slot->stream = block->stream;
    slot->size = block->size;
    slot->block.store(block, std::memory_order_release);
    return evicted;
  }

  // Takes every block out, for the pool to free; from any thread, under the pool's lock.
  template <class Free>
  void drain(Free&& free) noexcept {
    for (Slot& slot : slots)
      if (Block* block = slot.block.exchange(nullptr, std::memory_order_acq_rel)) free(block);
  }

  // A snapshot for the statistics, under the pool's lock: the owner may take or put meanwhile, but no
  // cached block changes size while the lock is held.
  template <class Visit>
  void for_each_block(Visit&& visit) const noexcept {
    for (const Slot& slot : slots)
      if (const Block* block = slot.block.load(std::memory_order_acquire)) visit(*block);
  }

  bool empty() const noexcept {
    bool none = true;
    for_each_block([&](const Block&) { none = false; });
    return none;
  }
};

}  // namespace

struct MemoryPool::State final : detail::ThreadExitListener {
  State(RawAllocator& r, PoolOptions o) : raw(&r), options(o) {}

  RawAllocator* raw;  // under the lock
  PoolOptions options;
  mutable detail::SpinLock mutex;
  std::size_t used = 0;
  std::size_t cached = 0;
  std::size_t n_cached = 0;
  std::vector<std::unique_ptr<Arena>> arenas;  // one per stream that allocated; few
  std::deque<Block> block_storage;  // stable addresses
  std::vector<Block*> spare_blocks;
  std::vector<DeferredFree> deferred;
  // Indexed by detail::this_thread_index(), inline so that reaching one's own is one load.
  std::array<ThreadCache, detail::kMaxIndexedThreads> thread_caches;

  // Returns a thread's cached blocks to the arenas; under the lock.
  void flush(ThreadCache& cache) noexcept {
    cache.drain([this](Block* block) { free_block(block); });
  }

  void on_thread_exit(int thread) noexcept override {
    const std::lock_guard lock(mutex);
    flush(thread_caches[static_cast<std::size_t>(thread)]);
  }

  // Every thread's cached blocks back to the arenas, then the whole free ones to the raw allocator.
  void release_all_cached_blocks() noexcept {
    for (ThreadCache& cache : thread_caches) flush(cache);
    release_cached_blocks();
  }

  // What the threads' caches hold, counted as cached rather than used; under the lock.
  std::size_t thread_cached_bytes() const noexcept {
    std::size_t total = 0;
    for (const ThreadCache& cache : thread_caches) cache.for_each_block([&](const Block& b) { total += b.size; });
    return total;
  }
  std::size_t thread_cached_blocks() const noexcept {
    std::size_t total = 0;
    for (const ThreadCache& cache : thread_caches) cache.for_each_block([&](const Block&) { ++total; });
    return total;
  }

  Arena& arena_for(const void* stream) {
    for (const auto& arena : arenas)
      if (arena->stream == stream) return *arena;
    return *arenas.emplace_back(std::make_unique<Arena>(stream));
  }

  Block* new_block(char* ptr, std::size_t size, Arena* arena) {
    Block* block;
    if (spare_blocks.empty()) {
      block = &block_storage.emplace_back();
    } else {
      block = spare_blocks.back();
      spare_blocks.pop_back();
      *block = Block{};
    }
    block->ptr = ptr;
    block->size = size;
    block->arena = arena;
    block->stream = arena->stream;
    return block;
  }

  void recycle(Block* block) { spare_blocks.push_back(block); }

  void insert_free(Block* block) {
    Arena& arena = *block->arena;
    const std::size_t bin = bin_of(block->size);
    Block*& head = arena.bins[bin];
    block->bin_prev = nullptr;
    block->bin_next = head;
    if (head) head->bin_prev = block;
    head = block;
    arena.nonempty[bin / 64] |= std::uint64_t(1) << (bin % 64);
    cached += block->size;
    ++n_cached;
  }

  void remove_free(Block* block) {
    Arena& arena = *block->arena;
    if (block->bin_prev) {
      block->bin_prev->bin_next = block->bin_next;
    } else {
      const std::size_t bin = bin_of(block->size);
      arena.bins[bin] = block->bin_next;
      if (!block->bin_next) arena.nonempty[bin / 64] &= ~(std::uint64_t(1) << (bin % 64));
    }
    if (block->bin_next) block->bin_next->bin_prev = block->bin_prev;
    cached -= block->size;
    --n_cached;
  }

  // Best fit among the arena's free blocks, taken out of its list; nullptr if none fits. Blocks in
  // the request's own bin may be too small (large bins span sizes); those of later bins all fit.
  Block* take_best_fit(Arena& arena, std::size_t size) {
    const std::size_t bin = bin_of(size);
    Block* block = arena.best_fit_in(bin, size);
    if (!block) {
      const std::size_t later = arena.first_nonempty_from(bin + 1);
      if (later == kBins) return nullptr;
      block = arena.best_fit_in(later, 0);
    }
    remove_free(block);
    return block;
  }

  // Keeps the head `size` bytes of a free block and caches the tail.
  void split(Block* block, std::size_t size) {
    Block* tail = new_block(block->ptr + size, block->size - size, block->arena);
    tail->prev = block;
    tail->next = block->next;
    if (block->next) block->next->prev = tail;
    block->next = tail;
    block->size = size;
    insert_free(tail);
  }

  // Absorbs `right` into `left`, its neighbour; neither may be in a free list.
  void merge(Block* left, Block* right) {
    left->size += right->size;
    left->next = right->next;
    if (right->next) right->next->prev = left;
    recycle(right);
  }

  void release_cached_blocks() {
    std::vector<Block*> whole;
    for (const auto& arena : arenas) {
      for (std::size_t bin = arena->first_nonempty_from(1); bin < kBins; bin = arena->first_nonempty_from(bin + 1)) {
        for (Block* b = arena->bins[bin]; b; b = b->bin_next)
          if (b->is_whole_raw_allocation()) whole.push_back(b);
      }
    }
    for (Block* b : whole) {
      remove_free(b);
      raw->deallocate(b->ptr, b->size);
      recycle(b);
    }
  }

  // Returns a block nobody uses any more to its arena (or to the raw allocator).
  void free_block(Block* block) noexcept {
    block->in_use = false;
    used -= block->size;
    if (!options.caching) {  // never split, so the block is a whole raw allocation
      raw->deallocate(block->ptr, block->size);
      recycle(block);
      return;
    }
    if (Block* right = block->next; right && !right->in_use) {
      remove_free(right);
      merge(block, right);
    }
    if (Block* left = block->prev; left && !left->in_use) {
      remove_free(left);
      merge(left, block);
      block = left;
    }
    insert_free(block);
  }

  // Frees the deferred blocks whose streams have passed their events; with `wait`, waits for all.
  void collect_deferred(bool wait) noexcept {
    std::erase_if(deferred, [&](DeferredFree& d) {
      for (PendingEvent& e : d.events) {
        if (!e.event) continue;
        try {
          if (wait) e.runtime->synchronize_event(e.device, e.event);
          else if (!e.runtime->query_event(e.device, e.event)) return false;
        } catch (const Error&) {
          // A failed stream reports its error on its next checked call; the memory is not reused.
          return false;
        }
        e.runtime->destroy_event(e.device, e.event);
        e.event = nullptr;
      }
      free_block(d.block);
      return true;
    });
  }

  bool within_limit(std::size_t size) const noexcept {
    const std::size_t limit = options.limit;
    const std::size_t total = used + cached;
    return limit == 0 || (size <= limit && total <= limit - size);
  }

  void* allocate_raw(std::size_t size) {
    if (!within_limit(size)) {
      collect_deferred(/*wait=*/true);
      release_all_cached_blocks();
      if (!within_limit(size)) return nullptr;
    }
    if (void* ptr = raw->allocate(size)) return ptr;
    collect_deferred(/*wait=*/true);
    release_all_cached_blocks();
    return within_limit(size) ? raw->allocate(size) : nullptr;
  }

  // The locked path of malloc: best fit among the stream's cached blocks, else a raw allocation.
  [[gnu::noinline]] Block* allocate(std::size_t bytes, std::size_t size, const void* stream, ThreadCache* cache,
                                    Device device) {
    const std::lock_guard lock(mutex);
    if (!deferred.empty()) collect_deferred(/*wait=*/false);
    Arena& arena = arena_for(stream);
    Block* block = options.caching ? take_best_fit(arena, size) : nullptr;
    if (!block && cache && !cache->empty()) {  // this thread's cache may hold a block to split
      flush(*cache);
      block = take_best_fit(arena, size);
    }
    if (block) {
      if (block->size > size) split(block, size);
    } else {
      void* ptr = allocate_raw(size);
      if (!ptr) {
        std::string limit = options.limit ? std::to_string(options.limit) + " bytes" : "none";
        throw OutOfMemoryError("out of memory on ", device, ": cannot allocate ", bytes, " bytes (used: ", used,
                               " bytes, cached: ", cached, " bytes, limit: ", limit, ")");
      }
      block = new_block(static_cast<char*>(ptr), size, &arena);
    }
    block->in_use = true;
    block->thread_cacheable =
        options.caching && block->is_whole_raw_allocation() && block->size <= ThreadCache::kMaxSize;
    used += block->size;
    return block;
  }

  // The locked path of release; a block that other streams use waits for them.
  [[gnu::noinline]] void release_shared(Block* block) noexcept {
    std::vector<Stream> others;
    {
      const std::lock_guard lock(mutex);
      if (block->other_streams.empty()) {
        free_block(block);
        return;
      }
      others.swap(block->other_streams);
    }
    // The block waits until every other stream has passed the work it had queued at this point.
    DeferredFree pending{block, {}};
    for (const Stream& stream : others) {
      const Device device = stream.device();
      detail::Runtime& runtime = detail::runtime_for(device);
      void* event = nullptr;
      try {
        event = runtime.create_event(device, detail::ordering_event());
        runtime.record_event(event, device, stream.native_handle());
      } catch (const Error&) {
        // Without an event the stream is waited for: the block must not be reused under it.
        if (event) runtime.destroy_event(device, event);
        event = nullptr;
        try {
          runtime.synchronize_stream(device, stream.native_handle());
        } catch (const Error&) {}
      }
      pending.events.push_back({&runtime, device, event});
    }
    const std::lock_guard lock(mutex);
    deferred.push_back(std::move(pending));
  }
};

MemoryPool::MemoryPool(RawAllocator& raw, Device device, PoolOptions options)
    : device_(device), state_(std::make_unique<State>(raw, options)) {
  detail::add_thread_exit_listener(*state_);
}

RawAllocator& detail::exchange_raw_allocator(MemoryPool& pool, RawAllocator& raw) {
  MemoryPool::State& s = *pool.state_;
  const std::lock_guard lock(s.mutex);
  return *std::exchange(s.raw, &raw);
}

MemoryPool::~MemoryPool() {
  detail::remove_thread_exit_listener(*state_);
  state_->collect_deferred(/*wait=*/true);
  state_->release_all_cached_blocks();
}

namespace {

// The arena key of a stream: host-synchronous streams need no ordering, so they share one arena.
const void* arena_key(const Stream& stream) {
  return detail::runtime_for(stream.device()).host_synchronous() ? nullptr : stream.native_handle();
}

}  // namespace

Allocation MemoryPool::malloc(std::size_t bytes, const void* stream) {
  if (bytes == 0) return {};
  XP_CHECK(bytes <= std::numeric_limits<std::size_t>::max() - kUnit, OutOfMemoryError, "out of memory on ", device_,
           ": cannot allocate ", bytes, " bytes");
  const std::size_t size = (bytes + kUnit - 1) / kUnit * kUnit;

  State& s = *state_;
  const int thread = detail::this_thread_index();
  ThreadCache* cache = thread >= 0 ? &s.thread_caches[static_cast<std::size_t>(thread)] : nullptr;
  if (cache) {
    if (Block* block = cache->take(stream, size)) return Allocation(block->ptr, bytes, this, block);
  }

  Block* block = s.allocate(bytes, size, stream, cache, device_);
  return Allocation(block->ptr, bytes, this, block);
}

Allocation MemoryPool::malloc(std::size_t bytes, const Stream& stream) {
  XP_CHECK(stream.device() == device_, DeviceMismatchError, "MemoryPool::malloc: the stream is on ", stream.device(),
           " but the pool is for ", device_);
  return malloc(bytes, arena_key(stream));
}

void MemoryPool::record_stream(const Allocation& allocation, const Stream& stream) {
  if (!allocation || allocation.pool_ != this) return;
  const void* key = arena_key(stream);
  if (!key && detail::runtime_for(stream.device()).host_synchronous()) return;  // its work is done
  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  auto* block = static_cast<Block*>(allocation.block_);
  if (key == block->arena->stream && stream.device() == device_) return;
  for (const Stream& other : block->other_streams)
    if (other == stream) return;
  block->other_streams.push_back(stream);
  block->thread_cacheable = false;
}

void MemoryPool::release(void* opaque) noexcept {
  State& s = *state_;
  auto* block = static_cast<Block*>(opaque);
  if (block->thread_cacheable) {
    if (const int thread = detail::this_thread_index(); thread >= 0) {
      block = s.thread_caches[static_cast<std::size_t>(thread)].put(block);
      if (!block) return;
    }
  }
  s.release_shared(block);
}

std::size_t MemoryPool::used_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->used - state_->thread_cached_bytes();
}

std::size_t MemoryPool::free_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->cached + state_->thread_cached_bytes();
}

std::size_t MemoryPool::total_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->used + state_->cached;
}

std::size_t MemoryPool::n_free_blocks() const {
  const std::lock_guard lock(state_->mutex);
  return state_->n_cached + state_->thread_cached_blocks();
}

void MemoryPool::free_all_blocks() {
  detail::check_no_wait_in_capture(device_, "MemoryPool::free_all_blocks");
  const std::lock_guard lock(state_->mutex);
  state_->collect_deferred(/*wait=*/false);
  state_->release_all_cached_blocks();
}

void MemoryPool::set_limit(std::size_t bytes) {
  const std::lock_guard lock(state_->mutex);
  state_->options.limit = bytes;
}

std::size_t MemoryPool::get_limit() const {
  const std::lock_guard lock(state_->mutex);
  return state_->options.limit;
}

Allocation::Allocation(Allocation&& other) noexcept
    : ptr_(other.ptr_), size_(other.size_), pool_(other.pool_), block_(other.block_) {
  other.ptr_ = nullptr;
  other.size_ = 0;
  other.pool_ = nullptr;
  other.block_ = nullptr;
}

Allocation& Allocation::operator=(Allocation&& other) noexcept {
  if (this != &other) {
    free();
    std::swap(ptr_, other.ptr_);
    std::swap(size_, other.size_);
    std::swap(pool_, other.pool_);
    std::swap(block_, other.block_);
  }
  return *this;
}

void Allocation::free() noexcept {
  if (!pool_) return;
  pool_->release(block_);
  ptr_ = nullptr;
  size_ = 0;
  pool_ = nullptr;
  block_ = nullptr;
}

}  // namespace xp
