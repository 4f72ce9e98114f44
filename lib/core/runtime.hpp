#pragma once
// The runtime of a device type (c10's DeviceGuardImplInterface): device switching, streams, events,
// byte copies and raw memory, one implementation per device type — the CPU's (lib/cpu/cpu_runtime.cpp), CUDA's
// (lib/cuda/cuda_runtime.cpp), found through core/device_registry.hpp, and fakes in tests that log what is asked of
// them, so that the ordering rules of the code above (the access gate in lib/api/array/buffer.cpp, the pool's
// record_stream) are checked on machines without a GPU.
//
// Handles are the native ones (cudaStream_t, cudaEvent_t) as void*; the null stream is nullptr.
// Threading: every member may be called from any thread at the same time. Ownership: whoever
// creates a stream or an event destroys it (Stream and Event do, through shared owners).
// Asynchrony: record_event, block, copy_bytes may return before the work is done on an
// asynchronous runtime; on a host-synchronous one (the CPU's) all work is done when a call returns.
#include <cstddef>
#include <utility>

#include "core/device_guard.hpp"
#include "xp/device.hpp"
#include "xp/memory_pool.hpp"
#include "xp/stream.hpp"

namespace xp::detail {

// The events the library records to order streams: without timing, which is cheaper to record on GPUs.
inline EventOptions ordering_event() noexcept {
  EventOptions options;
  options.timing = false;
  return options;
}

class Runtime : public DeviceGuardImpl {
 public:
  // host_synchronous: see host_synchronous().
  explicit Runtime(bool host_synchronous) noexcept : host_synchronous_(host_synchronous) {}

  // Devices of this type that can be used: 0 when there is no driver or no device.
  virtual int device_count() const noexcept = 0;
  // True when work queued on this runtime's streams is done when the call that queued it returns:
  // its streams need no ordering, and host code may read their results at once. A constant, not a
  // virtual call: every operation asks it.
  bool host_synchronous() const noexcept { return host_synchronous_; }
  virtual void synchronize_device(Device device) = 0;

  // A new stream; its priority clamped to stream_priorities(device).
  virtual void* create_stream(Device device, const StreamOptions& options) = 0;
  // {least, greatest} priority of `device`'s streams.
  virtual std::pair<int, int> stream_priorities(Device device) = 0;
  virtual int stream_priority(Device device, void* stream) = 0;
  // DeviceMismatchError unless `stream`, made elsewhere, belongs to `device` (ExternalStream).
  virtual void check_stream(Device device, void* stream) = 0;
  // fn(data) on a host thread once the work queued on `stream` before it is done; fn must not throw.
  virtual void launch_host_func(Device device, void* stream, void (*fn)(void*), void* data) = 0;
  virtual void destroy_stream(Device device, void* stream) noexcept = 0;
  virtual void synchronize_stream(Device device, void* stream) = 0;
  virtual bool query_stream(Device device, void* stream) = 0;

  virtual void* create_event(Device device, const EventOptions& options) = 0;
  virtual void destroy_event(Device device, void* event) noexcept = 0;
  virtual void record_event(void* event, Device device, void* stream) = 0;
  // Work queued on `stream` after this call waits for `event` (recorded on any stream of this
  // runtime); the host does not wait.
  virtual void block(void* event, Device device, void* stream) = 0;
  virtual bool query_event(Device device, void* event) = 0;
  virtual void synchronize_event(Device device, void* event) = 0;
  virtual float elapsed_ms(Device device, void* start, void* end) = 0;

  // Stream capture (CUDA Graphs): work this thread queues on `stream` between begin_capture and end_capture
  // is recorded, not run; end_capture returns the recording made ready to launch (destroy_graph releases
  // it); abandon_capture ends a capture whose function failed and discards it. Host-synchronous runtimes
  // cannot record (xp::capture replays the function there instead): NotImplementedError.
  virtual void begin_capture(Device device, void* stream) = 0;
  virtual void* end_capture(Device device, void* stream) = 0;
  virtual void abandon_capture(Device device, void* stream) noexcept = 0;
  // Queues one replay of `graph` on `stream`.
  virtual void launch_graph(Device device, void* graph, void* stream) = 0;
  virtual void destroy_graph(Device device, void* graph) noexcept = 0;

  // Contiguous bytes between two devices this runtime reaches (host to host on the CPU; any pair
  // with a GPU on CUDA), queued on `stream` of `stream_device`.
  virtual void copy_bytes(void* dst, const void* src, std::size_t bytes, Device stream_device, void* stream) = 0;

  // Where a device's memory comes from (a pool's upstream), and how much of it there is.
  virtual RawAllocator& raw_allocator(Device device) = 0;
  virtual MemoryInfo memory_info(Device device) = 0;

 private:
  const bool host_synchronous_;
};

}  // namespace xp::detail
