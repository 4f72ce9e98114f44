#pragma once
// MXNet 1.x's optimizers, as the Trainer uses them (mx.optimizer):
//
//   auto sgd = xp::optimizer::create("sgd", {{"learning_rate", 0.1}, {"momentum", 0.9}, {"wd", 1e-4}});
//   auto state = sgd->create_state(weight);
//   sgd->update(weight, grad, state, /*step=*/1);     // weight and state in place, on their device
//
// Each update is one fused elementwise kernel (xp::ElementwiseKernel: compiled once per device and
// dtype, cached on disk), with MXNet's formulas:
//   g = clip(rescale_grad * grad, clip_gradient)          (no clipping while clip_gradient < 0)
//   sgd:  mom = momentum * mom - lr * (g + wd * weight); weight += mom   (without momentum: no state)
//   adam: g += wd * weight before the clip; m = b1 m + (1 - b1) g; v = b2 v + (1 - b2) g^2;
//         weight -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(v) + epsilon)
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "xp/ndarray.hpp"

namespace xp::optimizer {

// Options by MXNet's names; an option the optimizer does not know is a ValueError naming it.
using Options = std::map<std::string, double>;

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // Zeroed state arrays for one weight (on its device), as many as the optimizer keeps.
  virtual std::vector<ndarray<>> create_state(const ndarray<>& weight) const = 0;
  // One update; `step` counts this weight's updates from 1 (Adam's bias correction).
  virtual void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
                      std::int64_t step) const = 0;

  const std::string& name() const noexcept { return name_; }
  double learning_rate;
  double wd = 0.0;
  double rescale_grad = 1.0;
  double clip_gradient = -1.0;

 protected:
  Optimizer(std::string name, double default_learning_rate)
      : learning_rate(default_learning_rate), name_(std::move(name)) {}
  // Sets the common options and those in `own` (name -> member) from `options`, rejecting any other;
  // called by the derived constructor once its members hold their defaults.
  void read_options(const Options& options, std::map<std::string, double*> own);

 private:
  std::string name_;
};

class SGD : public Optimizer {
 public:
  explicit SGD(const Options& options = {});
  std::vector<ndarray<>> create_state(const ndarray<>& weight) const override;
  void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
              std::int64_t step) const override;
  double momentum = 0.0;
};

class Adam : public Optimizer {
 public:
  explicit Adam(const Options& options = {});  // learning_rate 0.001
  std::vector<ndarray<>> create_state(const ndarray<>& weight) const override;
  void update(const ndarray<>& weight, const ndarray<>& grad, const std::vector<ndarray<>>& state,
              std::int64_t step) const override;
  double beta1 = 0.9;
  double beta2 = 0.999;
  double epsilon = 1e-8;
};

// "sgd" or "adam" (any case); ValueError for another name.
std::unique_ptr<Optimizer> create(const std::string& name, const Options& options = {});

}  // namespace xp::optimizer
