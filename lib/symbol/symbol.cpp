// Making symbols, naming their operations, and listing their arguments, outputs and auxiliary states.
#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include "symbol/graph.hpp"

namespace xp::sym {

namespace {

using NodePtr = std::shared_ptr<const Node>;

// MXNet's NameManager: the lower-cased operator name and a counter of this thread.
std::string automatic_name(Op op) {
  thread_local std::map<std::string, int> counters;
  std::string hint = op_name(op);
  std::transform(hint.begin(), hint.end(), hint.begin(), [](unsigned char c) { return std::tolower(c); });
  return hint + std::to_string(counters[hint]++);
}

const NodePtr& single_head(const Symbol& symbol, const char* op) {
  XP_CHECK(symbol.heads().size() == 1, ValueError, op, ": its input must have one output, not ", symbol.heads().size(),
           " (a Group)");
  return symbol.heads().front();
}

NodePtr variable_node(std::string name, std::optional<Shape> shape = std::nullopt) {
  auto node = std::make_shared<Node>();
  node->name = std::move(name);
  node->shape = std::move(shape);
  return node;
}

// An operation node named `name` (or automatically) over `inputs`, then `implicit` variables named
// <name>_<suffix> appended to its inputs.
std::shared_ptr<Node> operation(Op op, const std::string& name, std::vector<NodePtr> inputs,
                                std::initializer_list<const char*> implicit = {}) {
  auto node = std::make_shared<Node>();
  node->op = op;
  node->name = name.empty() ? automatic_name(op) : name;
  for (const char* suffix : implicit) inputs.push_back(variable_node(node->name + "_" + suffix));
  node->inputs = std::move(inputs);
  return node;
}

Symbol binary(Op op, const Symbol& a, const Symbol& b) {
  const char* what = op_name(op);
  return Symbol({operation(op, "", {single_head(a, what), single_head(b, what)})});
}

Symbol with_scalar(Op op, const Symbol& a, double scalar) {
  auto node = operation(op, "", {single_head(a, op_name(op))});
  node->scalar = scalar;
  return Symbol({std::move(node)});
}

}  // namespace

const char* op_name(Op op) noexcept {
  switch (op) {
    case Op::variable: return "Variable";
    case Op::fully_connected: return "FullyConnected";
    case Op::activation: return "Activation";
    case Op::dropout: return "Dropout";
    case Op::flatten: return "Flatten";
    case Op::batch_norm: return "BatchNorm";
    case Op::softmax_output: return "SoftmaxOutput";
    case Op::linear_regression_output: return "LinearRegressionOutput";
    case Op::plus: return "_Plus";
    case Op::minus: return "_Minus";
    case Op::multiply: return "_Mul";
    case Op::divide: return "_Div";
    case Op::plus_scalar: return "_PlusScalar";
    case Op::minus_scalar: return "_MinusScalar";
    case Op::rminus_scalar: return "_RMinusScalar";
    case Op::multiply_scalar: return "_MulScalar";
    case Op::divide_scalar: return "_DivScalar";
    case Op::rdivide_scalar: return "_RDivScalar";
  }
  return "?";
}

bool is_aux_input(Op op, std::size_t index) noexcept { return op == Op::batch_norm && index >= 3; }

std::vector<const Node*> topological_order(const std::vector<NodePtr>& heads) {
  std::vector<const Node*> order;
  std::set<const Node*> seen;
  const std::function<void(const Node*)> visit = [&](const Node* node) {
    if (!seen.insert(node).second) return;
    for (const NodePtr& input : node->inputs) visit(input.get());
    order.push_back(node);
  };
  for (const NodePtr& head : heads) visit(head.get());
  return order;
}

Variables variables_of(const std::vector<const Node*>& order) {
  std::set<const Node*> aux;
  for (const Node* node : order)
    for (std::size_t i = 0; i < node->inputs.size(); ++i)
      if (is_aux_input(node->op, i)) aux.insert(node->inputs[i].get());
  Variables variables;
  for (const Node* node : order)
    if (node->op == Op::variable)
      (aux.contains(node) ? variables.auxiliary_states : variables.arguments).push_back(node);
  return variables;
}

std::vector<std::string> Symbol::list_arguments() const {
  std::vector<std::string> names;
  for (const Node* node : variables_of(topological_order(heads_)).arguments) names.push_back(node->name);
  return names;
}

std::vector<std::string> Symbol::list_auxiliary_states() const {
  std::vector<std::string> names;
  for (const Node* node : variables_of(topological_order(heads_)).auxiliary_states) names.push_back(node->name);
  return names;
}

std::vector<std::string> Symbol::list_outputs() const {
  std::vector<std::string> names;
  for (const NodePtr& head : heads_) names.push_back(head->op == Op::variable ? head->name : head->name + "_output");
  return names;
}

const std::string& Symbol::name() const { return single_head(*this, "name")->name; }

Symbol var(const std::string& name, std::optional<Shape> shape) {
  XP_CHECK(!name.empty(), ValueError, "var: a variable needs a name");
  return Symbol({variable_node(name, std::move(shape))});
}

Symbol Group(const std::vector<Symbol>& symbols) {
  std::vector<NodePtr> heads;
  for (const Symbol& s : symbols) heads.insert(heads.end(), s.heads().begin(), s.heads().end());
  XP_CHECK(!heads.empty(), ValueError, "Group: no symbols");
  return Symbol(std::move(heads));
}

Symbol FullyConnected(const Symbol& data, std::int64_t num_hidden, const std::string& name, bool no_bias,
                      bool flatten) {
  XP_CHECK(num_hidden > 0, ValueError, "FullyConnected: num_hidden must be positive, not ", num_hidden);
  auto node = no_bias ? operation(Op::fully_connected, name, {single_head(data, "FullyConnected")}, {"weight"})
                      : operation(Op::fully_connected, name, {single_head(data, "FullyConnected")}, {"weight", "bias"});
  node->num_hidden = num_hidden;
  node->no_bias = no_bias;
  node->flatten = flatten;
  return Symbol({std::move(node)});
}

Symbol Activation(const Symbol& data, const std::string& act_type, const std::string& name) {
  static const std::set<std::string> known{"relu", "sigmoid", "tanh", "softrelu", "softsign"};
  XP_CHECK(known.contains(act_type), ValueError, "Activation: unknown act_type '", act_type,
           "' (relu, sigmoid, tanh, softrelu or softsign)");
  auto node = operation(Op::activation, name, {single_head(data, "Activation")});
  node->act_type = act_type;
  return Symbol({std::move(node)});
}

Symbol Dropout(const Symbol& data, double p, const std::string& name) {
  XP_CHECK(p >= 0 && p < 1, ValueError, "Dropout: p must be in [0, 1), not ", p);
  auto node = operation(Op::dropout, name, {single_head(data, "Dropout")});
  node->p = p;
  return Symbol({std::move(node)});
}

Symbol Flatten(const Symbol& data, const std::string& name) {
  return Symbol({operation(Op::flatten, name, {single_head(data, "Flatten")})});
}

Symbol BatchNorm(const Symbol& data, const std::string& name, const BatchNormOptions& options) {
  auto node =
      operation(Op::batch_norm, name, {single_head(data, "BatchNorm")}, {"gamma", "beta", "moving_mean", "moving_var"});
  node->batch_norm = options;
  return Symbol({std::move(node)});
}

Symbol SoftmaxOutput(const Symbol& data, const Symbol& label, const std::string& name,
                     const SoftmaxOutputOptions& options) {
  auto node =
      operation(Op::softmax_output, name, {single_head(data, "SoftmaxOutput"), single_head(label, "SoftmaxOutput")});
  node->softmax_output = options;
  return Symbol({std::move(node)});
}

Symbol SoftmaxOutput(const Symbol& data, const std::string& name) {
  const std::string own = name.empty() ? automatic_name(Op::softmax_output) : name;
  return SoftmaxOutput(data, var(own + "_label"), own);
}

Symbol LinearRegressionOutput(const Symbol& data, const Symbol& label, const std::string& name, double grad_scale) {
  auto node = operation(Op::linear_regression_output, name,
                        {single_head(data, "LinearRegressionOutput"), single_head(label, "LinearRegressionOutput")});
  node->scalar = grad_scale;
  return Symbol({std::move(node)});
}

Symbol operator+(const Symbol& a, const Symbol& b) { return binary(Op::plus, a, b); }
Symbol operator-(const Symbol& a, const Symbol& b) { return binary(Op::minus, a, b); }
Symbol operator*(const Symbol& a, const Symbol& b) { return binary(Op::multiply, a, b); }
Symbol operator/(const Symbol& a, const Symbol& b) { return binary(Op::divide, a, b); }
Symbol operator+(const Symbol& a, double b) { return with_scalar(Op::plus_scalar, a, b); }
Symbol operator-(const Symbol& a, double b) { return with_scalar(Op::minus_scalar, a, b); }
Symbol operator*(const Symbol& a, double b) { return with_scalar(Op::multiply_scalar, a, b); }
Symbol operator/(const Symbol& a, double b) { return with_scalar(Op::divide_scalar, a, b); }
Symbol operator+(double a, const Symbol& b) { return with_scalar(Op::plus_scalar, b, a); }
Symbol operator-(double a, const Symbol& b) { return with_scalar(Op::rminus_scalar, b, a); }
Symbol operator*(double a, const Symbol& b) { return with_scalar(Op::multiply_scalar, b, a); }
Symbol operator/(double a, const Symbol& b) { return with_scalar(Op::rdivide_scalar, b, a); }

}  // namespace xp::sym
