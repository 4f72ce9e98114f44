#pragma once
// A lock for short critical sections: taking it is one atomic exchange and releasing it a plain
// store, where std::mutex pays an atomic read-modify-write for each. A waiter yields its core
// instead of spinning, so a holder that runs long (a raw allocation) does not starve it.
#include <atomic>
#include <thread>

namespace xp::detail {

class SpinLock {
 public:
  void lock() noexcept {
    while (locked_.exchange(true, std::memory_order_acquire))
      while (locked_.load(std::memory_order_relaxed)) std::this_thread::yield();
  }
  void unlock() noexcept { locked_.store(false, std::memory_order_release); }

 private:
  std::atomic<bool> locked_{false};
};

}  // namespace xp::detail
