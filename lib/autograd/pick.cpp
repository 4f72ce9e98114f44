// pick: x's element at a given position along one axis (MXNet's nd.pick, mode 'clip'), and its backward.
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/nn_functions.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

// Where each index points along `axis`: a bool array of x's shape. The index has x's shape without
// the axis, or with it as extent 1.
ArrayCore chosen_positions(const ArrayCore& x, const ArrayCore& index, int axis) {
  const std::int64_t extent = x.shape()[axis];
  Shape without, with_one;
  for (int a = 0; a < x.ndim(); ++a) {
    if (a != axis) without.push_back(x.shape()[a]);
    with_one.push_back(a == axis ? 1 : x.shape()[a]);
  }
  XP_CHECK(index.shape() == without || index.shape() == with_one, ValueError, "pick: the index has shape ",
           index.shape(), " but an array of shape ", x.shape(), " picked along axis ", axis, " needs ", without);
  XP_CHECK(index.device() == x.device(), DeviceMismatchError, "pick: the index is on ", index.device(),
           " but the array is on ", x.device());
  XP_CHECK(extent > 0, ValueError, "pick: axis ", axis, " of ", x.shape(), " is empty");
  const ArrayCore whole = index.dtype() == xp::dtype::int64 ? index : astype(index, xp::dtype::int64);
  const ArrayCore clipped = apply(Op::clip, arg(whole), Operand{nullptr, scalar_value(std::int64_t{0})},
                                  Operand{nullptr, scalar_value(extent - 1)});
  Shape positions_shape;
  for (int a = 0; a < x.ndim(); ++a) positions_shape.push_back(a == axis ? extent : 1);
  const ArrayCore positions =
      reshape(detail::arange(0, static_cast<double>(extent), 1, xp::dtype::int64, x.device()), positions_shape);
  return apply(Op::equal, arg(positions), arg(reshape(clipped, with_one)));
}

class PickBackward final : public Backward {
 public:
  PickBackward(ArrayCore chosen, int axis, bool keepdims)
      : chosen_(std::move(chosen)), axis_(axis), keepdims_(keepdims) {}
  std::string_view name() const noexcept override { return "pick"; }
  void run(const ArrayCore& g, std::span<const bool>, std::span<ArrayCore> grads) const override {
    const ArrayCore spread = keepdims_ ? g : expand_dims(g, axis_);
    grads[0] = apply(Op::where, arg(chosen_), arg(spread), arg(0.0));
  }

 private:
  ArrayCore chosen_;
  int axis_;
  bool keepdims_;
};

ArrayCore pick_recorded(const ArrayCore& x, const ArrayCore& index, int axis, bool keepdims) {
  require_float("pick", x);
  const int normalized = normalize_axis(axis, x.ndim(), "pick");
  ArrayCore chosen = chosen_positions(x, index, normalized);
  ArrayCore y = sum(apply(Op::where, arg(chosen), arg(x), arg(0.0)), normalized, keepdims);
  if (!must_record({&x})) return y;
  return connect(std::make_shared<PickBackward>(std::move(chosen), normalized, keepdims), {&x}, y);
}

}  // namespace

ArrayCore recorded::pick(const ArrayCore& x, const ArrayCore& index, int axis, bool keepdims) {
  return pick_recorded(x, index, axis, keepdims);
}

}  // namespace xp::detail
