#pragma once
// The runtime of a device type (c10's DeviceGuardImplInterface): device switching, streams, events
// and byte copies, one implementation per device type — the CPU's (lib/cpu/cpu_runtime.cpp), CUDA's
// (lib/cuda/cuda_runtime.cpp), and fakes in tests that log what is asked of them, so that the
// ordering rules of the code above (the access gate in lib/api/array/buffer.cpp, the pool's record_stream) are checked
// on machines without a GPU.
//
// Handles are the native ones (cudaStream_t, cudaEvent_t) as void*; the null stream is nullptr.
// Threading: every member may be called from any thread at the same time. Ownership: whoever
// creates a stream or an event destroys it (Stream and Event do, through shared owners).
// Asynchrony: record_event, block, copy_bytes may return before the work is done on an
// asynchronous runtime; on a host-synchronous one (the CPU's) all work is done when a call returns.
#include <array>
#include <atomic>
#include <cstddef>

#include "core/device_guard.hpp"
#include "xp/device.hpp"

namespace xp::detail {

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

  virtual void* create_stream(Device device, bool non_blocking) = 0;
  virtual void destroy_stream(Device device, void* stream) noexcept = 0;
  virtual void synchronize_stream(Device device, void* stream) = 0;
  virtual bool query_stream(Device device, void* stream) = 0;

  // timing: the event can measure elapsed time (costlier to record on GPUs).
  virtual void* create_event(Device device, bool timing) = 0;
  virtual void destroy_event(Device device, void* event) noexcept = 0;
  virtual void record_event(void* event, Device device, void* stream) = 0;
  // Work queued on `stream` after this call waits for `event` (recorded on any stream of this
  // runtime); the host does not wait.
  virtual void block(void* event, Device device, void* stream) = 0;
  virtual bool query_event(Device device, void* event) = 0;
  virtual void synchronize_event(Device device, void* event) = 0;
  virtual float elapsed_ms(Device device, void* start, void* end) = 0;

  // Contiguous bytes between two devices this runtime reaches (host to host on the CPU; any pair
  // with a GPU on CUDA), queued on `stream` of `stream_device`.
  virtual void copy_bytes(void* dst, const void* src, std::size_t bytes, Device stream_device, void* stream) = 0;

 private:
  const bool host_synchronous_;
};

namespace runtime_registry {
// Indexed by DeviceType; read on every operation, hence inline.
inline std::array<std::atomic<Runtime*>, 4> runtimes{};
[[noreturn]] void throw_missing(Device device);
}  // namespace runtime_registry

// The runtime of a device's type; NotImplementedError for a GPU in a build without CUDA.
inline Runtime& runtime_for(Device device) {
  Runtime* const runtime =
      runtime_registry::runtimes[static_cast<std::size_t>(device.type())].load(std::memory_order_acquire);
  if (runtime == nullptr) [[unlikely]]
    runtime_registry::throw_missing(device);
  return *runtime;
}
// Installs `runtime` for `type` (lib/api registers the real ones at load time; tests install
// fakes) and returns the one it replaces, or nullptr.
Runtime* set_runtime(DeviceType type, Runtime* runtime) noexcept;

// A fake installed for the life of a scope, then the previous runtime again.
class ScopedRuntime {
 public:
  ScopedRuntime(DeviceType type, Runtime& runtime) noexcept : type_(type), previous_(set_runtime(type, &runtime)) {}
  ~ScopedRuntime() { set_runtime(type_, previous_); }
  ScopedRuntime(const ScopedRuntime&) = delete;
  ScopedRuntime& operator=(const ScopedRuntime&) = delete;

 private:
  DeviceType type_;
  Runtime* previous_;
};

}  // namespace xp::detail
