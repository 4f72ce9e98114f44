#include "xp/stream.hpp"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>

#include "core/device_registry.hpp"
#include "core/stream_capture.hpp"
#include "xp/detail/exec.hpp"
#include "xp/error.hpp"

namespace xp {

namespace {

// The calling thread's innermost StreamScope; each links to the one around it. A list, not a table
// per device: a few bytes of thread-local storage keep the library loadable by dlopen (Python's ctypes),
// whose static TLS reserve a 2 KiB table outgrew. Scopes nest a few deep, so the walk is short.
thread_local const StreamScope* innermost_scope = nullptr;

// StreamScopes alive in any thread: while there are none, every operation is on a null stream and
// reading the current stream costs one load instead of a thread-local lookup. A thread's own scopes
// are always counted in what it reads; other threads' scopes do not concern it.
std::atomic<int> live_scopes{0};

}  // namespace

struct Event::State {
  Device device;
  std::shared_ptr<void> native;
};

Stream::Stream(Device device, bool non_blocking) : Stream(device, StreamOptions{non_blocking, 0}) {}

Stream::Stream(Device device, StreamOptions options) : device_(device) {
  detail::Runtime& runtime = detail::runtime_for(device);
  handle_ = runtime.create_stream(device, options);
  owner_ = std::shared_ptr<void>(handle_, [&runtime, device](void* handle) { runtime.destroy_stream(device, handle); });
}

std::pair<int, int> Stream::priority_range(Device device) {
  return detail::runtime_for(device).stream_priorities(device);
}

int Stream::priority() const { return detail::runtime_for(device_).stream_priority(device_, handle_); }

void Stream::wait_event(const Event& event) const {
  if (!event.state_) return;  // never recorded: nothing to wait for
  detail::Runtime& runtime = detail::runtime_for(device_);
  if (event.state_->device.type() == device_.type() && !runtime.host_synchronous())
    runtime.block(event.state_->native.get(), device_, handle_);
  else event.synchronize();  // the stream's work runs as it is queued, or the event is another runtime's
}

namespace {
// Runs and frees a function queued by launch_host_func. Under CUDA's thread an exception has nowhere
// to go: it ends the program, saying so.
void run_host_function(void* data) {
  const std::unique_ptr<std::function<void()>> fn(static_cast<std::function<void()>*>(data));
  (*fn)();
}
void run_host_function_noexcept(void* data) noexcept {
  try {
    run_host_function(data);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "xparray: a function given to Stream::launch_host_func threw: %s\n", e.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "xparray: a function given to Stream::launch_host_func threw\n");
    std::abort();
  }
}
}  // namespace

void Stream::launch_host_func(std::function<void()> fn) const {
  detail::Runtime& runtime = detail::runtime_for(device_);
  auto queued = std::make_unique<std::function<void()>>(std::move(fn));
  if (runtime.host_synchronous()) {  // at once, here: its exceptions reach the caller
    run_host_function(queued.release());
    return;
  }
  runtime.launch_host_func(device_, handle_, run_host_function_noexcept, queued.get());
  queued.release();  // the host function frees it
}

ExternalStream::ExternalStream(void* handle, Device device) : Stream(device, handle, nullptr) {
  XP_CHECK(handle != nullptr, ValueError, "ExternalStream: the handle is null (use Stream::null(", device, "))");
  detail::runtime_for(device).check_stream(device, handle);
}

void Stream::synchronize() const {
  detail::check_no_wait_in_capture(device_, "Stream::synchronize");
  detail::runtime_for(device_).synchronize_stream(device_, handle_);
}

bool Stream::done() const { return detail::runtime_for(device_).query_stream(device_, handle_); }

Stream current_stream(Device device) {
  const Stream* const current = detail::scoped_stream(device);
  return current ? *current : Stream::null(device);
}

const Stream* detail::scoped_stream(Device device) noexcept {
  return live_scopes.load(std::memory_order_relaxed) == 0 ? nullptr : StreamScope::innermost(device);
}

const Stream* StreamScope::innermost(Device device) noexcept {
  for (const StreamScope* scope = innermost_scope; scope; scope = scope->outer_)
    if (scope->stream_.device() == device) return &scope->stream_;
  return nullptr;
}

StreamScope::StreamScope(Stream stream) noexcept : stream_(std::move(stream)), outer_(innermost_scope) {
  innermost_scope = this;
  live_scopes.fetch_add(1, std::memory_order_relaxed);
}

StreamScope::~StreamScope() {
  innermost_scope = outer_;
  live_scopes.fetch_sub(1, std::memory_order_relaxed);
}

Event::Event(EventOptions options) : options_(options) {
  XP_CHECK(!options.interprocess || !options.timing, ValueError,
           "Event: timing must be disabled for interprocess events (.timing = false)");
}

void Event::record(const Stream& stream) {
  detail::Runtime& runtime = detail::runtime_for(stream.device());
  if (!state_ || state_->device != stream.device()) {
    const Device device = stream.device();
    void* const native = runtime.create_event(device, options_);
    state_ = std::make_shared<State>(State{
        device, std::shared_ptr<void>(native, [&runtime, device](void* e) { runtime.destroy_event(device, e); })});
  }
  runtime.record_event(state_->native.get(), stream.device(), stream.native_handle());
}

void Event::synchronize() const {
  XP_CHECK(state_, ValueError, "Event::synchronize: the event has not been recorded");
  detail::check_no_wait_in_capture(state_->device, "Event::synchronize");
  detail::runtime_for(state_->device).synchronize_event(state_->device, state_->native.get());
}

bool Event::done() const {
  // An event that was never recorded has nothing to wait for (as in CUDA).
  return !state_ || detail::runtime_for(state_->device).query_event(state_->device, state_->native.get());
}

Device Event::device() const {
  XP_CHECK(state_, ValueError, "Event::device: the event has not been recorded");
  return state_->device;
}

float elapsed_time(const Event& start, const Event& end) {
  XP_CHECK(start.state_ && end.state_, ValueError, "elapsed_time: both events must be recorded first");
  XP_CHECK(start.state_->device == end.state_->device, DeviceMismatchError, "elapsed_time: the start event is on ",
           start.state_->device, " but the end event is on ", end.state_->device);
  XP_CHECK(start.options_.timing && end.options_.timing, ValueError,
           "elapsed_time: both events must be made with timing (EventOptions::timing)");
  const Device device = start.state_->device;
  return detail::runtime_for(device).elapsed_ms(device, start.state_->native.get(), end.state_->native.get());
}

}  // namespace xp
