#pragma once
// The recorded graph. An array made by a recorded operation points (through its AutogradMeta) at the
// operation's Node: its backward and the autograd state of each input that needs a gradient. A
// variable (attach_grad) is a leaf holding its gradient buffer. Nodes point only at their inputs, so
// a graph lives exactly as long as arrays made by it do.
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "api/array/buffer.hpp"
#include "autograd/mode.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

// One differentiable operation's backward, holding what its forward saved. The executors of the
// symbolic graph call the same objects.
class Backward {
 public:
  virtual ~Backward() = default;
  virtual std::string_view name() const noexcept = 0;
  // Sets grads[i], the gradient of input i (its shape, dtype and device), for each i with needed[i],
  // from the gradient of the output.
  virtual void run(const ArrayCore& grad_output, std::span<const bool> needed, std::span<ArrayCore> grads) const = 0;
  // The arrays whose values run() reads: a write into one after the recording makes its backward wrong,
  // which backward refuses (PyTorch's saved-tensor check).
  virtual std::vector<const ArrayCore*> saved() const { return {}; }
};

// The arrays among `indices`: what a backward through an index reads.
std::vector<const ArrayCore*> index_arrays(std::span<const Index> indices);

struct Node;

// Where an input's gradient goes: the recorded operation that made the values it had then, or the
// variable itself. Edges point at operations, not at arrays, so that a later write into the array (which
// replaces its creator) leaves them as they were, and no array's state is reachable from its own creator.
struct Edge {
  std::shared_ptr<Node> node;
  std::shared_ptr<AutogradMeta> variable;  // when node is null; both null: the input needs no gradient
  bool needed() const noexcept { return node || variable; }
};

// A saved array's memory and its write count when the operation was recorded.
struct SavedVersion {
  const Buffer* buffer;
  std::uint64_t writes;
};

struct Node {
  std::shared_ptr<const Backward> backward;  // released by a backward that does not retain the graph
  std::vector<Edge> inputs;
  std::vector<SavedVersion> saved;
};

// The autograd state of an array, shared by its copies.
struct AutogradMeta {
  GradReq grad_req = GradReq::null;  // a variable's, else null
  ArrayCore grad;  // a variable's gradient buffer
  bool fresh_grad = false;  // written by a backward since the flag was last cleared
  // The recorded operation that made the array's values; a recorded write into the array (a.at(i) = v)
  // replaces it, and the operations recorded before keep theirs through their edges.
  std::shared_ptr<Node> creator;
  std::uint64_t writes = 0;  // the buffer's write count when the creator ran
};

// Whether gradients flow into `a`: a variable that asks for them, or a recorded operation's result.
inline bool requires_grad(const ArrayCore& a) noexcept {
  const AutogradMeta* meta = ArrayInternals::autograd_meta(a).get();
  return meta != nullptr && (meta->creator != nullptr || meta->grad_req != GradReq::null);
}

// Whether an operation over `inputs` must be recorded now: recording, and an input needs a gradient.
// Refuses an input whose history is out of date (check_history_current).
bool must_record(std::span<const ArrayCore* const> inputs);
inline bool must_record(std::initializer_list<const ArrayCore*> inputs) {
  return must_record(std::span(inputs.begin(), inputs.size()));
}

// Refuses `a` when a recorded write went into its memory and its autograd state is not the one that
// write left (a view or an older copy of the array written, or the array written again since).
void check_history_current(const ArrayCore& a);

// `output` as the recorded result of `backward` over `inputs` (float inputs that need gradients get
// edges). Taken by reference: the backward, built in the same call, may hold the output too.
ArrayCore connect(std::shared_ptr<const Backward> backward, std::span<const ArrayCore* const> inputs,
                  const ArrayCore& output);
inline ArrayCore connect(std::shared_ptr<const Backward> backward, std::initializer_list<const ArrayCore*> inputs,
                         const ArrayCore& output) {
  return connect(std::move(backward), std::span(inputs.begin(), inputs.size()), output);
}

// Refuses a recorded write into a variable (attach_grad): its values are what its gradient is for.
void check_recorded_write(const ArrayCore& target);

// Records a write into `target`'s values, made (after check_recorded_write) by `backward` over
// [target, inputs...]: the write becomes the array's creator, on the state its copies share (a fresh one
// if it had none).
void connect_write(std::shared_ptr<const Backward> backward, const ArrayCore& target,
                   std::span<const ArrayCore* const> inputs);

// Refuses an operation into `out` that would have to be recorded (PyTorch's rule for out=).
void check_not_recorded_into(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out);

// Gradients of the heads (head_grads[i], or ones where it is null) for every variable they reach.
void run_backward(std::span<const ArrayCore* const> heads, std::span<const ArrayCore* const> head_grads,
                  bool retain_graph);

}  // namespace xp::detail
