#pragma once
/// \file
/// Evaluation metrics (mx.metric, MXNet 1.x; MSE weighted by sample as MXNet 2):
///
/// \code{.cpp}
///   xp::metric::Accuracy acc;            // axis 1: predictions of another shape are argmax'ed over it
///   acc.update({labels}, {outputs});     // lists of arrays, one pair per device or output
///   auto [name, value] = acc.get();      // {"accuracy", correct / seen}; NaN before any update
///   acc.reset();
/// \endcode
///
/// As MXNet, the arrays are read on the host (its metrics call asnumpy()), in float64.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::metric {

/// A metric accumulated over batches (MXNet's mx.metric.EvalMetric).
class XP_API EvalMetric {
 public:
  virtual ~EvalMetric() = default;
  /// One update per pair; ValueError when the lists differ in length ("Shape of labels 2 does not match
  /// shape of predictions 1", MXNet's text) or a pair does not fit together.
  void update(const std::vector<ndarray<>>& labels, const std::vector<ndarray<>>& preds);
  /// {name, sum / count}; NaN while nothing has been counted.
  std::pair<std::string, double> get() const;
  /// Forgets what was counted.
  void reset() noexcept;
  const std::string& name() const noexcept { return name_; }  ///< "accuracy", "cross-entropy", ...

 protected:
  /// A metric reported under `name`.
  explicit EvalMetric(std::string name) : name_(std::move(name)) {}
  /// Adds one pair's sum of the metric and the number of instances it covers.
  virtual void update_pair(const ndarray<>& label, const ndarray<>& pred) = 0;
  double sum_metric_ = 0;  ///< the sum of the metric over the instances counted
  std::int64_t num_inst_ = 0;  ///< the number of instances counted

 private:
  std::string name_;
};

/// The fraction of correct predictions: predictions whose shape differs from the labels' are the argmax
/// over `axis`; both are compared as integers, element by element.
class XP_API Accuracy : public EvalMetric {
 public:
  /// Predictions are class scores along `axis` (their argmax is compared), or already labels when of the label's shape.
  explicit Accuracy(int axis = 1) : EvalMetric("accuracy"), axis_(axis) {}

 private:
  void update_pair(const ndarray<>& label, const ndarray<>& pred) override;
  int axis_;
};

/// Mean squared error per sample (the mean over a sample's values), averaged over samples: a batch of
/// n counts n times (MXNet 2; MXNet 1.x counted each update once, whatever its size).
class XP_API MSE : public EvalMetric {
 public:
  MSE() : EvalMetric("mse") {}

 private:
  void update_pair(const ndarray<>& label, const ndarray<>& pred) override;
};

/// -log(p + eps) of the probability each row of the predictions gives its label, averaged over rows.
class XP_API CrossEntropy : public EvalMetric {
 public:
  /// `eps` keeps log away from 0.
  explicit CrossEntropy(double eps = 1e-12) : EvalMetric("cross-entropy"), eps_(eps) {}

 private:
  void update_pair(const ndarray<>& label, const ndarray<>& pred) override;
  double eps_;
};

}  // namespace xp::metric
