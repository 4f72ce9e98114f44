#pragma once
// The nodes of a symbol's graph: a variable or an operation over other nodes' outputs, each with one
// output. Immutable once made; symbols share them.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xp/nn_functions.hpp"
#include "xp/symbol.hpp"

namespace xp::sym {

enum class Op : std::uint8_t {
  variable,
  fully_connected,
  activation,
  dropout,
  flatten,
  batch_norm,
  softmax_output,
  linear_regression_output,
  plus,
  minus,
  multiply,
  divide,
  plus_scalar,
  minus_scalar,
  rminus_scalar,  // scalar - x
  multiply_scalar,
  divide_scalar,
  rdivide_scalar,  // scalar / x
};

struct Node {
  Op op = Op::variable;
  std::string name;
  std::vector<std::shared_ptr<const Node>> inputs;
  std::optional<Shape> shape;  // a variable's declared shape
  // The operations' attributes (each reads its own).
  std::int64_t num_hidden = 0;
  bool no_bias = false;
  bool flatten = true;
  std::string act_type;
  double p = 0.5;
  double scalar = 0.0;  // the scalar operand, or LinearRegressionOutput's grad_scale
  BatchNormOptions batch_norm;
  SoftmaxOutputOptions softmax_output;
};

// The operator's name as MXNet writes it ("FullyConnected").
const char* op_name(Op op) noexcept;
// Whether input `index` of an operation is an auxiliary state (BatchNorm's moving statistics).
bool is_aux_input(Op op, std::size_t index) noexcept;

// Every node reachable from the heads, inputs before the nodes that use them, in MXNet's depth-first
// order (inputs visited in order, each node once).
std::vector<const Node*> topological_order(const std::vector<std::shared_ptr<const Node>>& heads);

// The variables among `order` that are arguments, and those that are auxiliary states, in order.
struct Variables {
  std::vector<const Node*> arguments;
  std::vector<const Node*> auxiliary_states;
};
Variables variables_of(const std::vector<const Node*>& order);

}  // namespace xp::sym
