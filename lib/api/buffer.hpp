#pragma once
// The memory behind arrays: one pooled allocation shared by every view of it.
#include <atomic>
#include <mutex>
#include <optional>

#include "xp/memory_pool.hpp"
#include "xp/stream.hpp"

namespace xp::detail {

struct Buffer {
  explicit Buffer(Allocation allocation) : memory(std::move(allocation)) {}

  Allocation memory;

  // A cpu_pinned buffer that an asynchronous GPU copy reads or writes must not be touched by the
  // host until the copy is done: the copy leaves its completion here, and host access waits for it.
  void set_pending(Event done);
  void wait_pending();

 private:
  std::atomic<bool> has_pending_{false};
  std::mutex mutex_;
  std::optional<Event> pending_;
};

}  // namespace xp::detail
