#include "symbol/operators.hpp"

#include <numeric>

#include "xp/math.hpp"
#include "xp/nn_functions.hpp"

namespace xp::sym {

namespace {

std::string input_label(const Node& node, std::size_t i) {
  const Node& input = *node.inputs[i];
  return input.op == Op::variable ? "argument '" + input.name + "'"
                                  : "input " + std::to_string(i) + " ('" + input.name + "_output')";
}

const Shape& require(const Node& node, std::vector<std::optional<Shape>>& inputs, std::size_t i) {
  XP_CHECK(inputs[i].has_value(), ValueError, "infer_shape: cannot infer the shape of ", input_label(node, i),
           ", which ", node.name, " (", op_name(node.op), ") needs; give its shape");
  return *inputs[i];
}

void expect(const Node& node, std::vector<std::optional<Shape>>& inputs, std::size_t i, const Shape& needed) {
  if (!inputs[i]) {
    inputs[i] = needed;
    return;
  }
  XP_CHECK(*inputs[i] == needed, ValueError, "infer_shape: ", input_label(node, i), " has shape ", *inputs[i], " but ",
           node.name, " (", op_name(node.op), ") needs ", needed);
}

std::int64_t product(const Shape& shape, int from) {
  std::int64_t n = 1;
  for (int a = from; a < shape.ndim(); ++a) n *= shape[a];
  return n;
}

Shape fully_connected_output(const Node& node, std::vector<std::optional<Shape>>& inputs) {
  const Shape data = require(node, inputs, 0);
  XP_CHECK(data.ndim() >= 1, ValueError, "infer_shape: ", node.name,
           " (FullyConnected) needs data with a batch axis, not shape ", data);
  const std::int64_t in_units = node.flatten ? product(data, 1) : data[data.ndim() - 1];
  expect(node, inputs, 1, Shape{node.num_hidden, in_units});
  if (!node.no_bias) expect(node, inputs, 2, Shape{node.num_hidden});
  if (node.flatten) return Shape{data[0], node.num_hidden};
  Shape out = data;
  out[out.ndim() - 1] = node.num_hidden;
  return out;
}

Shape batch_norm_output(const Node& node, std::vector<std::optional<Shape>>& inputs) {
  const Shape data = require(node, inputs, 0);
  const int axis = node.batch_norm.axis < 0 ? node.batch_norm.axis + data.ndim() : node.batch_norm.axis;
  XP_CHECK(axis >= 0 && axis < data.ndim(), ValueError, "infer_shape: ", node.name, " (BatchNorm): axis ",
           node.batch_norm.axis, " is out of range for data of shape ", data);
  for (std::size_t i = 1; i < 5; ++i) expect(node, inputs, i, Shape{data[axis]});
  return data;
}

Shape regression_output(const Node& node, std::vector<std::optional<Shape>>& inputs) {
  const Shape data = require(node, inputs, 0);
  // A label of one value per sample fits data of shape (batch, 1), as in MXNet.
  const bool fits = inputs[1] && inputs[1]->ndim() >= 1 && data.ndim() >= 1 && (*inputs[1])[0] == data[0] &&
                    product(*inputs[1], 0) == product(data, 0);
  if (!fits) expect(node, inputs, 1, data);
  return data;
}

}  // namespace

Shape infer_output(const Node& node, std::vector<std::optional<Shape>>& inputs) {
  switch (node.op) {
    case Op::variable: break;
    case Op::fully_connected: return fully_connected_output(node, inputs);
    case Op::flatten: {
      const Shape& data = require(node, inputs, 0);
      XP_CHECK(data.ndim() >= 1, ValueError, "infer_shape: ", node.name, " (Flatten) needs an axis, not shape ", data);
      return Shape{data[0], product(data, 1)};
    }
    case Op::batch_norm: return batch_norm_output(node, inputs);
    case Op::softmax_output: {
      const Shape data = require(node, inputs, 0);
      XP_CHECK(data.ndim() >= 2, ValueError, "infer_shape: ", node.name,
               " (SoftmaxOutput) needs data of shape (batch, classes...), not ", data);
      expect(node, inputs, 1, Shape{data[0]});
      return data;
    }
    case Op::linear_regression_output: return regression_output(node, inputs);
    case Op::plus:
    case Op::minus:
    case Op::multiply:
    case Op::divide: {
      const std::size_t known = inputs[0] ? 0 : 1;
      const Shape shape = require(node, inputs, known);
      expect(node, inputs, 1 - known, shape);
      return shape;
    }
    case Op::activation:
    case Op::dropout:
    case Op::plus_scalar:
    case Op::minus_scalar:
    case Op::rminus_scalar:
    case Op::multiply_scalar:
    case Op::divide_scalar:
    case Op::rdivide_scalar: return require(node, inputs, 0);
  }
  XP_ASSERT(false);
  return {};
}

ndarray<> forward(const Node& node, std::span<const ndarray<>> in) {
  switch (node.op) {
    case Op::variable: break;
    case Op::fully_connected:
      return node.no_bias ? fully_connected(in[0], in[1], std::nullopt, node.flatten)
                          : fully_connected(in[0], in[1], in[2], node.flatten);
    case Op::activation:
      if (node.act_type == "relu") return relu(in[0]);
      if (node.act_type == "sigmoid") return in[0].sigmoid();
      if (node.act_type == "tanh") return in[0].tanh();
      if (node.act_type == "softrelu") return softrelu(in[0]);
      return softsign(in[0]);
    case Op::dropout: return dropout(in[0], node.p);
    case Op::flatten: return in[0].reshape(Shape{in[0].shape()[0], -1});
    case Op::batch_norm: return batch_norm(in[0], in[1], in[2], in[3], in[4], node.batch_norm);
    case Op::softmax_output: return softmax_output(in[0], in[1], node.softmax_output);
    case Op::linear_regression_output: return linear_regression_output(in[0], in[1], node.scalar);
    case Op::plus: return in[0] + in[1];
    case Op::minus: return in[0] - in[1];
    case Op::multiply: return in[0] * in[1];
    case Op::divide: return in[0] / in[1];
    case Op::plus_scalar: return in[0] + node.scalar;
    case Op::minus_scalar: return in[0] - node.scalar;
    case Op::rminus_scalar: return node.scalar - in[0];
    case Op::multiply_scalar: return in[0] * node.scalar;
    case Op::divide_scalar: return in[0] / node.scalar;
    case Op::rdivide_scalar: return node.scalar / in[0];
  }
  XP_ASSERT(false);
  return {};
}

}  // namespace xp::sym
