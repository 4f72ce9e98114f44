#pragma once
/// \file
/// Gluon's losses (mx.gluon.loss, MXNet 1.x): each gives one value per sample, the mean over every
/// axis but batch_axis, recorded for backward like any other operation.
///
/// \code{.cpp}
///   xp::gluon::loss::L2Loss l2;                 // weight / 2 * (label - pred)^2
///   xp::gluon::loss::SoftmaxCrossEntropyLoss ce; // -log_softmax(pred)[label]
///   auto l = ce(net(x), labels); l.backward();   // head gradient ones: the gradient of the sum
/// \endcode
///
/// Labels are reshaped to the prediction's shape where the loss compares them elementwise, and
/// converted to its dtype.
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::gluon::loss {

/// A loss: one value per sample, recorded for backward.
class XP_API Loss {
 public:
  virtual ~Loss() = default;
  /// The loss of each sample of `pred` against `label`.
  virtual ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const = 0;

 protected:
  /// weight scales the loss; batch_axis is the axis of the samples.
  Loss(double weight, int batch_axis) : weight_(weight), batch_axis_(batch_axis) {}
  /// weight * loss, averaged over every axis but the batch axis.
  ndarray<> per_sample(const ndarray<>& loss) const;
  double weight_;  ///< the factor of every sample's loss
  int batch_axis_;  ///< the axis of the samples
};

/// weight / 2 * (label - pred)^2, averaged per sample.
class XP_API L2Loss : public Loss {
 public:
  /// With `weight` and the samples along `batch_axis`.
  explicit L2Loss(double weight = 1.0, int batch_axis = 0) : Loss(weight, batch_axis) {}
  /// The loss of each sample.
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;
};

/// weight * |label - pred|, averaged per sample.
class XP_API L1Loss : public Loss {
 public:
  /// With `weight` and the samples along `batch_axis`.
  explicit L1Loss(double weight = 1.0, int batch_axis = 0) : Loss(weight, batch_axis) {}
  /// The loss of each sample.
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;
};

/// sparse_label: label holds class indices (pred's shape without `axis`); otherwise a distribution of
/// pred's shape. from_logits: pred already holds log-probabilities.
class XP_API SoftmaxCrossEntropyLoss : public Loss {
 public:
  /// Over classes along `axis`; see the class's notes for sparse_label and from_logits.
  explicit SoftmaxCrossEntropyLoss(int axis = -1, bool sparse_label = true, bool from_logits = false,
                                   double weight = 1.0, int batch_axis = 0)
      : Loss(weight, batch_axis), axis_(axis), sparse_label_(sparse_label), from_logits_(from_logits) {}
  /// The loss of each sample.
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;

 private:
  int axis_;
  bool sparse_label_;
  bool from_logits_;
};

/// from_sigmoid: pred holds probabilities; otherwise scores, taken through a sigmoid that never overflows.
class XP_API SigmoidBinaryCrossEntropyLoss : public Loss {
 public:
  /// With probabilities (from_sigmoid) or scores as `pred`.
  explicit SigmoidBinaryCrossEntropyLoss(bool from_sigmoid = false, double weight = 1.0, int batch_axis = 0)
      : Loss(weight, batch_axis), from_sigmoid_(from_sigmoid) {}
  /// The loss of each sample.
  ndarray<> operator()(const ndarray<>& pred, const ndarray<>& label) const override;

 private:
  bool from_sigmoid_;
};

}  // namespace xp::gluon::loss
