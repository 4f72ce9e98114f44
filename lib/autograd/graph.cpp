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

// A value in the graph: what a recorded operation made, or a variable's own.
struct Vertex {
  Node* node;
  AutogradMeta* variable;  // when node is null
  bool operator==(const Vertex&) const = default;
};

struct VertexHash {
  std::size_t operator()(const Vertex& v) const noexcept {
    return v.node ? std::hash<const void*>{}(v.node) : std::hash<const void*>{}(v.variable);
  }
};

using PendingGradients = std::unordered_map<Vertex, Pending, VertexHash>;

Vertex vertex_of(const Edge& edge) noexcept { return {edge.node.get(), edge.node ? nullptr : edge.variable.get()}; }

// Every value reachable from the heads, each after all that feed it (inputs first).
std::vector<Vertex> inputs_first(std::span<const Vertex> heads) {
  std::vector<Vertex> order;
  std::unordered_map<Vertex, bool, VertexHash> visited;  // true once its inputs are all placed
  std::vector<std::pair<Vertex, std::size_t>> stack;
  for (const Vertex& head : heads) {
    if (visited.contains(head)) continue;
    visited[head] = false;
    stack.emplace_back(head, 0);
    while (!stack.empty()) {
      auto& [vertex, next] = stack.back();
      const Node* node = vertex.node;
      if (node && next < node->inputs.size()) {
        const Edge& edge = node->inputs[next++];
        const Vertex input = vertex_of(edge);
        if (edge.needed() && !visited.contains(input)) {
          visited[input] = false;
          stack.emplace_back(input, 0);
        }
        continue;
      }
      order.push_back(vertex);
      visited[vertex] = true;
      stack.pop_back();
    }
  }
  return order;
}

