#pragma once
/// \file
/// Recording a step once and replaying it (CUDA Graphs; CuPy's Stream.begin_capture, PyTorch's CUDAGraph; API §15):
///
/// \code{.cpp}
///   xp::Stream stream(xp::gpu(0));
///   auto x = xp::zeros<float>({n}, xp::gpu(0));                        // inputs are made before the capture
///   xp::ndarray<float> y;
///   xp::Graph step = xp::capture(stream, [&] { y = xp::exp(x + 2.0f) * x; });
///   batch.copyto(x);  step.launch(stream);  stream.synchronize();       // y holds this batch's result
/// \endcode
///
/// - GPUs: the device is synchronised, then `fn` runs once with `stream` current while CUDA records the work
///   queued on `stream` by this thread into a graph, which is not run; `launch` then replays all of it with one
///   call, on the same memory. Arrays made during the capture take their memory from a pool of the graph's own
///   (PyTorch's rule), kept until the graph and every such array are gone; arrays made before it and used in it
///   are kept alive by the graph. Update inputs in place (copyto, `x[...] = ...`) and read results after a launch.
///   Work queued before the capture on other devices must be done before it (synchronize them).
/// - While a capture records, what would make the host wait for a device of the captured kind is a
///   ValueError naming it, raised before the wait: item, to_vector and copies to host memory,
///   nonzero, unique, compress and boolean-mask indexing (their sizes come from the device), take and
///   indexing with mode "raise", Stream/Event/Device synchronize, free_all_blocks. So is work on another
///   stream of that device, using the capture's arrays elsewhere before it ends (it has not run them), a copy
///   from pageable host memory (the graph would replay a staging buffer's contents), and a matmul over
///   broadcast batch axes (its pointer table is such a copy).
/// - CPUs run work as it is queued, so there is nothing to record: `capture` keeps `fn`, and each `launch`
///   runs it again with `stream` current, under the same checks (a host wait inside it is the same
///   ValueError, at the launch). Variables `fn` assigns are assigned again at each launch rather than
///   updated in place, so read results through them, as on GPUs.
#include <functional>
#include <memory>
#include <utility>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/stream.hpp"

namespace xp {

class Graph;

/// Records the work `fn` queues on `stream` (a stream made with xp::Stream, not a null stream: CUDA cannot
/// capture those; ValueError otherwise) into a Graph. Exceptions from `fn` end the capture and propagate.
/// One capture per thread at a time.
XP_API Graph capture(const Stream& stream, std::function<void()> fn);

/// A recorded step: replayed by launch. Copies share one recording.
class XP_API Graph {
 public:
  Graph() = default;  ///< empty: launch is a ValueError
  /// Replays the recording on `stream`, a stream of the captured device (DeviceMismatchError otherwise);
  /// the host does not wait. As an operation, it waits (by events) for the streams that last used the
  /// graph's arrays, and later uses of them wait for it. Launches of one graph run one after the other.
  void launch(const Stream& stream) const;
  Device device() const;  ///< the device whose stream was captured

 private:
  struct State;
  friend Graph capture(const Stream& stream, std::function<void()> fn);
  explicit Graph(std::shared_ptr<const State> state) noexcept : state_(std::move(state)) {}
  std::shared_ptr<const State> state_;
};

}  // namespace xp
