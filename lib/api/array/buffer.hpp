#pragma once
// The memory behind arrays: one pooled allocation shared by every view of it, and the stream that
// used it last.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>

#include "core/stream_capture.hpp"
#include "xp/detail/exec.hpp"
#include "xp/memory_pool.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

struct Buffer : std::enable_shared_from_this<Buffer> {
  explicit Buffer(Allocation allocation) : memory(std::move(allocation)) {}
  // Memory of a graph's own pool (made during xp::capture), which `pool_owner` keeps.
  Buffer(Allocation allocation, std::shared_ptr<void> pool_owner)
      : graph_memory(std::move(pool_owner)), memory(std::move(allocation)) {}
  // Memory another framework owns (DLPack): `owner` is released when the buffer is, after the last
  // stream that used the memory has passed its work.
  explicit Buffer(std::shared_ptr<void> owner) : external_owner(std::move(owner)) {}
  ~Buffer();
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  std::shared_ptr<void> graph_memory;  // declared before memory: the pool outlives the block
  Allocation memory;  // empty for memory another framework owns
  std::shared_ptr<void> external_owner;

  // How many operations have written into the memory after making it (note_write): autograd keeps the
  // count of what it saved and of what a recorded write left, and compares.
  std::atomic<std::uint64_t> writes{0};
  // A recorded write (a.at(i) = v while recording) went into the memory: arrays over it without that
  // write's autograd state hold values their history does not explain.
  std::atomic<bool> recorded_write{false};

  // The access gate: every use of the memory passes it first, with the context that will use it.
  // Work queued on an asynchronous stream waits (by an event, not on the host) for the stream that
  // used the memory last when that is another one; host work waits on the host. Uses from
  // different streams are so ordered one after another, which also covers writes after reads.
  // Inline: host work on memory no stream is using, the usual case, is one load.
  // While this thread captures a stream (xp::capture), the capture keeps the memory it uses; work queued
  // before it is done (the capture began with the device's), so the capture waits for no other stream;
  // and memory the capture used last is for the capture alone until it ends (ValueError).
  void order_access(const Exec& exec) {
    if (!exec.asynchronous && !last_key_.load(std::memory_order_acquire)) return;
    order_access_slow(exec);
  }

 private:
  void order_access_slow(const Exec& exec);
  // The access gate while `capture` is under way on this thread; false: the usual rules apply.
  bool ordered_for_capture(const Exec& exec, CaptureRecording& capture);

  // Identifies the last stream while one may still be using the memory: its handle, or for a null
  // stream an address standing for its device. Null when no stream may be using it.
  std::atomic<const void*> last_key_{nullptr};
  std::mutex mutex_;
  std::optional<Stream> last_;  // guarded by mutex_
};

// Counts a write into `a`'s memory: every operation that writes into an existing array calls it.
inline void note_write(const ArrayCore& a) noexcept {
  if (Buffer* buffer = ArrayInternals::buffer(a).get()) buffer->writes.fetch_add(1, std::memory_order_relaxed);
}

// The access gate of `buffer` (a Buffer) for a graph's launch on `launch`'s stream (CaptureRecording::gate).
void order_for_launch(void* buffer, const Exec& launch);

// A token identifying a stream, for Buffer's fast path.
const void* stream_key(const Stream& stream) noexcept;

}  // namespace xp::detail
