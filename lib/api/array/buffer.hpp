#pragma once
// The memory behind arrays: one pooled allocation shared by every view of it, and the stream that
// used it last.
#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

#include "xp/detail/exec.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

struct Buffer {
  explicit Buffer(Allocation allocation) : memory(std::move(allocation)) {}
  // Memory another framework owns (DLPack): `owner` is released when the buffer is, after the last
  // stream that used the memory has passed its work.
  explicit Buffer(std::shared_ptr<void> owner) : external_owner(std::move(owner)) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  Allocation memory;  // empty for memory another framework owns
  std::shared_ptr<void> external_owner;

  // The access gate: every use of the memory passes it first, with the context that will use it.
  // Work queued on an asynchronous stream waits (by an event, not on the host) for the stream that
  // used the memory last when that is another one; host work waits on the host. Uses from
  // different streams are so ordered one after another, which also covers writes after reads.
  // Inline: host work on memory no stream is using, the usual case, is one load.
  void order_access(const Exec& exec) {
    if (!exec.asynchronous && !last_key_.load(std::memory_order_acquire)) return;
    order_access_slow(exec);
  }

 private:
  void order_access_slow(const Exec& exec);

  // Identifies the last stream while one may still be using the memory: its handle, or for a null
  // stream an address standing for its device. Null when no stream may be using it.
  std::atomic<const void*> last_key_{nullptr};
  std::mutex mutex_;
  std::optional<Stream> last_;  // guarded by mutex_
};

// A token identifying a stream, for Buffer's fast path.
const void* stream_key(const Stream& stream) noexcept;

}  // namespace xp::detail
