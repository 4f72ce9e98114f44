#pragma once
/// \file
/// MXNet 1.x's optimizers, as the Trainer uses them (mx.optimizer):
///
/// \code{.cpp}
///   auto sgd = xp::optimizer::create("sgd", {{"learning_rate", 0.1}, {"momentum", 0.9}, {"wd", 1e-4}});
///   auto state = sgd->create_state(weight);
///   sgd->update(weight, grad, state, /*step=*/1);     // weight and state in place, on their device
/// \endcode
///
/// Each update is one fused elementwise kernel (xp::ElementwiseKernel: compiled once per device and
/// dtype, cached on disk), with MXNet's formulas:
/// \code{.cpp}
///   g = clip(rescale_grad * grad, clip_gradient)          (no clipping while clip_gradient < 0)
///   sgd:  mom = momentum * mom - lr * (g + wd * weight); weight += mom   (without momentum: no state)
///   adam: g += wd * weight before the clip; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
///         weight -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + epsilon)
/// \endcode
#include <concepts>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::optimizer {

/// Options by MXNet's names; an option the optimizer does not know is a ValueError naming it.
using Options = std::map<std::string, double>;
/// The tag of the optimizers' constructors from Options.
struct ByName {};
inline constexpr ByName by_name{};  ///< the ByName tag

/// An update rule for one weight and its gradient, with the options MXNet's optimizers share.
class XP_API Optimizer {
 public:
  virtual ~Optimizer() = default;
  /// Zeroed state arrays for one weight (on its device), as many as the optimizer keeps.
  virtual std::vector<ndarray<>> create_state(const ndarray<>& weight) const = 0;
  /// One update; `step` counts this weight's updates from 1 (Adam's bias correction).
  virtual void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
                      std::int64_t step) const = 0;

  const std::string& name() const noexcept { return name_; }  ///< "sgd" or "adam"
  double learning_rate;  ///< lr, the step size
  double wd = 0.0;  ///< weight decay, added to the gradient as wd * weight
  double rescale_grad = 1.0;  ///< the gradient's factor before anything else (the Trainer's 1 / batch size)
  double clip_gradient = -1.0;  ///< clip the gradient into [-clip_gradient, clip_gradient]; negative: no clipping

 protected:
  /// The optimizer's name and its default learning rate.
  Optimizer(std::string name, double default_learning_rate)
      : learning_rate(default_learning_rate), name_(std::move(name)) {}
  /// Sets the common options and those in `own` (name -> member) from `options`, rejecting any other;
  /// called by the derived constructor once its members hold their defaults.
  void read_options(const Options& options, std::map<std::string, double*> own);

 private:
  std::string name_;
};

/// SGD's options by name, for designated initializers: `SGD({.learning_rate = 0.1, .momentum = 0.9})`
/// is `SGD({{"learning_rate", 0.1}, {"momentum", 0.9}})`.
struct SGDOptions {
  double learning_rate = 0.01;  ///< the step size
  double momentum = 0.0;  ///< 0: no momentum state
  double wd = 0.0;  ///< weight decay
  double rescale_grad = 1.0;  ///< the gradient's factor
  double clip_gradient = -1.0;  ///< negative: no clipping
};

/// Adam's options by name, for designated initializers: `Adam({.learning_rate = 1e-3, .beta2 = 0.99})`.
struct AdamOptions {
  double learning_rate = 0.001;  ///< the step size
  double beta1 = 0.9;  ///< the first moment's decay
  double beta2 = 0.999;  ///< the second moment's decay
  double epsilon = 1e-8;  ///< added to sqrt(v)
  double wd = 0.0;  ///< weight decay
  double rescale_grad = 1.0;  ///< the gradient's factor
  double clip_gradient = -1.0;  ///< negative: no clipping
};

/// Stochastic gradient descent with optional momentum (MXNet's sgd).
class XP_API SGD : public Optimizer {
 public:
  /// Options: learning_rate (0.01), momentum, wd, rescale_grad, clip_gradient. (A template only so that
  /// braces of designated initializers choose SGDOptions: GCC 12 finds the map viable too.)
  template <std::same_as<Options> Map = Options>
  explicit SGD(const Map& options = {}) : SGD(by_name, options) {}
  /// The same, with the options by name.
  explicit SGD(const SGDOptions& options);
  std::vector<ndarray<>> create_state(const ndarray<>& weight) const override;
  void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
              std::int64_t step) const override;
  double momentum = 0.0;  ///< 0: no momentum state

 private:
  SGD(ByName, const Options& options);
};

/// Adam (MXNet's adam).
class XP_API Adam : public Optimizer {
 public:
  /// Options: learning_rate (0.001), beta1, beta2, epsilon, wd, rescale_grad, clip_gradient (a template
  /// for the reason SGD's is).
  template <std::same_as<Options> Map = Options>
  explicit Adam(const Map& options = {}) : Adam(by_name, options) {}
  /// The same, with the options by name.
  explicit Adam(const AdamOptions& options);
  std::vector<ndarray<>> create_state(const ndarray<>& weight) const override;
  void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
              std::int64_t step) const override;
  double beta1 = 0.9;  ///< the first moment's decay
  double beta2 = 0.999;  ///< the second moment's decay
  double epsilon = 1e-8;  ///< added to sqrt(v)

 private:
  Adam(ByName, const Options& options);
};

/// "sgd" or "adam" (any case); ValueError for another name.
XP_API std::unique_ptr<Optimizer> create(const std::string& name, const Options& options = {});

}  // namespace xp::optimizer
