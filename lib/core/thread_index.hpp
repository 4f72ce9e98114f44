#pragma once
// A small dense index for each live thread (0, 1, 2, ...; reused once its thread has exited), so
// that an object can keep per-thread state in an array of its own and reach it without a lock or a
// hash lookup. Objects that keep such state listen for thread exits to drop it.
namespace xp::detail {

constexpr int kMaxIndexedThreads = 256;

class ThreadExitListener {
 public:
  // Called on the exiting thread before `index` is reused; listeners are called one at a time.
  virtual void on_thread_exit(int index) noexcept = 0;

 protected:
  ~ThreadExitListener() = default;
};

// Both take the registry's lock, so a listener is never called after its removal has returned.
// Never call them while holding a lock that on_thread_exit takes.
void add_thread_exit_listener(ThreadExitListener& listener);
void remove_thread_exit_listener(ThreadExitListener& listener);

// The index slot: index + 1, 0 before the first call, kNoIndex past the limit or once the thread
// has started exiting (its index may then belong to another thread).
inline constexpr int kNoIndex = -1;
inline thread_local int this_thread_index_plus_one = 0;
int register_this_thread() noexcept;

// This thread's index, or -1 (more than kMaxIndexedThreads threads live, or this one is exiting).
inline int this_thread_index() noexcept {
  const int slot = this_thread_index_plus_one;
  if (slot > 0) return slot - 1;
  return slot == 0 ? register_this_thread() : -1;
}

}  // namespace xp::detail
