// Recording, backward and the variables' gradients.
#include "autograd/graph.hpp"

#include <unordered_map>
#include <utility>

#include "xp/autograd.hpp"
#include "xp/creation.hpp"

namespace xp::detail {

namespace {

bool is_inexact(const ArrayCore& a) noexcept { return is_inexact_dtype(a.dtype()); }

const char* const kNotRecorded =
    " is not in a recorded graph: record the operations that made it inside an xp::autograd::record scope, "
    "from a variable (attach_grad)";

// An array of ones like `a` (the default head gradient).
ArrayCore ones_like(const ArrayCore& a) {
  const double one = 1.0;
  const ArrayCore ones = full(a.shape(), xp::dtype::float64, &one, a.device());
  return a.dtype() == xp::dtype::float64 ? ones : astype(ones, a.dtype());
}

void accumulate(ArrayCore& sum, bool& present, const ArrayCore& grad) {
  if (!present) {
    sum = grad;
    present = true;
    return;
  }
  const std::array<Operand, 2> operands{Operand{&sum, {}}, Operand{&grad, {}}};
  sum = elementwise(ElementwiseOp::add, operands);
}

struct Pending {
  ArrayCore grad;
  bool present = false;
};

// Every autograd state reachable from the heads, each after all that feed it (inputs first).
std::vector<AutogradMeta*> inputs_first(std::span<AutogradMeta* const> heads) {
  std::vector<AutogradMeta*> order;
  std::unordered_map<AutogradMeta*, bool> visited;  // true once its inputs are all placed
  std::vector<std::pair<AutogradMeta*, std::size_t>> stack;
  for (AutogradMeta* head : heads) {
    if (visited.contains(head)) continue;
    visited[head] = false;
    stack.emplace_back(head, 0);
    while (!stack.empty()) {
      auto& [meta, next] = stack.back();
      const Node* node = meta->creator.get();
      if (node && next < node->inputs.size()) {
        AutogradMeta* input = node->inputs[next++].get();
        if (input && !visited.contains(input)) {
          visited[input] = false;
          stack.emplace_back(input, 0);
        }
        continue;
      }
      order.push_back(meta);
      visited[meta] = true;
      stack.pop_back();
    }
  }
  return order;
}

// Head i's gradient: the one given (its shape and device checked, converted to the head's dtype), else ones.
ArrayCore head_gradient(std::size_t i, const ArrayCore& head, const ArrayCore* given) {
  XP_CHECK(requires_grad(head), ValueError, "backward: head ", i, " (shape ", head.shape(), ")", kNotRecorded);
  if (!given) return ones_like(head);
  XP_CHECK(given->shape() == head.shape(), ValueError, "backward: head gradient ", i, " has shape ", given->shape(),
           " but its head has shape ", head.shape());
  XP_CHECK(given->device() == head.device(), DeviceMismatchError, "backward: head gradient ", i, " is on ",
           given->device(), " but its head is on ", head.device());
  return given->dtype() == head.dtype() ? *given : astype(*given, head.dtype());
}

// The backward of the operation that made `meta`'s array, when a gradient reached it: its inputs'
// gradients added to what they have pending. Whether it ran.
bool run_node(AutogradMeta& meta, std::unordered_map<AutogradMeta*, Pending>& pending) {
  Node* node = meta.creator.get();
  if (!node) return false;
  const auto found = pending.find(&meta);
  if (found == pending.end() || !found->second.present) return false;
  XP_CHECK(node->backward, ValueError,
           "backward: the graph was freed by an earlier backward; pass retain_graph = true to the first "
           "backward to run another through the same graph");
  const ArrayCore grad_output = std::move(found->second.grad);
  found->second.present = false;
  const std::size_t n = node->inputs.size();
  std::vector<ArrayCore> grads(n);
  const std::unique_ptr<bool[]> needed(new bool[n]);
  for (std::size_t k = 0; k < n; ++k) needed[k] = node->inputs[k] != nullptr;
  node->backward->run(grad_output, std::span(needed.get(), n), grads);
  for (std::size_t k = 0; k < n; ++k) {
    if (!needed[k]) continue;
    Pending& slot = pending[node->inputs[k].get()];
    accumulate(slot.grad, slot.present, grads[k]);
  }
  return true;
}

// A variable's gradient into its buffer, as its grad_req says (write or add).
void write_gradient(AutogradMeta& meta, const std::unordered_map<AutogradMeta*, Pending>& pending) {
  if (meta.grad_req == GradReq::null) return;
  const auto found = pending.find(&meta);
  if (found == pending.end() || !found->second.present) return;
  const ArrayCore& grad = found->second.grad;
  if (meta.grad_req == GradReq::write) {
    copy_into(grad, meta.grad);
  } else {
    const std::array<Operand, 2> operands{Operand{&meta.grad, {}}, Operand{&grad, {}}};
    elementwise(ElementwiseOp::add, operands, meta.grad);
  }
  meta.fresh_grad = true;
}

}  // namespace

bool must_record(std::span<const ArrayCore* const> inputs) noexcept {
  if (!recording()) return false;
  for (const ArrayCore* a : inputs)
    if (requires_grad(*a) && is_inexact(*a)) return true;
  return false;
}

ArrayCore connect(std::shared_ptr<const Backward> backward, std::span<const ArrayCore* const> inputs,
                  const ArrayCore& output) {
  auto node = std::make_shared<Node>();
  node->backward = std::move(backward);
  node->inputs.reserve(inputs.size());
  for (const ArrayCore* a : inputs)
    node->inputs.push_back(requires_grad(*a) && is_inexact(*a) ? ArrayInternals::autograd_meta(*a) : nullptr);
  auto meta = std::make_shared<AutogradMeta>();
  meta->creator = std::move(node);
  ArrayCore recorded = output;
  ArrayInternals::set_autograd_meta(recorded, std::move(meta));
  return recorded;
}

void check_not_recorded_into(std::string_view op, std::span<const ArrayCore* const> inputs, const ArrayCore& out) {
  if (!recording()) return;
  XP_CHECK(!must_record(inputs) && !requires_grad(out), ValueError, op,
           ": an operation into `out` cannot be recorded for backward; while recording, call it without `out` "
           "on arrays that need gradients");
}

void run_backward(std::span<const ArrayCore* const> heads, std::span<const ArrayCore* const> head_grads,
                  bool retain_graph) {
  XP_CHECK(head_grads.empty() || head_grads.size() == heads.size(), ValueError, "backward: ", heads.size(),
           " heads but ", head_grads.size(), " head gradients");
  std::vector<AutogradMeta*> head_metas;
  std::unordered_map<AutogradMeta*, Pending> pending;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const ArrayCore* given = head_grads.empty() ? nullptr : head_grads[i];
    AutogradMeta* meta = ArrayInternals::autograd_meta(*heads[i]).get();
    Pending& slot = pending[meta];
    accumulate(slot.grad, slot.present, head_gradient(i, *heads[i], given));
    head_metas.push_back(meta);
  }
  const std::vector<AutogradMeta*> order = inputs_first(head_metas);
  std::vector<Node*> ran;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (run_node(**it, pending)) ran.push_back((*it)->creator.get());
  for (AutogradMeta* meta : order) write_gradient(*meta, pending);
  if (!retain_graph)
    for (Node* node : ran) node->backward.reset();
}

