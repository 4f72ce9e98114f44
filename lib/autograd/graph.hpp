#pragma once
// The recorded graph. An array made by a recorded operation points (through its AutogradMeta) at the
// operation's Node: its backward and the autograd state of each input that needs a gradient. A
// variable (attach_grad) is a leaf holding its gradient buffer. Nodes point only at their inputs, so
// a graph lives exactly as long as arrays made by it do.
#include <initializer_list>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

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
};

struct Node {
  std::shared_ptr<const Backward> backward;  // released by a backward that does not retain the graph
  std::vector<std::shared_ptr<AutogradMeta>> inputs;  // null: that input needs no gradient
};

struct AutogradMeta {
  GradReq grad_req = GradReq::null;  // a variable's, else null
  ArrayCore grad;  // a variable's gradient buffer
  bool fresh_grad = false;  // written by a backward since the flag was last cleared
  std::shared_ptr<Node> creator;  // the recorded operation that made the array
};

// Whether gradients flow into `a`: a variable that asks for them, or a recorded operation's result.
inline bool requires_grad(const ArrayCore& a) noexcept {
  const AutogradMeta* meta = ArrayInternals::autograd_meta(a).get();
  return meta != nullptr && (meta->creator != nullptr || meta->grad_req != GradReq::null);
}

// Whether an operation over `inputs` must be recorded now: recording, and an input needs a gradient.
bool must_record(std::span<const ArrayCore* const> inputs) noexcept;
inline bool must_record(std::initializer_list<const ArrayCore*> inputs) noexcept {
  return must_record(std::span(inputs.begin(), inputs.size()));
}

// `output` as the recorded result of `backward` over `inputs` (float inputs that need gradients get
// edges). Taken by reference: the backward, built in the same call, may hold the output too.
ArrayCore connect(std::shared_ptr<const Backward> backward, std::span<const ArrayCore* const> inputs,
                  const ArrayCore& output);
inline ArrayCore connect(std::shared_ptr<const Backward> backward, std::initializer_list<const ArrayCore*> inputs,
                         const ArrayCore& output) {
  return connect(std::move(backward), std::span(inputs.begin(), inputs.size()), output);
}

// Refuses an operation into `out` that would have to be recorded (PyTorch's rule for out=).
void check_not_recorded_into(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out);

// Gradients of the heads (head_grads[i], or ones where it is null) for every variable they reach.
void run_backward(std::span<const ArrayCore* const> heads, std::span<const ArrayCore* const> head_grads,
                  bool retain_graph);

}  // namespace xp::detail
