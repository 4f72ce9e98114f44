#pragma once
// The bound on xp::dist's waits. A blocking MPI call cannot be abandoned, so a thread of its own looks
// at the call in progress a few times a second; one that has run past the limit (another rank died,
// finished early, or called something else) ends the process with a message naming the call, its
// number, the rank and the limit. A call costs two atomic stores: nothing is formatted unless it
// times out.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace xp::dist::detail {

struct CallDescription {
  const char* call = "";  // "MPI_Allreduce"
  std::int64_t count = 0;  // elements
  int dtype = 0;  // xp::dtype
  int device_type = 0;  // xp::DeviceType of the arrays
};

class Watchdog {
 public:
  Watchdog(int rank, int size, std::chrono::duration<double> limit);
  ~Watchdog();
  Watchdog(const Watchdog&) = delete;
  Watchdog& operator=(const Watchdog&) = delete;

  void set_limit(std::chrono::duration<double> limit) noexcept;
  std::chrono::duration<double> limit() const noexcept;

  // Marks the calling thread's call as in progress until the guard ends. Calls do not overlap (they
  // run under xp::dist's lock).
  class Guard {
   public:
    Guard(Watchdog& watchdog, const CallDescription& call) noexcept;
    ~Guard();
    Guard(const Guard&) = delete;
    Guard& operator=(const Guard&) = delete;

   private:
    Watchdog& watchdog_;
  };

 private:
  void watch();
  [[noreturn]] void expire(const CallDescription& call, std::uint64_t number, double seconds) const;

  const int rank_, size_;
  std::atomic<double> limit_seconds_;
  std::atomic<std::int64_t> started_ns_{0};  // 0: no call in progress
  std::atomic<std::uint64_t> calls_{0};
  std::atomic<const char*> call_{""};
  std::atomic<std::int64_t> count_{0};
  std::atomic<int> dtype_{0}, device_type_{0};
  std::mutex mutex_;
  std::condition_variable stop_requested_;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace xp::dist::detail
