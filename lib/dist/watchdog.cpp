#include "dist/watchdog.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "xp/device.hpp"
#include "xp/dist.hpp"
#include "xp/dtype.hpp"

namespace xp::dist::detail {

namespace {

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

Watchdog::Watchdog(int rank, int size, std::chrono::duration<double> limit)
    : rank_(rank), size_(size), limit_seconds_(limit.count()), thread_([this] { watch(); }) {}

Watchdog::~Watchdog() {
  {
    const std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_requested_.notify_one();
  thread_.join();
}

void Watchdog::set_limit(std::chrono::duration<double> limit) noexcept { limit_seconds_ = limit.count(); }

std::chrono::duration<double> Watchdog::limit() const noexcept {
  return std::chrono::duration<double>(limit_seconds_.load());
}

Watchdog::Guard::Guard(Watchdog& watchdog, const CallDescription& call) noexcept : watchdog_(watchdog) {
  watchdog_.call_.store(call.call, std::memory_order_relaxed);
  watchdog_.count_.store(call.count, std::memory_order_relaxed);
  watchdog_.dtype_.store(call.dtype, std::memory_order_relaxed);
  watchdog_.device_type_.store(call.device_type, std::memory_order_relaxed);
  watchdog_.calls_.fetch_add(1, std::memory_order_relaxed);
  watchdog_.started_ns_.store(now_ns(), std::memory_order_release);
}

Watchdog::Guard::~Guard() { watchdog_.started_ns_.store(0, std::memory_order_release); }

void Watchdog::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    // A few looks per limit, at most 4 a second: the process ends within 1.25 limits of a stuck call.
    const double period = std::clamp(limit_seconds_.load() / 4, 0.01, 0.25);
    stop_requested_.wait_for(lock, std::chrono::duration<double>(period), [this] { return stopping_; });
    if (stopping_) break;
    const std::int64_t started = started_ns_.load(std::memory_order_acquire);
    if (started == 0) continue;
    const double seconds = static_cast<double>(now_ns() - started) * 1e-9;
    if (seconds <= limit_seconds_.load()) continue;
    const CallDescription call{call_.load(std::memory_order_relaxed), count_.load(std::memory_order_relaxed),
                               dtype_.load(std::memory_order_relaxed), device_type_.load(std::memory_order_relaxed)};
    const std::uint64_t number = calls_.load(std::memory_order_relaxed);
    // Still the same call (it did not end while we read it)?
    if (started_ns_.load(std::memory_order_acquire) == started) expire(call, number, seconds);
  }
}

void Watchdog::expire(const CallDescription& call, std::uint64_t number, double seconds) const {
  std::ostringstream message;
  message << "xp::dist: rank " << rank_ << " of " << size_ << ": " << call.call << " (call " << number
          << " of this process";
  if (call.count > 0)
    message << ", " << call.count << " " << static_cast<xp::dtype>(call.dtype) << " on "
            << (call.device_type == static_cast<int>(DeviceType::gpu) ? "a GPU" : "the host");
  message << ") did not complete within " << limit_seconds_.load() << " s (waited " << seconds
          << " s): another rank died, finished early, or made a different call. Ending this process (exit status "
          << kTimeoutExitStatus << ").\n";
  const std::string text = message.str();
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
  std::_Exit(kTimeoutExitStatus);
}

}  // namespace xp::dist::detail
