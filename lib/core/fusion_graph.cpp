#include "core/fusion_graph.hpp"

#include <algorithm>

#include "core/elementwise_checks.hpp"
#include "xp/error.hpp"
#include "xp/traced_value.hpp"

namespace xp::detail {

namespace {
constexpr int kReducedNode = -2;  // a TracedValue's node once its graph has reduced

void check_not_reduced(const std::optional<FusedReduction>& reduction, std::string_view op) {
  XP_CHECK(!reduction, ValueError, "xp::fuse: ", op, " after ", reduction_name(reduction->reduction),
           ": a fused function ends in at most one reduction");
}
}  // namespace

int FusionGraph::add_parameter(xp::dtype type) {
  FusionNode node;
  node.parameter = parameters_++;
  node.type = type;
  nodes_.push_back(node);
  return static_cast<int>(nodes_.size()) - 1;
}

int FusionGraph::add_operation(ElementwiseOp op, std::span<const FusionOperand> operands) {
  const std::string_view name = op_name(op);
  check_not_reduced(reduction_, name);
  XP_ASSERT(static_cast<int>(operands.size()) == op_arity(op));
  std::array<OperandType, 3> types{};
  for (std::size_t k = 0; k < operands.size(); ++k)
    types[k] = operands[k].node >= 0 ? OperandType{nodes_[static_cast<std::size_t>(operands[k].node)].type, false}
                                     : OperandType{operands[k].scalar.type, true};
  FusionNode node;
  node.op = op;
  node.arity = static_cast<int>(operands.size());
  node.compute = checked_compute_dtype(op, std::span(types.data(), operands.size()));
  node.type = result_dtype(op, node.compute);
  for (std::size_t k = 0; k < operands.size(); ++k) {
    node.inputs[k] = operands[k].node;
    if (operands[k].node < 0)
      node.scalars[k] = convert_scalar(operands[k].scalar, input_dtype(op, k, node.compute), name);
  }
  nodes_.push_back(node);
  return static_cast<int>(nodes_.size()) - 1;
}

int FusionGraph::add_cast(int input, xp::dtype type) {
  check_not_reduced(reduction_, "astype");
  FusionNode node;
  node.cast = true;
  node.type = node.compute = type;
  node.arity = 1;
  node.inputs[0] = input;
  nodes_.push_back(node);
  return static_cast<int>(nodes_.size()) - 1;
}

void FusionGraph::reduce(const FusedReduction& reduction, int input) {
  check_not_reduced(reduction_, reduction_name(reduction.reduction));
  reduction_ = reduction;
  reduction_input_ = input;
}

void FusionGraph::set_output(int node) {
  XP_CHECK(!reduction_ || node == kReducedNode, ValueError, "xp::fuse: the function must return the result of its ",
           reduction_name(reduction_->reduction));
  output_ = node == kReducedNode ? reduction_input_ : node;
}

std::vector<int> FusionGraph::evaluation_order() const {
  std::vector<bool> needed(nodes_.size(), false);
  if (output_ >= 0) needed[static_cast<std::size_t>(output_)] = true;
  for (std::size_t n = nodes_.size(); n-- > 0;) {
    if (!needed[n] || nodes_[n].parameter >= 0) continue;
    for (int k = 0; k < nodes_[n].arity; ++k)
      if (nodes_[n].inputs[k] >= 0) needed[static_cast<std::size_t>(nodes_[n].inputs[k])] = true;
  }
  std::vector<int> order;
  for (std::size_t n = 0; n < nodes_.size(); ++n)
    if (needed[n] && nodes_[n].parameter < 0) order.push_back(static_cast<int>(n));
  return order;
}

TracedValue trace_elementwise(ElementwiseOp op, std::span<const TracedOperand> operands) {
  const TracedValue* first = nullptr;
  int ndim = 0;
  std::array<FusionOperand, 3> list{};
  for (std::size_t k = 0; k < operands.size(); ++k) {
    const TracedValue* value = operands[k].value;
    if (!value) {
      list[k].scalar = operands[k].scalar;
      continue;
    }
    if (!first) first = value;
    XP_CHECK(value->graph() == first->graph(), ValueError, "xp::fuse: ", op_name(op),
             " mixes the values of two fused functions' traces");
    if (value->node() == kReducedNode) check_not_reduced(value->graph()->reduction(), op_name(op));
    list[k].node = value->node();
    ndim = std::max(ndim, value->ndim());
  }
  XP_ASSERT(first != nullptr);
  FusionGraph& graph = *first->graph();
  const int node = graph.add_operation(op, std::span(list.data(), operands.size()));
  return {first->graph(), node, graph.nodes()[static_cast<std::size_t>(node)].type, ndim};
}

TracedValue trace_cast(const TracedValue& x, xp::dtype type) {
  if (type == x.dtype()) return x;  // the fused result is a new array: no copy to make
  if (x.node() == kReducedNode) check_not_reduced(x.graph()->reduction(), "astype");
  return {x.graph(), x.graph()->add_cast(x.node(), type), type, x.ndim()};
}

TracedValue trace_reduction(Reduction r, const TracedValue& x, const Axes& axes, bool keepdims, std::int64_t ddof) {
  FusionGraph& graph = *x.graph();
  check_not_reduced(graph.reduction(), reduction_name(r));
  graph.reduce({r, axes, keepdims, ddof}, x.node());
  const int reduced = axes.all() ? x.ndim() : static_cast<int>(axes.list().size());
  return {x.graph(), kReducedNode, reduction_dtype(r, x.dtype()), keepdims ? x.ndim() : x.ndim() - reduced};
}

}  // namespace xp::detail
