#include "xp/loss.hpp"

#include <vector>

#include "xp/math.hpp"
#include "xp/nn_functions.hpp"
#include "xp/reductions.hpp"

namespace xp::gluon::loss {

namespace {

// The label with pred's shape and dtype (MXNet's _reshape_like).
ndarray<> like(const ndarray<>& label, const ndarray<>& pred) {
  XP_CHECK(label.size() == pred.size(), ValueError, "loss: a label of shape ", label.shape(),
           " does not match the prediction's shape ", pred.shape());
  const ndarray<> shaped = label.reshape(pred.shape());
  return shaped.dtype() == pred.dtype() ? shaped : shaped.astype(pred.dtype());
}

}  // namespace

ndarray<> Loss::per_sample(const ndarray<>& loss) const {
  const ndarray<> weighted = weight_ == 1.0 ? loss : loss * weight_;
  if (weighted.ndim() <= 1) return weighted;
  const int batch = batch_axis_ < 0 ? batch_axis_ + weighted.ndim() : batch_axis_;
  std::vector<int> others;
  for (int axis = 0; axis < weighted.ndim(); ++axis)
    if (axis != batch) others.push_back(axis);
  return mean(weighted, others);
}

ndarray<> L2Loss::operator()(const ndarray<>& pred, const ndarray<>& label) const {
  const ndarray<> difference = like(label, pred) - pred;
  return per_sample(difference * difference * 0.5);
}

ndarray<> L1Loss::operator()(const ndarray<>& pred, const ndarray<>& label) const {
  return per_sample(abs(like(label, pred) - pred));
}

ndarray<> SoftmaxCrossEntropyLoss::operator()(const ndarray<>& pred, const ndarray<>& label) const {
  const ndarray<> log_p = from_logits_ ? pred : log_softmax(pred, axis_);
  if (sparse_label_) return per_sample(-pick(log_p, label, axis_, /*keepdims=*/true));
  return per_sample(-sum(log_p * like(label, pred), axis_, /*keepdims=*/true));
}

ndarray<> SigmoidBinaryCrossEntropyLoss::operator()(const ndarray<>& pred, const ndarray<>& label) const {
  const ndarray<> y = like(label, pred);
  if (!from_sigmoid_)  // max(x, 0) - x * y + log(1 + e^-|x|)
    return per_sample(relu(pred) - pred * y + softrelu(-abs(pred)));
  constexpr double eps = 1e-12;
  return per_sample(-(log(pred + eps) * y + log(1.0 - pred + eps) * (1.0 - y)));
}

}  // namespace xp::gluon::loss
