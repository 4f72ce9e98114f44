#include "xp/stream.hpp"

#include "api/backends.hpp"
#include "xp/error.hpp"

namespace xp {

Stream::Stream(Device device, void* handle, std::shared_ptr<void> owner) noexcept
    : device_(device), handle_(handle), owner_(std::move(owner)) {}

Stream Stream::null(Device device) { return Stream(device, nullptr, nullptr); }

Stream::Stream(Device device, bool non_blocking) : device_(device) {
  detail::Backend& backend = detail::backend_for(device);
  handle_ = backend.create_stream(device, non_blocking);
  owner_ = std::shared_ptr<void>(handle_, [&backend, device](void* handle) {
    backend.destroy_stream(device, handle);
  });
}

void Stream::synchronize() const { detail::backend_for(device_).synchronize_stream(*this); }

bool Stream::done() const { return detail::backend_for(device_).query_stream(*this); }

struct Event::State {
  Device device;
  std::shared_ptr<void> native;
};

void Event::record(const Stream& stream) {
  detail::Backend& backend = detail::backend_for(stream.device());
  if (!state_ || state_->device != stream.device())
    state_ = std::make_shared<State>(State{stream.device(), backend.create_event(stream.device())});
  backend.record_event(state_->native.get(), stream);
}

void Event::synchronize() const {
  XP_CHECK(state_, ValueError, "Event::synchronize: the event has not been recorded");
  detail::backend_for(state_->device).synchronize_event(state_->device, state_->native.get());
}

bool Event::done() const {
  // An event that was never recorded has nothing to wait for (as in CUDA).
  return !state_ || detail::backend_for(state_->device).query_event(state_->device, state_->native.get());
}

Device Event::device() const {
  XP_CHECK(state_, ValueError, "Event::device: the event has not been recorded");
  return state_->device;
}

float elapsed_time(const Event& start, const Event& end) {
  XP_CHECK(start.state_ && end.state_, ValueError,
           "elapsed_time: both events must be recorded first");
  XP_CHECK(start.state_->device == end.state_->device, DeviceMismatchError,
           "elapsed_time: the start event is on ", start.state_->device,
           " but the end event is on ", end.state_->device);
  const Device device = start.state_->device;
  return detail::backend_for(device).elapsed_ms(device, start.state_->native.get(),
                                                end.state_->native.get());
}

}  // namespace xp