// Refuses a backward whose saved values were written over after it was recorded.
void check_saved(const Node& node) {
  for (const SavedVersion& saved : node.saved) {
    const std::uint64_t now = saved.buffer->writes.load(std::memory_order_relaxed);
    XP_CHECK(now == saved.writes, ValueError, "backward: an array that ", node.backward->name(),
             " saved for its backward was written in place after it was recorded; write into a copy, or record "
             "the operation after the write");
  }
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
bool run_node(const Vertex& vertex, PendingGradients& pending) {
  Node* node = vertex.node;
  if (!node) return false;
  const auto found = pending.find(vertex);
  if (found == pending.end() || !found->second.present) return false;
  XP_CHECK(node->backward, ValueError,
           "backward: the graph was freed by an earlier backward; pass retain_graph = true to the first "
           "backward to run another through the same graph");
  check_saved(*node);
  const ArrayCore grad_output = std::move(found->second.grad);
  found->second.present = false;
  const std::size_t n = node->inputs.size();
  std::vector<ArrayCore> grads(n);
  const std::unique_ptr<bool[]> needed(new bool[n]);
  for (std::size_t k = 0; k < n; ++k) needed[k] = node->inputs[k].needed();
  node->backward->run(grad_output, std::span(needed.get(), n), grads);
  for (std::size_t k = 0; k < n; ++k) {
    if (!needed[k]) continue;
    Pending& slot = pending[vertex_of(node->inputs[k])];
    accumulate(slot.grad, slot.present, grads[k]);
  }
  return true;
}

// A variable's gradient into its buffer, as its grad_req says (write or add).
void write_gradient(const Vertex& vertex, const PendingGradients& pending) {
  if (!vertex.variable || vertex.variable->grad_req == GradReq::null) return;
  AutogradMeta& meta = *vertex.variable;
  const auto found = pending.find(vertex);
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

std::vector<const ArrayCore*> index_arrays(std::span<const Index> indices) {
  std::vector<const ArrayCore*> arrays;
  for (const Index& index : indices)
    if (index.kind() == Index::Kind::array) arrays.push_back(index.array());
  return arrays;
}

bool must_record(std::span<const ArrayCore* const> inputs) {
  if (!recording()) return false;
  bool needed = false;
  for (const ArrayCore* a : inputs) {
    check_history_current(*a);
    needed = needed || (requires_grad(*a) && is_inexact(*a));
  }
  return needed;
}

void check_history_current(const ArrayCore& a) {
  const Buffer* buffer = ArrayInternals::buffer(a).get();
  if (!buffer || !buffer->recorded_write.load(std::memory_order_relaxed)) return;
  const AutogradMeta* meta = ArrayInternals::autograd_meta(a).get();
  XP_CHECK(meta && meta->creator && meta->writes == buffer->writes.load(std::memory_order_relaxed), ValueError,
           "an array of shape ", a.shape(), " on ", a.device(),
           " shares memory written in place since its recording (a recorded a.at(...) = v through another view "
           "or copy of it, or a write after that): its history no longer explains its values; use the array the "
           "write went through, or a copy made after the write");
}

namespace {

Edge edge_to(const ArrayCore& a) {
  if (!requires_grad(a) || !is_inexact(a)) return {};
  const std::shared_ptr<AutogradMeta>& meta = ArrayInternals::autograd_meta(a);
  if (meta->creator) return {meta->creator, nullptr};
  return {nullptr, meta};
}

std::shared_ptr<Node> new_node(std::shared_ptr<const Backward> backward, std::span<const ArrayCore* const> inputs) {
  auto node = std::make_shared<Node>();
  for (const ArrayCore* a : inputs) node->inputs.push_back(edge_to(*a));
  for (const ArrayCore* a : backward->saved())
    if (const Buffer* buffer = ArrayInternals::buffer(*a).get())
      node->saved.push_back({buffer, buffer->writes.load(std::memory_order_relaxed)});
  node->backward = std::move(backward);
  return node;
}

std::uint64_t writes_of(const ArrayCore& a) noexcept {
  const Buffer* buffer = ArrayInternals::buffer(a).get();
  return buffer ? buffer->writes.load(std::memory_order_relaxed) : 0;
}

}  // namespace

ArrayCore connect(std::shared_ptr<const Backward> backward, std::span<const ArrayCore* const> inputs,
                  const ArrayCore& output) {
  auto meta = std::make_shared<AutogradMeta>();
  meta->creator = new_node(std::move(backward), inputs);
  meta->writes = writes_of(output);
  ArrayCore recorded = output;
  ArrayInternals::set_autograd_meta(recorded, std::move(meta));
  return recorded;
}

void check_recorded_write(const ArrayCore& target) {
  const AutogradMeta* meta = ArrayInternals::autograd_meta(target).get();
  XP_CHECK(!meta || meta->grad_req == GradReq::null, ValueError, "setitem: the array of shape ", target.shape(),
           " is a variable (attach_grad), whose values are what its gradient is for: it cannot be written in place "
           "while recording; write into a copy of it");
}

void connect_write(std::shared_ptr<const Backward> backward, const ArrayCore& target,
                   std::span<const ArrayCore* const> inputs) {
  std::shared_ptr<AutogradMeta> meta = ArrayInternals::autograd_meta(target);
  std::vector<const ArrayCore*> all{&target};
  all.insert(all.end(), inputs.begin(), inputs.end());
  std::shared_ptr<Node> node = new_node(std::move(backward), all);
  if (!meta) {
    meta = std::make_shared<AutogradMeta>();
    ArrayInternals::set_autograd_meta(target, meta);
  }
  meta->creator = std::move(node);
  meta->writes = writes_of(target);
  if (Buffer* buffer = ArrayInternals::buffer(target).get())
    buffer->recorded_write.store(true, std::memory_order_relaxed);
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
  std::vector<Vertex> head_vertices;
  PendingGradients pending;
  for (std::size_t i = 0; i < heads.size(); ++i) {
    const ArrayCore* given = head_grads.empty() ? nullptr : head_grads[i];
    const ArrayCore gradient = head_gradient(i, *heads[i], given);
    const std::shared_ptr<AutogradMeta>& meta = ArrayInternals::autograd_meta(*heads[i]);
    const Vertex head{meta->creator.get(), meta->creator ? nullptr : meta.get()};
    Pending& slot = pending[head];
    accumulate(slot.grad, slot.present, gradient);
    head_vertices.push_back(head);
  }
  const std::vector<Vertex> order = inputs_first(head_vertices);
  std::vector<Node*> ran;
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    if (run_node(*it, pending)) ran.push_back(it->node);
  for (const Vertex& vertex : order) write_gradient(vertex, pending);
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
