// relu, softrelu and softsign, with their backwards.
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;
using recorded::Activation;

std::string_view activation_name(Activation kind) noexcept {
  return kind == Activation::relu ? "relu" : kind == Activation::softrelu ? "softrelu" : "softsign";
}

// 1 + |x|
ArrayCore one_plus_abs(const ArrayCore& x) { return apply(Op::add, arg(apply(Op::abs, arg(x))), arg(1.0)); }

ArrayCore forward(Activation kind, const ArrayCore& x) {
  switch (kind) {
    case Activation::relu: return apply(Op::maximum, arg(x), arg(0.0));
    case Activation::softrelu:  // log(1 + e^x) = max(x, 0) + log1p(e^-|x|), which never overflows
      return apply(Op::add, arg(apply(Op::maximum, arg(x), arg(0.0))),
                   arg(apply(Op::log1p, arg(apply(Op::exp, arg(apply(Op::negative, arg(apply(Op::abs, arg(x))))))))));
    case Activation::softsign: return apply(Op::divide, arg(x), arg(one_plus_abs(x)));
  }
  XP_ASSERT(false);
  return x;
}

class ActivationBackward final : public Backward {
 public:
  ActivationBackward(Activation kind, const ArrayCore& x) : kind_(kind), x_(detached(x)) {}
  std::string_view name() const noexcept override { return activation_name(kind_); }
  std::vector<const ArrayCore*> saved() const override { return {&x_}; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    switch (kind_) {
      case Activation::relu:
        grads[0] = apply(Op::where, arg(apply(Op::greater, arg(x_), arg(0.0))), arg(g), arg(0.0));
        return;
      case Activation::softrelu: grads[0] = apply(Op::multiply, arg(g), arg(apply(Op::sigmoid, arg(x_)))); return;
      case Activation::softsign: {
        const ArrayCore d = one_plus_abs(x_);
        grads[0] = apply(Op::divide, arg(g), arg(apply(Op::multiply, arg(d), arg(d))));
        return;
      }
    }
  }

 private:
  Activation kind_;
  ArrayCore x_;
};

ArrayCore activation_recorded(Activation kind, const ArrayCore& x) {
  require_float(activation_name(kind), x);
  ArrayCore y = forward(kind, x);
  if (!must_record({&x})) return y;
  return connect(std::make_shared<ActivationBackward>(kind, x), {&x}, y);
}

}  // namespace

ArrayCore recorded::activation(Activation kind, const ArrayCore& x) { return activation_recorded(kind, x); }

}  // namespace xp::detail
