#pragma once
/// \file
/// Streams and events (CuPy's cupy.cuda.Stream / Event), and the current stream of each device.
///
/// A Stream is a value: a device plus a native handle (a cudaStream_t on GPUs). Copies share one
/// underlying stream, which is destroyed with the last copy; Stream::null(d) is the device's default
/// stream and owns nothing. A stream belongs to one device: using it with an array of another device
/// is a DeviceMismatchError.
///
/// CPU streams execute their work in order on the calling thread, so their work is done when the call
/// returns: synchronize() returns at once and done() is true. Events recorded on them still take the
/// time, so elapsed_time works the same on every device.
///
/// Every operation runs on the current stream of its operands' device in the calling thread: the
/// stream of the innermost StreamScope for that device, else the device's null stream. An operation
/// that uses memory last used on another stream first makes its stream wait for that one (an event,
/// not a host wait); host code that reads memory a GPU stream still uses waits for that stream.
#include <functional>
#include <memory>
#include <utility>

#include "xp/device.hpp"
#include "xp/export.hpp"

namespace xp {

class Event;

/// How a new stream is made (CuPy's Stream(non_blocking, priority)).
struct XP_API StreamOptions {
  bool non_blocking = false;  ///< it does not wait for the null stream (cudaStreamNonBlocking)
  /// Lower is more urgent, as CUDA's; clamped to Stream::priority_range(device) (CPUs: 0).
  int priority = 0;
};

/// A queue of work on one device, in order (a cudaStream_t on GPUs); copies share the underlying stream.
class XP_API Stream {
 public:
  /// The device's default stream, which owns nothing.
  static Stream null(Device device) noexcept { return Stream(device, nullptr, nullptr); }
  /// A new stream on `device`; non_blocking: it does not wait for the null stream (cudaStreamNonBlocking).
  explicit Stream(Device device, bool non_blocking = false);
  /// A new stream with options: `xp::Stream(xp::gpu(0), {.priority = -1})`.
  Stream(Device device, StreamOptions options);

  /// The priorities streams of `device` can have: {least, greatest} urgency (CUDA's
  /// cudaDeviceGetStreamPriorityRange, e.g. {0, -5}; {0, 0} on CPUs).
  static std::pair<int, int> priority_range(Device device);
  /// The stream's priority, as clamped (0 for the null stream and on CPUs).
  int priority() const;
  /// Work queued on this stream after the call waits for the work before `event`'s record; the host does
  /// not wait. An event never recorded is passed at once (CUDA's rule); one of another kind of device
  /// (a CPU event for a GPU stream, or the reverse) is waited for by the host.
  void wait_event(const Event& event) const;
  /// Queues `fn` to run on a host thread once the work queued before it is done (cudaLaunchHostFunc; on
  /// CPUs it runs at once, in the calling thread). On a GPU it must not throw or call into CUDA (CUDA's
  /// rule for host functions): an exception from it ends the program with its message.
  void launch_host_func(std::function<void()> fn) const;

  /// Waits until the stream's queued work is done.
  void synchronize() const;
  /// Whether the stream's queued work is done (without waiting).
  bool done() const;
  Device device() const noexcept { return device_; }  ///< the device the stream belongs to
  /// cudaStream_t on GPUs (nullptr for the null stream); on CPUs an identity token.
  void* native_handle() const noexcept { return handle_; }

  /// The same underlying stream.
  friend bool operator==(const Stream& a, const Stream& b) noexcept {
    return a.device_ == b.device_ && a.handle_ == b.handle_;
  }

 protected:
  /// A stream of `handle` (null: the null stream), destroyed with the last copy of `owner` (none: never).
  Stream(Device device, void* handle, std::shared_ptr<void> owner) noexcept
      : device_(device), handle_(handle), owner_(std::move(owner)) {}

 private:
  Device device_;
  void* handle_ = nullptr;
  std::shared_ptr<void> owner_;
};

/// A stream someone else made and owns (CuPy's ExternalStream): a cudaStream_t from another library used
/// as any Stream (StreamScope, Event::record, wait_event). The library never destroys it: it must outlive
/// its uses here. A GPU stream of another device than `device` is a DeviceMismatchError.
class XP_API ExternalStream : public Stream {
 public:
  /// `handle`: a cudaStream_t of `device` (on CPUs any non-null token).
  ExternalStream(void* handle, Device device);
};

/// How an event is made (CuPy's Event(block, disable_timing, interprocess); CUDA's event flags).
struct XP_API EventOptions {
  bool timing = true;  ///< it can measure elapsed_time (recording it costs more on GPUs)
  bool blocking = false;  ///< a host waiting for it sleeps instead of spinning (cudaEventBlockingSync)
  /// Another process may open it (cudaEventInterprocess); timing must be off (ValueError otherwise).
  bool interprocess = false;
};

/// A point in a stream's work, for waiting on and for timing (CuPy's Event).
class XP_API Event {
 public:
  Event() = default;  ///< not recorded yet; takes its device from the first stream it is recorded on
  /// An event made with `options` at its first record: `xp::Event({.timing = false})`.
  explicit Event(EventOptions options);

  /// Marks the current end of `stream`'s work.
  void record(const Stream& stream);
  /// Waits until the work before the record is done.
  void synchronize() const;
  /// Whether the work before the record is done (without waiting).
  bool done() const;
  bool recorded() const noexcept { return state_ != nullptr; }  ///< record has been called
  /// The device of the stream it was recorded on (ValueError before the first record).
  Device device() const;

  const EventOptions& options() const noexcept { return options_; }  ///< as made

 private:
  friend float elapsed_time(const Event& start, const Event& end);
  friend class Stream;
  struct State;
  EventOptions options_;
  std::shared_ptr<State> state_;
};

/// Milliseconds from start to end; both must be recorded on the same device, and made with timing.
XP_API float elapsed_time(const Event& start, const Event& end);

/// The calling thread's current stream of `device`: Stream::null(device) unless a StreamScope says
/// otherwise.
XP_API Stream current_stream(Device device);

/// RAII: makes `stream` the current stream of its device for the calling thread until the scope
/// ends, then restores the previous one (CuPy's `with stream:`, c10's CUDAStreamGuard). Scopes nest
/// and must end in reverse order, as blocks do; other devices' current streams and the current
/// device are left alone.
class XP_API StreamScope {
 public:
  /// Makes `stream` current for its device until the scope ends.
  explicit StreamScope(Stream stream) noexcept;
  ~StreamScope();
  StreamScope(const StreamScope&) = delete;
  StreamScope& operator=(const StreamScope&) = delete;

  /// The stream of the calling thread's innermost scope for `device`, or null when it has none.
  static const Stream* innermost(Device device) noexcept;

 private:
  Stream stream_;
  const StreamScope* outer_;  ///< the thread's scope around this one, of any device
};

}  // namespace xp
