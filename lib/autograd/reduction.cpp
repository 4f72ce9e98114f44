// The reductions' backwards: the output's gradient spread back over the reduced axes.
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

bool differentiable(Reduction r) noexcept {
  return r != Reduction::argmax && r != Reduction::argmin && r != Reduction::all && r != Reduction::any;
}

class ReductionBackward final : public Backward {
 public:
  ReductionBackward(Reduction r, const ArrayCore& x, const ArrayCore& y, const Axes& axes, bool keepdims,
                    std::int64_t ddof)
      : r_(r), x_(detached(x)), y_(detached(y)), axes_(axes), keepdims_(keepdims), ddof_(ddof) {}

  std::string_view name() const noexcept override { return reduction_name(r_); }
  std::vector<const ArrayCore*> saved() const override {
    if (r_ == Reduction::sum || r_ == Reduction::mean) return {};
    return {&x_, &y_};
  }

  void run(const ArrayCore& grad, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    if (needed[0]) grads[0] = fit_to(broadcast_to(gradient(grad), x_.shape()), x_);
  }

 private:
  // The gradient of x, in a shape that broadcasts to x's.
  ArrayCore gradient(const ArrayCore& grad, bool conjugated = false) const {
    const ArrayCore g = with_reduced_axes(grad, x_.shape(), axes_, keepdims_);
    const ArrayCore y = with_reduced_axes(y_, x_.shape(), axes_, keepdims_);
    const double count = y_.size() == 0 ? 0.0 : static_cast<double>(x_.size() / y_.size());
    const Operand x = arg(x_);
    switch (r_) {
      case Reduction::sum: return g;
      case Reduction::mean: return apply(Op::divide, arg(g), arg(count));
      case Reduction::max:
      case Reduction::min: {  // shared evenly by the elements that reached the extreme
        const ArrayCore reached = apply(Op::equal, x, arg(y));
        const ArrayCore ties = sum(reached, axes_, /*keepdims=*/true);
        return apply(Op::where, arg(reached), arg(apply(Op::divide, arg(g), arg(ties))), arg(0.0));
      }
      case Reduction::prod: {  // the product of the others, also where x has zeros; conjugated for complex x
        if (is_complex(x_.dtype()) && !conjugated) return conjugate(gradient(conjugate(grad), true));
        const ArrayCore zero = apply(Op::equal, x, arg(0.0));
        const ArrayCore zeros = sum(zero, axes_, /*keepdims=*/true);
        const ArrayCore others =
            reduce(Reduction::prod, apply(Op::where, arg(zero), arg(1.0), x), axes_, /*keepdims=*/true, 0);
        const ArrayCore no_zero = apply(Op::divide, arg(apply(Op::multiply, arg(g), arg(y))), x);
        const ArrayCore one_zero =
            apply(Op::where, arg(apply(Op::logical_and, arg(zero), arg(apply(Op::equal, arg(zeros), arg(1.0))))),
                  arg(apply(Op::multiply, arg(g), arg(others))), arg(0.0));
        return apply(Op::where, arg(apply(Op::equal, arg(zeros), arg(0.0))), arg(no_zero), arg(one_zero));
      }
      case Reduction::norm: {  // x / |x|, and 0 where the norm is 0
        const ArrayCore ratio = apply(Op::divide, arg(apply(Op::multiply, arg(g), x)), arg(y));
        return apply(Op::where, arg(apply(Op::equal, arg(y), arg(0.0))), arg(0.0), arg(ratio));
      }
      case Reduction::var:
      case Reduction::std: {
        const ArrayCore mean = reduce(Reduction::mean, x_, axes_, /*keepdims=*/true, 0);
        const ArrayCore deviation = apply(Op::subtract, x, arg(mean));
        const double divisor = count - static_cast<double>(ddof_);
        if (r_ == Reduction::var)
          return apply(Op::multiply, arg(deviation), arg(apply(Op::multiply, arg(g), arg(2.0 / divisor))));
        return apply(Op::divide, arg(apply(Op::multiply, arg(g), arg(deviation))),
                     arg(apply(Op::multiply, arg(y), arg(divisor))));
      }
      default: break;
    }
    XP_ASSERT(false);
    return g;
  }

  Reduction r_;
  ArrayCore x_, y_;
  Axes axes_;
  bool keepdims_;
  std::int64_t ddof_;
};

[[gnu::noinline]] ArrayCore record_reduction(Reduction r, const ArrayCore& x, const Axes& axes, bool keepdims,
                                             std::int64_t ddof) {
  ArrayCore y = reduce(r, x, axes, keepdims, ddof);
  if (!differentiable(r) || !is_inexact_dtype(y.dtype()) || !must_record({&x})) return y;
  return connect(std::make_shared<ReductionBackward>(r, x, y, axes, keepdims, ddof), {&x}, y);
}

}  // namespace

ArrayCore recorded::reduce(Reduction r, const ArrayCore& x, const Axes& axes, bool keepdims, std::int64_t ddof) {
  if (!recording()) [[likely]]
    return detail::reduce(r, x, axes, keepdims, ddof);
  return record_reduction(r, x, axes, keepdims, ddof);
}

}  // namespace xp::detail
