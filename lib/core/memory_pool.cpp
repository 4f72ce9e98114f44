#include "xp/memory_pool.hpp"

#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <limits>
#include <mutex>
#include <vector>

#include "core/runtime.hpp"
#include "core/spin_lock.hpp"
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

}  // namespace

struct MemoryPool::State {
  State(RawAllocator& r, PoolOptions o) : raw(r), options(o) {}

  RawAllocator& raw;
  PoolOptions options;
  mutable detail::SpinLock mutex;
  std::size_t used = 0;
  std::size_t cached = 0;
  std::size_t n_cached = 0;
  std::vector<std::unique_ptr<Arena>> arenas;  // one per stream that allocated; few
  std::deque<Block> block_storage;             // stable addresses
  std::vector<Block*> spare_blocks;
  std::vector<DeferredFree> deferred;

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
      for (std::size_t bin = arena->first_nonempty_from(1); bin < kBins;
           bin = arena->first_nonempty_from(bin + 1)) {
        for (Block* b = arena->bins[bin]; b; b = b->bin_next)
          if (b->is_whole_raw_allocation()) whole.push_back(b);
      }
    }
    for (Block* b : whole) {
      remove_free(b);
      raw.deallocate(b->ptr, b->size);
      recycle(b);
    }
  }

  // Returns a block nobody uses any more to its arena (or to the raw allocator).
  void free_block(Block* block) noexcept {
    block->in_use = false;
    used -= block->size;
    if (!options.caching) {  // never split, so the block is a whole raw allocation
      raw.deallocate(block->ptr, block->size);
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
      release_cached_blocks();
      if (!within_limit(size)) return nullptr;
    }
    if (void* ptr = raw.allocate(size)) return ptr;
    collect_deferred(/*wait=*/true);
    release_cached_blocks();
    return within_limit(size) ? raw.allocate(size) : nullptr;
  }
};

MemoryPool::MemoryPool(RawAllocator& raw, Device device, PoolOptions options)
    : device_(device), state_(std::make_unique<State>(raw, options)) {}

MemoryPool::~MemoryPool() {
  state_->collect_deferred(/*wait=*/true);
  state_->release_cached_blocks();
}

namespace {

// The arena key of a stream: host-synchronous streams need no ordering, so they share one arena.
const void* arena_key(const Stream& stream) {
  return detail::runtime_for(stream.device()).host_synchronous() ? nullptr : stream.native_handle();
}

}  // namespace

Allocation MemoryPool::malloc(std::size_t bytes, const void* stream) {
  if (bytes == 0) return {};
  XP_CHECK(bytes <= std::numeric_limits<std::size_t>::max() - kUnit, OutOfMemoryError,
           "out of memory on ", device_, ": cannot allocate ", bytes, " bytes");
  const std::size_t size = (bytes + kUnit - 1) / kUnit * kUnit;

  State& s = *state_;
  const std::lock_guard lock(s.mutex);
  if (!s.deferred.empty()) s.collect_deferred(/*wait=*/false);
  Arena& arena = s.arena_for(stream);
  Block* block = s.options.caching ? s.take_best_fit(arena, size) : nullptr;
  if (block) {
    if (block->size > size) s.split(block, size);
  } else {
    void* ptr = s.allocate_raw(size);
    if (!ptr) {
      std::string limit = s.options.limit ? std::to_string(s.options.limit) + " bytes" : "none";
      throw OutOfMemoryError("out of memory on ", device_, ": cannot allocate ", bytes,
                             " bytes (used: ", s.used, " bytes, cached: ", s.cached,
                             " bytes, limit: ", limit, ")");
    }
    block = s.new_block(static_cast<char*>(ptr), size, &arena);
  }
  block->in_use = true;
  s.used += block->size;

  Allocation allocation;
  allocation.ptr_ = block->ptr;
  allocation.size_ = bytes;
  allocation.pool_ = this;
  allocation.block_ = block;
  return allocation;
}

Allocation MemoryPool::malloc(std::size_t bytes, const Stream& stream) {
  XP_CHECK(stream.device() == device_, DeviceMismatchError, "MemoryPool::malloc: the stream is on ",
           stream.device(), " but the pool is for ", device_);
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
}

void MemoryPool::release(void* opaque) noexcept {
  State& s = *state_;
  auto* block = static_cast<Block*>(opaque);
  std::vector<Stream> others;
  {
    const std::lock_guard lock(s.mutex);
    if (block->other_streams.empty()) {
      s.free_block(block);
      return;
    }
    others.swap(block->other_streams);
  }
  // The block waits until every other stream has passed the work it had queued at this point.
  DeferredFree deferred{block, {}};
  for (const Stream& stream : others) {
    const Device device = stream.device();
    detail::Runtime& runtime = detail::runtime_for(device);
    void* event = nullptr;
    try {
      event = runtime.create_event(device, /*timing=*/false);
      runtime.record_event(event, device, stream.native_handle());
    } catch (const Error&) {
      // Without an event the stream is waited for: the block must not be reused under it.
      if (event) runtime.destroy_event(device, event);
      event = nullptr;
      try {
        runtime.synchronize_stream(device, stream.native_handle());
      } catch (const Error&) {
      }
    }
    deferred.events.push_back({&runtime, device, event});
  }
  const std::lock_guard lock(s.mutex);
  s.deferred.push_back(std::move(deferred));
}

std::size_t MemoryPool::used_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->used;
}

std::size_t MemoryPool::free_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->cached;
}

std::size_t MemoryPool::total_bytes() const {
  const std::lock_guard lock(state_->mutex);
  return state_->used + state_->cached;
}

std::size_t MemoryPool::n_free_blocks() const {
  const std::lock_guard lock(state_->mutex);
  return state_->n_cached;
}

void MemoryPool::free_all_blocks() {
  const std::lock_guard lock(state_->mutex);
  state_->collect_deferred(/*wait=*/false);
  state_->release_cached_blocks();
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
