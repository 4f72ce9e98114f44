#include "api/buffer.hpp"

namespace xp::detail {

void Buffer::set_pending(Event done) {
  const std::lock_guard lock(mutex_);
  pending_ = std::move(done);
  has_pending_.store(true, std::memory_order_release);
}

void Buffer::wait_pending() {
  if (!has_pending_.load(std::memory_order_acquire)) return;
  const std::lock_guard lock(mutex_);
  if (pending_) {
    pending_->synchronize();
    pending_.reset();
  }
  has_pending_.store(false, std::memory_order_release);
}

}  // namespace xp::detail
