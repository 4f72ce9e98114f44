// softmax and log_softmax over one axis, with their backwards.
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

class SoftmaxBackward final : public Backward {
 public:
  SoftmaxBackward(const ArrayCore& y, int axis, bool log) : y_(detached(y)), axis_(axis), log_(log) {}
  std::string_view name() const noexcept override { return log_ ? "log_softmax" : "softmax"; }
  std::vector<const ArrayCore*> saved() const override { return {&y_}; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    if (log_) {  // g - softmax * sum(g)
      const ArrayCore total = sum(g, axis_, /*keepdims=*/true);
      grads[0] = apply(Op::subtract, arg(g), arg(apply(Op::multiply, arg(apply(Op::exp, arg(y_))), arg(total))));
    } else {  // y * (g - sum(g * y))
      const ArrayCore weighted = sum(apply(Op::multiply, arg(g), arg(y_)), axis_, /*keepdims=*/true);
      grads[0] = apply(Op::multiply, arg(y_), arg(apply(Op::subtract, arg(g), arg(weighted))));
    }
  }

 private:
  ArrayCore y_;
  int axis_;
  bool log_;
};

ArrayCore softmax_recorded(const ArrayCore& x, int axis, bool log) {
  const std::string_view op = log ? "log_softmax" : "softmax";
  require_float(op, x);
  // Shifted by the maximum, so that exp never overflows.
  const ArrayCore shifted = apply(Op::subtract, arg(x), arg(reduce(Reduction::max, x, axis, /*keepdims=*/true, 0)));
  const ArrayCore e = apply(Op::exp, arg(shifted));
  const ArrayCore total = sum(e, axis, /*keepdims=*/true);
  ArrayCore y =
      log ? apply(Op::subtract, arg(shifted), arg(apply(Op::log, arg(total)))) : apply(Op::divide, arg(e), arg(total));
  if (!must_record({&x})) return y;
  return connect(std::make_shared<SoftmaxBackward>(y, axis, log), {&x}, y);
}

}  // namespace

ArrayCore recorded::softmax(const ArrayCore& x, int axis, bool log) { return softmax_recorded(x, axis, log); }

}  // namespace xp::detail
