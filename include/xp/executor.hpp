#pragma once
/// \file
/// A symbol bound to arrays on one device (MXNet 1.x's mx.executor.Executor).
///
/// \code{.cpp}
///   auto exe = net.simple_bind(xp::cpu(0), {{"data", {12, 5}}, {"softmax_label", {12}}});
///   exe.arg_dict().at("data")[...] = ...;       // the bound arrays, used in place
///   exe.forward(/*is_train=*/true);             // exe.outputs()
///   exe.backward();                             // exe.grad_dict(): one gradient per argument with a request
/// \endcode
///
/// An executor runs each operation through the same function as autograd does (xp::fully_connected,
/// xp::batch_norm, ...): forward(true) records them, backward() is autograd's backward from the outputs
/// (output layers such as SoftmaxOutput ignore the head gradient, as in MXNet). Gradients with request
/// write are overwritten by each backward, with add summed into. An executor is used by one thread at a
/// time; executors on different threads run at once.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

namespace sym {
class Symbol;
}

/// Arrays by name.
using ArrayDict = std::map<std::string, ndarray<>>;

/// A symbol bound to arrays on one device (MXNet's Executor): forward, backward and the bound arrays.
class XP_API Executor {
 public:
  /// is_train: record for backward, dropout and batch_norm in training mode (batch_norm then updates
  /// the moving statistics in the auxiliary states).
  void forward(bool is_train = false);
  /// Gradients into grad_dict() from the outputs of the last forward(true); head_grads: one per output
  /// (none: ones).
  void backward(const std::vector<ndarray<>>& head_grads = {});

  const std::vector<ndarray<>>& outputs() const noexcept { return outputs_; }  ///< the outputs of the last forward
  /// In the order of list_arguments / list_auxiliary_states; an argument without a gradient has an
  /// empty array in grad_arrays.
  const std::vector<ndarray<>>& arg_arrays() const noexcept { return args_; }
  const std::vector<ndarray<>>& grad_arrays() const noexcept {
    return grads_;
  }  ///< list_arguments() order; empty where an argument has no gradient
  const std::vector<ndarray<>>& aux_arrays() const noexcept { return aux_; }  ///< list_auxiliary_states() order
  const std::vector<GradReq>& grad_reqs() const noexcept { return reqs_; }  ///< each argument's gradient request
  const ArrayDict& arg_dict() const noexcept { return arg_dict_; }  ///< every argument by name
  const ArrayDict& grad_dict() const noexcept { return grad_dict_; }  ///< arguments with a gradient only
  const ArrayDict& aux_dict() const noexcept { return aux_dict_; }  ///< every auxiliary state by name
  Device device() const noexcept { return device_; }  ///< the device of every bound array
  const sym::Symbol& symbol() const noexcept;  ///< the symbol that was bound

  /// Copies (converting the dtype) each named array into the argument or auxiliary state of that name;
  /// a name the symbol does not have is a ValueError unless allow_extra_params.
  void copy_params_from(const ArrayDict& arg_params, const ArrayDict& aux_params = {}, bool allow_extra_params = false);

  /// Called after each forward with every operation's output ("fc1_output") and, from a Monitor,
  /// inspected between tic and toc; none: nothing is called.
  using MonitorCallback = std::function<void(const std::string& name, const ndarray<>& value)>;
  /// Calls `callback` on every output during forward (MXNet's set_monitor_callback).
  void set_monitor_callback(MonitorCallback callback) { monitor_ = std::move(callback); }

  /// Made by Symbol::bind and simple_bind, which check every array.
  Executor(const sym::Symbol& symbol, Device device, std::vector<ndarray<>> args, std::vector<ndarray<>> grads,
           std::vector<GradReq> reqs, std::vector<ndarray<>> aux);

 private:
  struct Plan;  ///< the operations in order, and where each finds its inputs (lib/symbol/executor.cpp)
  std::shared_ptr<const Plan> plan_;
  Device device_;
  std::vector<ndarray<>> args_, grads_, aux_;
  std::vector<GradReq> reqs_;
  std::vector<ndarray<>> variables_;  ///< the arguments as autograd variables over the same buffers
  std::vector<ndarray<>> outputs_;
  ArrayDict arg_dict_, grad_dict_, aux_dict_;
  MonitorCallback monitor_;
  bool recorded_ = false;  ///< the last forward recorded a graph that backward has not used yet
};

}  // namespace xp
