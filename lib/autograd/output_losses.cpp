// MXNet's output layers SoftmaxOutput and LinearRegressionOutput: the forward is the prediction, the
// backward is the gradient of the loss they stand for (cross-entropy, squared error), whatever the
// gradient arriving from above. Symbols' executors train through them.
#include <algorithm>

#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "xp/creation.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

void check_label(std::string_view op, const ArrayCore& x, const ArrayCore& label, std::int64_t expected_size) {
  XP_CHECK(label.device() == x.device(), DeviceMismatchError, op, ": the label is on ", label.device(),
           " but the data is on ", x.device());
  XP_CHECK(static_cast<std::int64_t>(label.size()) == expected_size, ValueError, op, ": a label of shape ",
           label.shape(), " does not fit data of shape ", x.shape(), " (", expected_size, " labels expected)");
}

class SoftmaxOutputBackward final : public Backward {
 public:
  SoftmaxOutputBackward(const ArrayCore& probabilities, const ArrayCore& label, const SoftmaxOutputOptions& options)
      : probabilities_(detached(probabilities)), label_(detached(label)), options_(options) {}
  std::string_view name() const noexcept override { return "SoftmaxOutput"; }
  std::vector<const ArrayCore*> saved() const override { return {&probabilities_, &label_}; }
  void run(const ArrayCore&, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    const Shape& shape = probabilities_.shape();
    const std::int64_t rows = shape[0],
                       classes = static_cast<std::int64_t>(probabilities_.size()) / std::max<std::int64_t>(rows, 1);
    const ArrayCore p = reshape(probabilities_, Shape{rows, classes});
    const ArrayCore column = reshape(astype(label_, xp::dtype::int64), Shape{rows, 1});
    const ArrayCore classes_row =
        reshape(detail::arange(0, static_cast<double>(classes), 1, xp::dtype::int64, p.device()), Shape{1, classes});
    ArrayCore grad = apply(Op::subtract, arg(p), arg(apply(Op::equal, arg(column), arg(classes_row))));
    double scale = options_.grad_scale;
    double valid = static_cast<double>(rows);
    if (options_.use_ignore) {
      const ArrayCore kept = apply(Op::not_equal, arg(reshape(label_, Shape{rows, 1})), arg(options_.ignore_label));
      grad = apply(Op::where, arg(kept), arg(grad), arg(0.0));
      copy_to_host(sum(astype(kept, xp::dtype::float64), std::nullopt, false), &valid, "SoftmaxOutput with use_ignore");
    }
    if (options_.normalization == SoftmaxOutputOptions::Normalization::batch) scale /= static_cast<double>(rows);
    if (options_.normalization == SoftmaxOutputOptions::Normalization::valid) scale /= std::max(valid, 1.0);
    grads[0] = reshape(apply(Op::multiply, arg(grad), arg(scale)), shape);
    if (needed.size() > 1 && needed[1]) grads[1] = detail::zeros(label_.shape(), label_.dtype(), label_.device());
  }

 private:
  ArrayCore probabilities_;
  ArrayCore label_;
  SoftmaxOutputOptions options_;
};

ArrayCore softmax_output_recorded(const ArrayCore& x, const ArrayCore& label, const SoftmaxOutputOptions& options) {
  require_float("SoftmaxOutput", x);
  XP_CHECK(x.ndim() >= 2, ValueError, "SoftmaxOutput: the data must have a batch axis and a class axis, not shape ",
           x.shape());
  check_label("SoftmaxOutput", x, label, x.shape()[0]);
  const std::int64_t rows = x.shape()[0];
  const std::int64_t classes = rows == 0 ? 0 : static_cast<std::int64_t>(x.size()) / rows;
  // The softmax of each sample over all its other axes; detached, so that it is not recorded itself.
  ArrayCore y = reshape(recorded::softmax(reshape(detached(x), Shape{rows, classes}), -1, false), x.shape());
  if (!must_record({&x, &label})) return y;
  return connect(std::make_shared<SoftmaxOutputBackward>(y, label, options), {&x, &label}, y);
}

class LinearRegressionOutputBackward final : public Backward {
 public:
  LinearRegressionOutputBackward(const ArrayCore& y, const ArrayCore& label, double grad_scale)
      : y_(detached(y)), label_(detached(label)), grad_scale_(grad_scale) {}
  std::string_view name() const noexcept override { return "LinearRegressionOutput"; }
  std::vector<const ArrayCore*> saved() const override { return {&y_, &label_}; }
  void run(const ArrayCore&, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    // MXNet divides by the number of outputs per sample.
    const std::int64_t rows = label_.ndim() == 0 ? 1 : std::max<std::int64_t>(label_.shape()[0], 1);
    const double outputs_per_sample = static_cast<double>(label_.size()) / static_cast<double>(rows);
    const ArrayCore difference = apply(Op::subtract, arg(y_), arg(reshape(label_, y_.shape())));
    grads[0] = apply(Op::multiply, arg(difference), arg(grad_scale_ / std::max(outputs_per_sample, 1.0)));
    if (needed.size() > 1 && needed[1]) grads[1] = detail::zeros(label_.shape(), label_.dtype(), label_.device());
  }

 private:
  ArrayCore y_;
  ArrayCore label_;
  double grad_scale_;
};

ArrayCore linear_regression_output_recorded(const ArrayCore& x, const ArrayCore& label, double grad_scale) {
  require_float("LinearRegressionOutput", x);
  check_label("LinearRegressionOutput", x, label, static_cast<std::int64_t>(x.size()));
  ArrayCore y = copy_to(x, x.device());
  if (!must_record({&x, &label})) return y;
  return connect(std::make_shared<LinearRegressionOutputBackward>(y, label, grad_scale), {&x, &label}, y);
}

}  // namespace

ArrayCore recorded::softmax_output(const ArrayCore& x, const ArrayCore& label, const SoftmaxOutputOptions& options) {
  return softmax_output_recorded(x, label, options);
}

ArrayCore recorded::linear_regression_output(const ArrayCore& x, const ArrayCore& label, double grad_scale) {
  return linear_regression_output_recorded(x, label, grad_scale);
}

}  // namespace xp::detail
