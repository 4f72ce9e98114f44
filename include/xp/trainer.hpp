#pragma once
/// \file
/// Gluon's Trainer (MXNet 1.x): applies an optimizer to a set of parameters, on every device they live on.
///
/// \code{.cpp}
///   xp::gluon::Trainer trainer(net.collect_params(), "sgd", {{"learning_rate", 0.1}, {"momentum", 0.9}});
///   { xp::autograd::record r; loss(net(x), y).backward(); }
///   trainer.step(batch_size);   // sums each gradient over the devices, then w <- update(w, sum / batch_size)
/// \endcode
///
/// Every device's copy is updated with the same summed gradient, so replicas stay identical. A parameter
/// whose gradient no backward wrote since the last step is MXNet's UserWarning (unless ignore_stale_grad,
/// which skips it).
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "xp/export.hpp"
#include "xp/kvstore.hpp"
#include "xp/optimizer.hpp"
#include "xp/parameter.hpp"

namespace xp::gluon {

/// The Trainer's options by name, for designated initializers (MXNet's keyword arguments):
/// `Trainer(params, {.optimizer = "adam", .optimizer_params = {{"learning_rate", 1e-3}}, .kvstore = "local"})`.
struct TrainerOptions {
  std::string optimizer = "sgd";  ///< a name optimizer::create knows
  optimizer::Options optimizer_params{};  ///< its options by MXNet's names
  std::string kvstore = "device";  ///< a type kvstore::create knows
};

/// Gluon's Trainer: sums gradients over devices (and processes) through a kvstore, then updates every copy.
class XP_API Trainer {
 public:
  /// Parameters in name order. kvstore: a type of kvstore::create ("device", "local", "nccl", "dist_sync"),
  /// which sums the gradients of parameters on several devices (keyed by parameter name, initialised at
  /// the first step, as MXNet's Trainer). "dist_sync" also sums over processes (xp::dist): the
  /// parameters take rank 0's values when the Trainer is made (at the first step if some were deferred),
  /// after a check that every process has the same names, dtypes and shapes; step(batch_size) takes
  /// this process's batch and rescales by 1 / (batch_size * processes).
  Trainer(const ParameterDict& params, std::string_view optimizer, const optimizer::Options& options = {},
          const std::string& kvstore = "device");
  /// The same, with the options by name.
  Trainer(const ParameterDict& params, const TrainerOptions& options);
  /// The same with an optimizer already made.
  Trainer(const ParameterDict& params, std::unique_ptr<optimizer::Optimizer> optimizer,
          const std::string& kvstore = "device");

  /// allreduce_grads() then update(batch_size): the gradient is rescaled by rescale_grad / batch_size.
  void step(double batch_size, bool ignore_stale_grad = false);
  /// Sums every parameter's gradients over its devices, into each device's gradient (the kvstore's pushpull).
  void allreduce_grads();
  /// The optimizer's update of every copy, from its own (already summed) gradient.
  void update(double batch_size, bool ignore_stale_grad = false);

  double learning_rate() const noexcept { return optimizer_->learning_rate; }  ///< the optimizer's
  void set_learning_rate(double lr) noexcept { optimizer_->learning_rate = lr; }  ///< for the next updates
  const optimizer::Optimizer& optimizer() const noexcept { return *optimizer_; }  ///< the update rule

 private:
  struct Slot {  ///< one parameter: its optimizer state per device and its update count
    Parameter param;
    std::vector<std::vector<ndarray<>>> state;
    std::int64_t updates = 0;
  };
  /// The devices every parameter shares (MXNet's check, at the first step as MXNet).
  void check_devices();
  /// Every parameter into the kvstore; across processes also rank 0's values onto every replica and the
  /// gradients packed.
  void init_kvstore();
  /// Each device's gradients of one dtype become views of one buffer, back to back in allreduce_grads'
  /// order, so that the sum across processes runs where they lie (no copies into a bucket).
  void pack_gradients();

  std::vector<Slot> slots_;
  std::unique_ptr<optimizer::Optimizer> optimizer_;
  kvstore::KVStore kvstore_;
  double scale_;  ///< the optimizer's own rescale_grad
  bool devices_checked_ = false;
  bool kvstore_ready_ = false;  ///< init_kvstore has run
};

}  // namespace xp::gluon
