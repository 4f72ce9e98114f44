#pragma once
/// \file
/// The neural-network functions (MXNet's nd.relu, nd.softmax, nd.pick, nd.FullyConnected, nd.Dropout,
/// nd.BatchNorm), each recorded for backward while autograd records. Float arrays only (TypeError
/// otherwise); the result has the input's dtype and device.
///
/// \code{.cpp}
///   xp::relu(x)  xp::softrelu(x) = log(1 + e^x)  xp::softsign(x) = x / (1 + |x|)   (sigmoid and tanh: math.hpp)
///   xp::softmax(x, axis)  xp::log_softmax(x, axis)                                   (axis -1 by default)
///   xp::pick(x, index, axis, keepdims)   x's element at index along axis; the index has x's shape without
///                                        the axis (or with it as 1), any dtype, truncated and clipped into
///                                        range (MXNet's mode 'clip')
///   xp::fully_connected(x, weight, bias, flatten)   x . weight^T + bias; weight (units, in_units); flatten:
///                                        x as (batch, in_units), else over x's last axis
///   xp::dropout(x, p)                    while training (autograd::is_training): zeros with probability p,
///                                        the rest scaled by 1 / (1 - p); otherwise x itself
///   xp::batch_norm(x, gamma, beta, running_mean, running_var, options)
///                                        training: normalised by the batch's mean and (biased) variance
///                                        over every axis but options.axis, and the running statistics
///                                        updated in place (running = momentum * running + (1 - momentum)
///                                        * batch); otherwise (or use_global_stats) by the running ones
///   xp::softmax_output(x, label, options)  MXNet's SoftmaxOutput: the softmax of each sample (x as (batch,
///                                        rest)); its backward is the cross-entropy's, (softmax - one_hot(label))
///                                        * grad_scale, whatever gradient comes from above
///   xp::linear_regression_output(x, label, grad_scale)   MXNet's LinearRegressionOutput: x itself (a copy);
///                                        its backward is (x - label) * grad_scale / (outputs per sample)
/// \endcode
#include <optional>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Gluon's BatchNorm defaults (nd.BatchNorm's are eps 1e-3 and fix_gamma true).
struct XP_API BatchNormOptions {
  double eps = 1e-5;  ///< added to the variance
  double momentum = 0.9;  ///< running = momentum * running + (1 - momentum) * batch
  int axis = 1;  ///< the channel axis, which keeps its own statistics
  bool fix_gamma = false;  ///< gamma taken as 1 (and given no gradient)
  bool use_global_stats = false;  ///< the running statistics also while training
};

/// SoftmaxOutput's options (MXNet's): the gradient is multiplied by grad_scale and divided by nothing
/// (null), the batch size (batch) or the number of labels not ignored (valid); with use_ignore, samples
/// labelled ignore_label get no gradient.
struct XP_API SoftmaxOutputOptions {
  /// What the gradient is divided by.
  enum class Normalization : std::uint8_t { null, batch, valid };
  double grad_scale = 1.0;  ///< the gradient's factor
  double ignore_label = -1.0;  ///< the label whose samples get no gradient (with use_ignore)
  bool use_ignore = false;  ///< whether ignore_label is honoured
  Normalization normalization = Normalization::null;  ///< null, batch or valid
};

/// \cond DETAIL
namespace detail::recorded {
enum class Activation : std::uint8_t { relu, softrelu, softsign };
XP_API ArrayCore activation(Activation kind, const ArrayCore& x);
XP_API ArrayCore softmax(const ArrayCore& x, int axis, bool log);
XP_API ArrayCore pick(const ArrayCore& x, const ArrayCore& index, int axis, bool keepdims);
XP_API ArrayCore fully_connected(const ArrayCore& x, const ArrayCore& weight, const ArrayCore* bias, bool flatten);
XP_API ArrayCore dropout(const ArrayCore& x, double p);
XP_API ArrayCore batch_norm(const ArrayCore& x, const ArrayCore& gamma, const ArrayCore& beta,
                            const ArrayCore& running_mean, const ArrayCore& running_var,
                            const BatchNormOptions& options);
XP_API ArrayCore softmax_output(const ArrayCore& x, const ArrayCore& label, const SoftmaxOutputOptions& options);
XP_API ArrayCore linear_regression_output(const ArrayCore& x, const ArrayCore& label, double grad_scale);
}  // namespace detail::recorded
/// \endcond

/// max(x, 0).
template <detail::array_face A>
A relu(const A& x) {
  return A(detail::recorded::activation(detail::recorded::Activation::relu, x));
}
/// log(1 + e^x).
template <detail::array_face A>
A softrelu(const A& x) {
  return A(detail::recorded::activation(detail::recorded::Activation::softrelu, x));
}
/// x / (1 + |x|).
template <detail::array_face A>
A softsign(const A& x) {
  return A(detail::recorded::activation(detail::recorded::Activation::softsign, x));
}
/// exp(x) / sum(exp(x)) along `axis`.
template <detail::array_face A>
A softmax(const A& x, int axis = -1) {
  return A(detail::recorded::softmax(x, axis, /*log=*/false));
}
/// log(softmax(x, axis)), computed stably.
template <detail::array_face A>
A log_softmax(const A& x, int axis = -1) {
  return A(detail::recorded::softmax(x, axis, /*log=*/true));
}
/// x's element at `index` along `axis`; indices are clipped into range (MXNet's mode 'clip').
template <detail::array_face A, detail::array_face I>
A pick(const A& x, const I& index, int axis = -1, bool keepdims = false) {
  return A(detail::recorded::pick(x, index, axis, keepdims));
}
/// x . weight^T + bias, weight (units, in_units); flatten: x as (batch, in_units), else over x's last axis.
template <detail::array_face A>
A fully_connected(const A& x, const A& weight, const A& bias, bool flatten = true) {
  return A(detail::recorded::fully_connected(x, weight, &bias, flatten));
}
/// x . weight^T, without a bias.
template <detail::array_face A>
A fully_connected(const A& x, const A& weight, std::nullopt_t /*no bias*/, bool flatten = true) {
  return A(detail::recorded::fully_connected(x, weight, nullptr, flatten));
}
/// While training, zeros with probability p and the rest scaled by 1 / (1 - p); otherwise x itself.
template <detail::array_face A>
A dropout(const A& x, double p = 0.5) {
  return A(detail::recorded::dropout(x, p));
}
/// Normalised by the batch's statistics while training (updating the running ones in place), else by the running ones.
template <detail::array_face A>
A batch_norm(const A& x, const A& gamma, const A& beta, const A& running_mean, const A& running_var,
             const BatchNormOptions& options = {}) {
  return A(detail::recorded::batch_norm(x, gamma, beta, running_mean, running_var, options));
}

/// MXNet's SoftmaxOutput: the softmax of each sample; backward gives (softmax - one_hot(label)) * grad_scale.
template <detail::array_face A, detail::array_face L>
A softmax_output(const A& x, const L& label, const SoftmaxOutputOptions& options = {}) {
  return A(detail::recorded::softmax_output(x, label, options));
}
/// MXNet's LinearRegressionOutput: x itself; backward gives (x - label) * grad_scale / outputs per sample.
template <detail::array_face A, detail::array_face L>
A linear_regression_output(const A& x, const L& label, double grad_scale = 1.0) {
  return A(detail::recorded::linear_regression_output(x, label, grad_scale));
}

}  // namespace xp
