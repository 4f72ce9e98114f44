// dropout while training, and its backward (the same mask).
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "xp/nn_functions.hpp"
#include "xp/random.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

class DropoutBackward final : public Backward {
 public:
  explicit DropoutBackward(ArrayCore mask) : mask_(std::move(mask)) {}
  std::string_view name() const noexcept override { return "dropout"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    grads[0] = apply(Op::multiply, arg(g), arg(mask_));
  }

 private:
  ArrayCore mask_;  // 0 or 1 / (1 - p), in x's dtype
};

ArrayCore dropout_recorded(const ArrayCore& x, double p) {
  require_float("dropout", x);
  XP_CHECK(p >= 0.0 && p <= 1.0, ValueError, "dropout: the probability p = ", p, " is not in [0, 1]");
  if (!training() || p == 0.0) return x;
  const ArrayCore uniform = xp::random::default_generator().draw({.distribution = RandomCall::uniform, .a = 0, .b = 1},
                                                                 x.shape(), x.dtype(), x.device());
  const double keep = p < 1.0 ? 1.0 / (1.0 - p) : 0.0;
  ArrayCore mask = apply(Op::where, arg(apply(Op::greater_equal, arg(uniform), arg(p))), arg(keep), arg(0.0));
  if (mask.dtype() != x.dtype()) mask = astype(mask, x.dtype());
  ArrayCore y = apply(Op::multiply, arg(x), arg(mask));
  if (!must_record({&x})) return y;
  return connect(std::make_shared<DropoutBackward>(std::move(mask)), {&x}, y);
}

}  // namespace

ArrayCore recorded::dropout(const ArrayCore& x, double p) { return dropout_recorded(x, p); }

}  // namespace xp::detail
