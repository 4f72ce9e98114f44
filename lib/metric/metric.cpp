#include "xp/metric.hpp"

#include <cmath>
#include <limits>

#include "xp/reductions.hpp"

namespace xp::metric {

namespace {

std::vector<double> host_values(const ndarray<>& a) { return a.astype<double>().to_vector(); }

// MXNet's check_label_shapes, on the number of entries.
void check_counts(std::size_t labels, std::size_t preds) {
  XP_CHECK(labels == preds, ValueError, "Shape of labels ", labels, " does not match shape of predictions ", preds);
}

}  // namespace

void EvalMetric::update(const std::vector<ndarray<>>& labels, const std::vector<ndarray<>>& preds) {
  check_counts(labels.size(), preds.size());
  for (std::size_t i = 0; i < labels.size(); ++i) update_pair(labels[i], preds[i]);
}

std::pair<std::string, double> EvalMetric::get() const {
  if (num_inst_ == 0) return {name_, std::numeric_limits<double>::quiet_NaN()};
  return {name_, sum_metric_ / static_cast<double>(num_inst_)};
}

void EvalMetric::reset() noexcept {
  sum_metric_ = 0;
  num_inst_ = 0;
}

void Accuracy::update_pair(const ndarray<>& label, const ndarray<>& pred) {
  const ndarray<> pred_label = pred.shape() == label.shape() ? pred : ndarray<>(argmax(pred, axis_));
  const std::vector<double> predicted = host_values(pred_label), expected = host_values(label);
  check_counts(expected.size(), predicted.size());
  std::int64_t correct = 0;
  for (std::size_t i = 0; i < expected.size(); ++i)
    correct += static_cast<std::int32_t>(predicted[i]) == static_cast<std::int32_t>(expected[i]);
  sum_metric_ += static_cast<double>(correct);
  num_inst_ += static_cast<std::int64_t>(expected.size());
}

void MSE::update_pair(const ndarray<>& label, const ndarray<>& pred) {
  XP_CHECK(label.ndim() > 0 && pred.ndim() > 0 && label.size() == pred.size() && label.shape()[0] == pred.shape()[0],
           ValueError, "mse: labels of shape ", label.shape(), " do not match predictions of shape ", pred.shape());
  const std::vector<double> expected = host_values(label), predicted = host_values(pred);
  const auto samples = label.shape()[0];
  if (samples == 0) return;
  double squares = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const double difference = expected[i] - predicted[i];
    squares += difference * difference;
  }
  // The sum over samples of each sample's mean.
  sum_metric_ += squares / static_cast<double>(expected.size() / static_cast<std::size_t>(samples));
  num_inst_ += samples;
}

void CrossEntropy::update_pair(const ndarray<>& label, const ndarray<>& pred) {
  XP_CHECK(pred.ndim() == 2 && static_cast<std::int64_t>(label.size()) == pred.shape()[0], ValueError,
           "cross-entropy: predictions must be (samples, classes) with one label per sample; got labels of shape ",
           label.shape(), " and predictions of shape ", pred.shape());
  const std::vector<double> labels = host_values(label), probabilities = host_values(pred);
  const std::int64_t classes = pred.shape()[1];
  for (std::size_t row = 0; row < labels.size(); ++row) {
    const auto k = static_cast<std::int64_t>(labels[row]);
    XP_CHECK(k >= 0 && k < classes, ValueError, "cross-entropy: label ", labels[row], " of sample ", row,
             " is not a class of ", classes);
    const std::size_t at = row * static_cast<std::size_t>(classes) + static_cast<std::size_t>(k);
    sum_metric_ -= std::log(probabilities[at] + eps_);
  }
  num_inst_ += static_cast<std::int64_t>(labels.size());
}

}  // namespace xp::metric
