#include "api/array/buffer.hpp"

#include "core/device_registry.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

// One address per device, standing for its null stream.
char null_streams[4][Device::kMaxDeviceId];

}  // namespace

const void* stream_key(const Stream& stream) noexcept {
  if (stream.native_handle()) return stream.native_handle();
  return &null_streams[static_cast<int>(stream.device().type())][stream.device().id()];
}

Buffer::~Buffer() {
  // Another framework frees its memory as soon as it is released: wait for the last stream first.
  if (last_ && external_owner) {
    try {
      last_->synchronize();
    } catch (...) {}
  }
  // A stream other than the allocating one may still be using the memory: the pool must not hand
  // it out again before that stream has passed its work.
  if (last_ && memory.pool()) {
    try {
      memory.pool()->record_stream(memory, *last_);
    } catch (...) {
      // record_stream fails only before it has noted the stream: wait for it instead.
      try {
        last_->synchronize();
      } catch (...) {}
    }
  }
}

void order_for_launch(void* buffer, const Exec& launch) { static_cast<Buffer*>(buffer)->order_access(launch); }

bool Buffer::ordered_for_capture(const Exec& exec, CaptureRecording& capture) {
  const std::lock_guard lock(mutex_);
  if (capture.records(exec)) {
    if (graph_memory.get() != capture.memory.get()) {
      capture.kept.try_emplace(this, shared_from_this());
      capture.gate = order_for_launch;
    }
    last_ = exec.stream;
    last_key_.store(stream_key(exec.stream), std::memory_order_release);
    return true;
  }
  XP_CHECK(!(last_ && *last_ == capture.stream), ValueError, "an array the capture of a stream of ",
           capture.stream.device(), " uses is used ", exec.asynchronous ? "on another stream" : "by the host",
           " before the capture ends (xp::capture: the capture does not run its work)");
  XP_CHECK(!exec.asynchronous || !capture.forbids_wait_for(exec.device), ValueError,
           "xp::capture records one stream: work on another stream of ", exec.device, " during the capture");
  return false;
}

void Buffer::order_access_slow(const Exec& exec) {
  if (CaptureRecording* const capture = capture_under_way(); capture && capture->memory)
    if (ordered_for_capture(exec, *capture)) return;
  const void* last = last_key_.load(std::memory_order_acquire);
  if (last && exec.asynchronous && last == stream_key(exec.stream)) return;  // the same stream
  const std::lock_guard lock(mutex_);
  if (last_ && !(*last_ == exec.stream)) {
    const Device device = last_->device();
    Runtime& last_runtime = runtime_for(device);
    if (exec.asynchronous && &last_runtime == &runtime_for(exec.device)) {
      void* const event = last_runtime.create_event(device, ordering_event());
      try {
        last_runtime.record_event(event, device, last_->native_handle());
        last_runtime.block(event, exec.device, exec.stream.native_handle());
      } catch (...) {
        last_runtime.destroy_event(device, event);
        throw;
      }
      last_runtime.destroy_event(device, event);  // released once the wait has passed it
    } else {
      last_->synchronize();
    }
  }
  if (exec.asynchronous) {
    last_ = exec.stream;
    last_key_.store(stream_key(exec.stream), std::memory_order_release);
  } else {
    last_.reset();
    last_key_.store(nullptr, std::memory_order_release);
  }
}

}  // namespace xp::detail
