#pragma once
/// \file
/// Symbols (MXNet 1.x's mx.symbol): a network described once, as a graph of named operations, then
/// bound to arrays on a device as an Executor (`<xp/executor.hpp>`).
///
/// \code{.cpp}
///   auto data = xp::sym::var("data");
///   auto fc1 = xp::sym::FullyConnected(data, 8, "fc1");              // makes fc1_weight and fc1_bias
///   auto net = xp::sym::SoftmaxOutput(xp::sym::FullyConnected(xp::sym::Activation(fc1, "relu"), 3, "fc2"),
///                                     xp::sym::var("softmax_label"), "softmax");
///   net.list_arguments();  // data, fc1_weight, fc1_bias, fc2_weight, fc2_bias, softmax_label
///   net.list_outputs();    // softmax_output
///   auto exe = net.simple_bind(xp::cpu(0), {{"data", {12, 5}}, {"softmax_label", {12}}});
/// \endcode
///
/// Arguments are listed as MXNet lists them: depth first from the outputs, each operation's inputs in
/// order, every variable once. An operation without a name gets its lower-cased operator name and a
/// per-thread counter (fullyconnected0, activation1, _plus0), as MXNet's NameManager. BatchNorm's
/// moving mean and variance are auxiliary states, not arguments. Symbols are immutable values; copies
/// share the graph.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "xp/export.hpp"
#include "xp/nn_functions.hpp"
#include "xp/shape.hpp"

namespace xp {
class Executor;
}

namespace xp::sym {

struct Node;  ///< lib/symbol/graph.hpp

using ShapeDict = std::map<std::string, Shape>;
/// Argument dtypes by name, for simple_bind.
using TypeDict = std::map<std::string, xp::dtype>;

/// infer_shape's answer, each list in the order of list_arguments / list_outputs / list_auxiliary_states.
struct XP_API InferredShapes {
  std::vector<Shape> arguments;  ///< in list_arguments() order
  std::vector<Shape> outputs;  ///< in list_outputs() order
  std::vector<Shape> auxiliary_states;  ///< in list_auxiliary_states() order
};

/// A network as a graph of named operations; a value whose copies share the graph.
class XP_API Symbol {
 public:
  /// The variables the outputs depend on, depth first from the outputs (MXNet's order).
  std::vector<std::string> list_arguments() const;
  /// The outputs' names: each operation's name with "_output".
  std::vector<std::string> list_outputs() const;
  /// The auxiliary states (BatchNorm's moving statistics), in argument order.
  std::vector<std::string> list_auxiliary_states() const;
  /// The name of the (single) output's operation or variable.
  const std::string& name() const;

  /// Shapes from those of some arguments. ValueError when an argument's given shape disagrees with the
  /// one an operation needs (naming the argument, the operation and both shapes) or when a shape
  /// cannot be inferred (naming the argument to give).
  InferredShapes infer_shape(const ShapeDict& known) const;

  /// Allocates every argument (zeros; float32 unless `types` says otherwise), gradient and auxiliary
  /// state on `device`; arguments named in `grad_reqs` get that request, the others null.
  Executor simple_bind(Device device, const ShapeDict& shapes, const std::map<std::string, GradReq>& grad_reqs,
                       const TypeDict& types = {}) const;
  /// The same request for every argument (MXNet's grad_req='write').
  Executor simple_bind(Device device, const ShapeDict& shapes, GradReq grad_req = GradReq::write,
                       const TypeDict& types = {}) const;
  /// Binds the given arrays (all on `device`, used in place): every argument and auxiliary state by
  /// name, gradient buffers for those with a request other than null.
  Executor bind(Device device, const std::map<std::string, ndarray<>>& args,
                const std::map<std::string, ndarray<>>& args_grad, const std::map<std::string, GradReq>& grad_reqs,
                const std::map<std::string, ndarray<>>& aux_states = {}) const;

  /// The output nodes (the graph's roots), for the executor.
  const std::vector<std::shared_ptr<const Node>>& heads() const noexcept { return heads_; }
  /// A symbol over these output nodes (what the operator functions make).
  explicit Symbol(std::vector<std::shared_ptr<const Node>> heads) : heads_(std::move(heads)) {}

 private:
  std::vector<std::shared_ptr<const Node>> heads_;
};

/// A variable (an argument), with an optional shape that infer_shape then knows.
XP_API Symbol var(const std::string& name, std::optional<Shape> shape = std::nullopt);
/// Several symbols' outputs as one symbol (MXNet's sym.Group).
XP_API Symbol Group(const std::vector<Symbol>& symbols);

/// data . weight^T + bias, weight (num_hidden, in_units): arguments `<name>_weight` and `<name>_bias`.
XP_API Symbol FullyConnected(const Symbol& data, std::int64_t num_hidden, const std::string& name = "",
                             bool no_bias = false, bool flatten = true);
/// act_type: relu, sigmoid, tanh, softrelu or softsign.
XP_API Symbol Activation(const Symbol& data, const std::string& act_type, const std::string& name = "");
/// Zeroes each element with probability p in training and scales the rest by 1 / (1 - p); the identity otherwise.
XP_API Symbol Dropout(const Symbol& data, double p = 0.5, const std::string& name = "");
/// (batch, everything else).
XP_API Symbol Flatten(const Symbol& data, const std::string& name = "");
/// Arguments `<name>_gamma` and `<name>_beta`, auxiliary states `<name>_moving_mean` and `<name>_moving_var`.
/// nd.BatchNorm's defaults: eps 1e-3, fix_gamma true.
Symbol BatchNorm(const Symbol& data, const std::string& name = "",
                 const BatchNormOptions& options = {.eps = 1e-3, .momentum = 0.9, .axis = 1, .fix_gamma = true});
/// The softmax of each sample; the label (one class per sample) takes part in backward only.
XP_API Symbol SoftmaxOutput(const Symbol& data, const Symbol& label, const std::string& name = "",
                            const SoftmaxOutputOptions& options = {});
/// The same with the label variable `<name>_label` made for it.
XP_API Symbol SoftmaxOutput(const Symbol& data, const std::string& name);
/// (data - label)^2 / 2 as the loss of backward (scaled by grad_scale); forward is the identity.
XP_API Symbol LinearRegressionOutput(const Symbol& data, const Symbol& label, const std::string& name = "",
                                     double grad_scale = 1.0);

/// Elementwise arithmetic of symbols of one shape (MXNet's _plus, _minus, _mul, _div) and with scalars.
///@{
XP_API Symbol operator+(const Symbol& a, const Symbol& b);
XP_API Symbol operator-(const Symbol& a, const Symbol& b);
XP_API Symbol operator*(const Symbol& a, const Symbol& b);
XP_API Symbol operator/(const Symbol& a, const Symbol& b);
XP_API Symbol operator+(const Symbol& a, double b);
XP_API Symbol operator-(const Symbol& a, double b);
XP_API Symbol operator*(const Symbol& a, double b);
XP_API Symbol operator/(const Symbol& a, double b);
XP_API Symbol operator+(double a, const Symbol& b);
XP_API Symbol operator-(double a, const Symbol& b);
XP_API Symbol operator*(double a, const Symbol& b);
XP_API Symbol operator/(double a, const Symbol& b);
///@}

}  // namespace xp::sym
