// The scans' backwards. cumsum's: the output gradient summed from the end (a reversed cumsum).
// cumprod's: where no zero came before, the same sum of g * y divided by x; at the first zero, the
// products that skip it; after it, nothing (every product there holds that zero). nancumsum and
// nancumprod: the same with NaNs as 0 and 1 (whose gradient is 0). Complex x: conj(f(x, y, conj(g))),
// PyTorch's convention (gradient_math.hpp).
#include <vector>

#include "api/ops/axis_ops.hpp"
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

// x reversed along `axis`.
ArrayCore reversed(const ArrayCore& x, int axis) {
  std::vector<Index> indices(static_cast<std::size_t>(x.ndim()), Index(slice()));
  indices[static_cast<std::size_t>(axis)] = slice(std::nullopt, std::nullopt, -1);
  return index(x, indices);
}

ArrayCore sums_from_end(const ArrayCore& g, int axis) {
  return reversed(scan_along(Scan::cumsum, reversed(g, axis), axis), axis);
}

// cumprod's gradient of a real x (along `axis` of the arrays as given).
ArrayCore product_gradient(const ArrayCore& x, const ArrayCore& y, const ArrayCore& g, int axis) {
  const ArrayCore zero = apply(Op::equal, arg(x), arg(0.0));
  const ArrayCore zeros_so_far = scan_along(Scan::cumsum, zero, axis);
  const ArrayCore first_zero = apply(Op::logical_and, arg(zero), arg(apply(Op::equal, arg(zeros_so_far), arg(1.0))));
  const ArrayCore before_zero = apply(Op::equal, arg(zeros_so_far), arg(0.0));
  const ArrayCore divided = apply(Op::divide, arg(sums_from_end(apply(Op::multiply, arg(g), arg(y)), axis)), arg(x));
  // At the first zero: the sum over j >= it of g_j times the product up to j without that zero.
  const ArrayCore skipping = scan_along(Scan::cumprod, apply(Op::where, arg(first_zero), arg(1.0), arg(x)), axis);
  const ArrayCore terms = apply(Op::where, arg(before_zero), arg(0.0), arg(apply(Op::multiply, arg(g), arg(skipping))));
  const ArrayCore at_zero = sum(terms, Axes{axis}, /*keepdims=*/true);
  return apply(Op::where, arg(before_zero), arg(divided),
               arg(apply(Op::where, arg(first_zero), arg(at_zero), arg(0.0))));
}

class ScanBackward final : public Backward {
 public:
  ScanBackward(Scan scan, const ArrayCore& x, const ArrayCore& y, std::optional<int> axis)
      : scan_(scan), x_(detached(x)), y_(detached(y)), axis_(axis) {}

  std::string_view name() const noexcept override { return scan_ == Scan::cumsum ? "cumsum" : "cumprod"; }
  std::vector<const ArrayCore*> saved() const override {
    if (scan_ == Scan::cumsum) return {};
    return {&x_, &y_};
  }

  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    // Without an axis the scan ran over the flattened x: so does its gradient.
    const ArrayCore x = axis_ ? x_ : reshape(x_, Shape{static_cast<std::int64_t>(x_.size())});
    const int axis = axis_.value_or(0);
    const bool nans = scan_ == Scan::nancumsum || scan_ == Scan::nancumprod;
    ArrayCore gradient;
    if (scan_ == Scan::cumsum || scan_ == Scan::nancumsum) {
      gradient = sums_from_end(g, axis);
    } else {
      const ArrayCore values = nans ? apply(Op::where, arg(apply(Op::not_equal, arg(x), arg(x))), arg(1.0), arg(x)) : x;
      gradient = is_complex(x.dtype()) ? conjugate(product_gradient(values, y_, conjugate(g), axis))
                                       : product_gradient(values, y_, g, axis);
    }
    if (nans) gradient = apply(Op::where, arg(apply(Op::not_equal, arg(x), arg(x))), arg(0.0), arg(gradient));
    grads[0] = fit_to(reshape(gradient, x_.shape()), x_);
  }

 private:
  Scan scan_;
  ArrayCore x_, y_;
  std::optional<int> axis_;
};

[[gnu::noinline]] ArrayCore record_scan(Scan scan, const ArrayCore& x, std::optional<int> axis) {
  const ArrayCore y = scan_along(scan, x, axis);
  return connect(std::make_shared<ScanBackward>(scan, x, y, axis), {&x}, y);
}

}  // namespace

ArrayCore recorded::scan(Scan scan, const ArrayCore& a, std::optional<int> axis) {
  if (recording() && is_inexact_dtype(a.dtype()) && must_record({&a})) [[unlikely]]
    return record_scan(scan, a, axis);
  return scan_along(scan, a, axis);
}

}  // namespace xp::detail
