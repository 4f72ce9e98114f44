#pragma once
// Gluon's losses (mx.gluon.loss, MXNet 1.x): each gives one value per sample, the mean over every
// axis but batch_axis, recorded for backward like any other operation.
//
//   xp::gluon::loss::L2Loss l2;                 // weight / 2 * (label - pred)^2
//   xp::gluon::loss::SoftmaxCrossEntropyLoss ce; // -log_softmax(pred)[label]
//   auto l = ce(net(x), labels); l.backward();   // head gradient ones: the gradient of the sum
//
// Labels are reshaped to the prediction's shape where the loss compares them elementwise, and
// converted to its dtype.
#include "xp/ndarray.hpp"

namespace xp::gluon::loss {

class Loss {
 public:
  virtual ~Loss() = default;
  virtual ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const = 0;

 protected:
  Loss(double weight, int batch_axis) : weight_(weight), batch_axis_(batch_axis) {}
  // weight * loss, averaged over every axis but the batch axis.
  ndarray<> per_sample(const ndarray<>& loss) const;
  double weight_;
  int batch_axis_;
};

class L2Loss : public Loss {
 public:
  explicit L2Loss(double weight = 1.0, int batch_axis = 0) : Loss(weight, batch_axis) {}
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;
};

class L1Loss : public Loss {
 public:
  explicit L1Loss(double weight = 1.0, int batch_axis = 0) : Loss(weight, batch_axis) {}
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;
};

// sparse_label: label holds class indices (pred's shape without `axis`); otherwise a distribution of
// pred's shape. from_logits: pred already holds log-probabilities.
class SoftmaxCrossEntropyLoss : public Loss {
 public:
  explicit SoftmaxCrossEntropyLoss(int axis = -1, bool sparse_label = true, bool from_logits = false,
                                   double weight = 1.0, int batch_axis = 0)
      : Loss(weight, batch_axis), axis_(axis), sparse_label_(sparse_label), from_logits_(from_logits) {}
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;

 private:
  int axis_;
  bool sparse_label_;
  bool from_logits_;
};

// from_sigmoid: pred holds probabilities; otherwise scores, taken through a sigmoid that never overflows.
class SigmoidBinaryCrossEntropyLoss : public Loss {
 public:
  explicit SigmoidBinaryCrossEntropyLoss(bool from_sigmoid = false, double weight = 1.0, int batch_axis = 0)
      : Loss(weight, batch_axis), from_sigmoid_(from_sigmoid) {}
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;

 private:
  bool from_sigmoid_;
};

}  // namespace xp::gluon::loss
