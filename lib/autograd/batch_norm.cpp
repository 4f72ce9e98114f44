// batch_norm in training and inference, and its backward.
#include <vector>

#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

// Every axis but the channel axis.
std::vector<int> statistic_axes(int ndim, int channel) {
  std::vector<int> axes;
  for (int axis = 0; axis < ndim; ++axis)
    if (axis != channel) axes.push_back(axis);
  return axes;
}

ArrayCore mean_over(const ArrayCore& a, const std::vector<int>& axes) {
  return reduce(Reduction::mean, a, axes, /*keepdims=*/true, 0);
}

class BatchNormBackward final : public Backward {
 public:
  // normalized: (x - mean) / sqrt(var + eps); inv_std and gamma shaped to broadcast over x.
  BatchNormBackward(ArrayCore normalized, ArrayCore inv_std, ArrayCore gamma, std::vector<int> axes, Shape channels,
                    bool batch_statistics, bool fix_gamma)
      : normalized_(std::move(normalized)),
        inv_std_(std::move(inv_std)),
        gamma_(std::move(gamma)),
        axes_(std::move(axes)),
        channels_(channels),
        batch_statistics_(batch_statistics),
        fix_gamma_(fix_gamma) {}

  std::string_view name() const noexcept override { return "batch_norm"; }
  std::vector<const ArrayCore*> saved() const override { return {&normalized_, &inv_std_, &gamma_}; }

  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    if (needed[0]) {
      const ArrayCore scaled = fix_gamma_ ? g : apply(Op::multiply, arg(g), arg(gamma_));
      if (batch_statistics_) {  // the batch's mean and variance depend on x too
        const ArrayCore centred = apply(Op::subtract, arg(scaled), arg(mean_over(scaled, axes_)));
        const ArrayCore along = mean_over(apply(Op::multiply, arg(scaled), arg(normalized_)), axes_);
        grads[0] = apply(Op::multiply,
                         arg(apply(Op::subtract, arg(centred), arg(apply(Op::multiply, arg(normalized_), arg(along))))),
                         arg(inv_std_));
      } else {
        grads[0] = apply(Op::multiply, arg(scaled), arg(inv_std_));
      }
    }
    if (needed[1]) {
      grads[1] = fix_gamma_ ? detail::zeros(channels_, g.dtype(), g.device())
                            : reshape(sum(apply(Op::multiply, arg(g), arg(normalized_)), axes_, false), channels_);
    }
    if (needed[2]) grads[2] = reshape(sum(g, axes_, false), channels_);
  }

 private:
  ArrayCore normalized_, inv_std_, gamma_;
  std::vector<int> axes_;
  Shape channels_;
  bool batch_statistics_;
  bool fix_gamma_;
};

ArrayCore batch_norm_recorded(const ArrayCore& x, const ArrayCore& gamma, const ArrayCore& beta,
                              const ArrayCore& running_mean, const ArrayCore& running_var,
                              const BatchNormOptions& options) {
  constexpr std::string_view op = "batch_norm";
  require_float(op, x);
  const int channel = normalize_axis(options.axis, x.ndim(), op);
  const Shape channels{x.shape()[channel]};
  const ArrayCore* per_channel[] = {&gamma, &beta, &running_mean, &running_var};
  const char* names[] = {"gamma", "beta", "running_mean", "running_var"};
  for (int i = 0; i < 4; ++i) {
    XP_CHECK(per_channel[i]->shape() == channels, ValueError, op, ": ", names[i], " must have shape (", channels[0],
             ",) for ", x.shape(), " with channels on axis ", channel, ", not ", per_channel[i]->shape());
    XP_CHECK(per_channel[i]->dtype() == x.dtype(), TypeError, op, ": ", names[i], " is ", per_channel[i]->dtype(),
             " but the input is ", x.dtype());
  }
  const ArrayCore* everything[] = {&x, &gamma, &beta, &running_mean, &running_var};
  common_device(op, everything);

  Shape broadcast;  // (1, C, 1, ...): per-channel values over x
  for (int axis = 0; axis < x.ndim(); ++axis) broadcast.push_back(axis == channel ? channels[0] : 1);
  const std::vector<int> axes = statistic_axes(x.ndim(), channel);
  const bool batch_statistics = training() && !options.use_global_stats;

  ArrayCore mean, var;
  if (batch_statistics) {
    mean = mean_over(x, axes);
    var = reduce(Reduction::var, x, axes, /*keepdims=*/true, 0);
    for (auto [running, batch] : {std::pair{&running_mean, &mean}, std::pair{&running_var, &var}}) {
      const ArrayCore updated =
          apply(Op::add, arg(apply(Op::multiply, arg(*running), arg(options.momentum))),
                arg(apply(Op::multiply, arg(reshape(*batch, channels)), arg(1.0 - options.momentum))));
      copy_into(updated, *running);
    }
  } else {
    mean = reshape(running_mean, broadcast);
    var = reshape(running_var, broadcast);
  }
  const ArrayCore inv_std =
      apply(Op::divide, arg(1.0), arg(apply(Op::sqrt, arg(apply(Op::add, arg(var), arg(options.eps))))));
  const ArrayCore normalized = apply(Op::multiply, arg(apply(Op::subtract, arg(x), arg(mean))), arg(inv_std));
  const ArrayCore gamma_b = reshape(gamma, broadcast);
  const ArrayCore scaled = options.fix_gamma ? normalized : apply(Op::multiply, arg(normalized), arg(gamma_b));
  ArrayCore y = apply(Op::add, arg(scaled), arg(reshape(beta, broadcast)));
  const ArrayCore* inputs[] = {&x, &gamma, &beta};
  if (!must_record(inputs)) return y;
  return connect(std::make_shared<BatchNormBackward>(normalized, inv_std, detached(gamma_b), axes, channels,
                                                     batch_statistics, options.fix_gamma),
                 inputs, y);
}

}  // namespace

ArrayCore recorded::batch_norm(const ArrayCore& x, const ArrayCore& gamma, const ArrayCore& beta,
                               const ArrayCore& running_mean, const ArrayCore& running_var,
                               const BatchNormOptions& options) {
  return batch_norm_recorded(x, gamma, beta, running_mean, running_var, options);
}

}  // namespace xp::detail
