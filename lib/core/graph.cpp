// xp::capture and xp::Graph: a recording made by the device's runtime (CUDA Graphs) and replayed by one
// call, or, where work runs as it is queued (CPUs), the function itself replayed under the same rules.
#include "xp/graph.hpp"

#include <mutex>
#include <unordered_map>
#include <vector>

#include "core/device_registry.hpp"
#include "core/stream_capture.hpp"
#include "xp/detail/exec.hpp"
#include "xp/error.hpp"

namespace xp {

struct Graph::State {
  Stream captured;
  std::function<void()> replayed;  // CPUs: the function run at each launch
  void* recording = nullptr;  // elsewhere: the runtime's executable graph
  std::shared_ptr<detail::GraphMemory> memory;
  std::unordered_map<const void*, std::shared_ptr<void>> kept;
  std::vector<std::weak_ptr<void>> made;
  detail::LaunchGate gate = nullptr;
  mutable std::mutex mutex;
  mutable std::vector<Stream> launched_on;  // guarded by mutex

  State(Stream stream, std::function<void()> fn) : captured(std::move(stream)), replayed(std::move(fn)) {}
  State(detail::CaptureRecording&& done, void* executable)
      : captured(std::move(done.stream)),
        recording(executable),
        memory(std::move(done.memory)),
        kept(std::move(done.kept)),
        made(std::move(done.made)),
        gate(done.gate) {}
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  // A replay still running uses the memory released after this: the host waits for it first.
  ~State() {
    if (!recording) return;
    for (const Stream& stream : launched_on) {
      try {
        stream.synchronize();
      } catch (...) {}
    }
    detail::runtime_for(captured.device()).destroy_graph(captured.device(), recording);
  }

  // A launch on another stream than the last user of the graph's memory waits for it (by an event), and
  // later uses of the memory wait for the launch: the arrays' access gate, as for any operation.
  void order_memory(const detail::Exec& launch) const {
    if (!gate) return;
    for (const auto& [key, buffer] : kept) gate(buffer.get(), launch);
    for (const std::weak_ptr<void>& weak : made)
      if (const std::shared_ptr<void> buffer = weak.lock()) gate(buffer.get(), launch);
  }

  void note_launch(const Stream& stream) const {
    const std::lock_guard lock(mutex);
    for (const Stream& s : launched_on)
      if (s == stream) return;
    launched_on.push_back(stream);
  }
};

namespace {

// Runs `fn` as the capture of `stream` (a runtime that records streams); returns the executable graph.
void* record(detail::Runtime& runtime, detail::CaptureRecording& recording, const std::function<void()>& fn) {
  const Device device = recording.stream.device();
  void* const handle = recording.stream.native_handle();
  const detail::CaptureScope capturing(recording);
  const StreamScope on(recording.stream);
  runtime.begin_capture(device, handle);
  try {
    fn();
  } catch (...) {
    runtime.abandon_capture(device, handle);
    throw;
  }
  return runtime.end_capture(device, handle);
}

}  // namespace

Graph capture(const Stream& stream, std::function<void()> fn) {
  const Device device = stream.device();
  XP_CHECK(fn, ValueError, "xp::capture: the function is empty");
  XP_CHECK(stream.native_handle(), ValueError, "xp::capture: the null stream of ", device,
           " cannot be captured (CUDA's rule): capture a stream made with xp::Stream(", device, ")");
  XP_CHECK(!detail::capture_under_way(), ValueError, "xp::capture: this thread is already capturing a stream of ",
           detail::capture_under_way()->stream.device(), " (one capture per thread at a time)");
  detail::Runtime& runtime = detail::runtime_for(device);
  if (runtime.host_synchronous()) return Graph(std::make_shared<const Graph::State>(stream, std::move(fn)));
  // Work queued before the capture is done before it: the recording need not wait for other streams.
  runtime.synchronize_device(device);
  detail::CaptureRecording recording{
      stream, std::make_shared<detail::GraphMemory>(runtime.raw_allocator(device), device), {}, {}, nullptr};
  void* const executable = record(runtime, recording, fn);
  return Graph(std::make_shared<const Graph::State>(std::move(recording), executable));
}

void Graph::launch(const Stream& stream) const {
  XP_CHECK(state_, ValueError, "Graph::launch: the graph is empty (make one with xp::capture)");
  const Device device = state_->captured.device();
  XP_CHECK(stream.device() == device, DeviceMismatchError, "Graph::launch: the graph was captured on ", device,
           " but the stream is on ", stream.device());
  if (!state_->recording) {
    const detail::CaptureRecording* const outer = detail::capture_under_way();
    XP_CHECK(!outer || outer->forbids_wait_for(device), ValueError, "Graph::launch: a graph of ", device,
             " replays its function, which cannot run while a stream of ", outer->stream.device(), " is captured");
    detail::CaptureRecording replay{stream, nullptr, {}, {}, nullptr};
    const detail::CaptureScope replaying(replay);
    const StreamScope on(stream);
    state_->replayed();
    return;
  }
  state_->order_memory(detail::exec_on(stream));
  detail::runtime_for(device).launch_graph(device, state_->recording, stream.native_handle());
  state_->note_launch(stream);
}

Device Graph::device() const {
  XP_CHECK(state_, ValueError, "Graph::device: the graph is empty (make one with xp::capture)");
  return state_->captured.device();
}

}  // namespace xp