void attach_grad(ArrayCore& a, GradReq req) {
  auto meta = std::make_shared<AutogradMeta>();
  meta->grad_req = req;
  meta->grad = detail::zeros(a.shape(), a.dtype(), a.device());
  ArrayInternals::set_autograd_meta(a, std::move(meta));
}

ArrayCore grad_of(const ArrayCore& a) {
  const AutogradMeta* meta = ArrayInternals::autograd_meta(a).get();
  XP_CHECK(meta && ArrayInternals::buffer(meta->grad), ValueError, "grad: the array (shape ", a.shape(), " on ",
           a.device(), ") has no gradient buffer; call attach_grad() on it first");
  return meta->grad;
}

void backward_from(const ArrayCore& head, const ArrayCore* head_grad, bool retain_graph) {
  const ArrayCore* heads[] = {&head};
  const ArrayCore* grads[] = {head_grad};
  run_backward(heads, grads, retain_graph);
}

ArrayCore detached(const ArrayCore& a) {
  ArrayCore copy = a;
  ArrayInternals::set_autograd_meta(copy, nullptr);
  return copy;
}

}  // namespace xp::detail

namespace xp::autograd {

bool is_recording() noexcept { return xp::detail::recording(); }
bool is_training() noexcept { return xp::detail::training(); }

bool set_recording(bool recording) noexcept { return std::exchange(xp::detail::autograd_mode.recording, recording); }
bool set_training(bool training) noexcept { return std::exchange(xp::detail::autograd_mode.training, training); }

detail::ModeScope::ModeScope(int recording, int training) noexcept
    : previous_recording_(xp::detail::autograd_mode.recording), previous_training_(xp::detail::autograd_mode.training) {
  if (recording >= 0) xp::detail::autograd_mode.recording = recording != 0;
  if (training >= 0) xp::detail::autograd_mode.training = training != 0;
}

detail::ModeScope::~ModeScope() {
  xp::detail::autograd_mode.recording = previous_recording_;
  xp::detail::autograd_mode.training = previous_training_;
}

void backward(std::span<const ndarray<>> heads, std::span<const ndarray<>> head_grads, bool retain_graph) {
  std::vector<const xp::detail::ArrayCore*> head_list;
  std::vector<const xp::detail::ArrayCore*> grad_list;
  for (const ndarray<>& h : heads) head_list.push_back(&h);
  for (const ndarray<>& g : head_grads) grad_list.push_back(&g);
  xp::detail::run_backward(head_list, grad_list, retain_graph);
}

void mark_variable(ndarray<>& variable, const ndarray<>& gradient, GradReq req) {
  XP_CHECK(gradient.shape() == variable.shape() && gradient.dtype() == variable.dtype() &&
               gradient.device() == variable.device(),
           ValueError, "mark_variable: the gradient buffer (", gradient.shape(), " ", gradient.dtype(), " on ",
           gradient.device(), ") does not match its variable (", variable.shape(), " ", variable.dtype(), " on ",
           variable.device(), ")");
  auto meta = std::make_shared<xp::detail::AutogradMeta>();
  meta->grad_req = req;
  meta->grad = xp::detail::detached(gradient);
  xp::detail::ArrayInternals::set_autograd_meta(variable, std::move(meta));
}

bool has_fresh_grad(const ndarray<>& variable) {
  const auto* meta = xp::detail::ArrayInternals::autograd_meta(variable).get();
  return meta != nullptr && meta->fresh_grad;
}

void set_fresh_grad(const ndarray<>& variable, bool fresh) {
  if (auto* meta = xp::detail::ArrayInternals::autograd_meta(variable).get()) meta->fresh_grad = fresh;
}

}  // namespace xp::autograd
