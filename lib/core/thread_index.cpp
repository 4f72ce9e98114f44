#include "core/thread_index.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace xp::detail {

namespace {

struct Registry {
  Registry() { free_indices.reserve(kMaxIndexedThreads); }  // exits never allocate
  std::mutex mutex;
  std::vector<ThreadExitListener*> listeners;
  std::vector<int> free_indices;  // handed out from the back, lowest first
  int next_index = 0;
};

// Never destroyed: threads may exit after static destruction has begun.
Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

// Its destructor runs at the thread's exit: listeners drop their state for the index, then the
// index is freed for another thread.
struct IndexHolder {
  int index;
  ~IndexHolder() {
    this_thread_index_plus_one = kNoIndex;
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    for (ThreadExitListener* listener : r.listeners) listener->on_thread_exit(index);
    r.free_indices.push_back(index);
    std::sort(r.free_indices.begin(), r.free_indices.end(), std::greater<>());
  }
};

}  // namespace

void add_thread_exit_listener(ThreadExitListener& listener) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  r.listeners.push_back(&listener);
}

void remove_thread_exit_listener(ThreadExitListener& listener) {
  Registry& r = registry();
  const std::lock_guard lock(r.mutex);
  std::erase(r.listeners, &listener);
}

int register_this_thread() noexcept {
  int index;
  {
    Registry& r = registry();
    const std::lock_guard lock(r.mutex);
    if (!r.free_indices.empty()) {
      index = r.free_indices.back();
      r.free_indices.pop_back();
    } else if (r.next_index < kMaxIndexedThreads) {
      index = r.next_index++;
    } else {
      this_thread_index_plus_one = kNoIndex;
      return -1;
    }
  }
  thread_local IndexHolder holder{index};
  this_thread_index_plus_one = index + 1;
  return index;
}

}  // namespace xp::detail
