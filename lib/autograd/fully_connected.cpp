// fully_connected (MXNet's FullyConnected): x . weight^T + bias, and its backward.
#include "autograd/gradient_math.hpp"
#include "autograd/graph.hpp"
#include "autograd/nn_checks.hpp"
#include "xp/linalg.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

ArrayCore transposed(const ArrayCore& a) { return transpose(a, {}); }

// x as the matrix the product takes: (batch, rest) when flattened, else (rest, last axis).
ArrayCore as_rows(const ArrayCore& x, bool flatten) {
  if (x.ndim() == 0) return reshape(x, {1, 1});
  const std::int64_t columns =
      flatten ? (x.shape()[0] == 0 ? 0 : static_cast<std::int64_t>(x.size()) / x.shape()[0]) : x.shape()[x.ndim() - 1];
  const std::int64_t rows = columns == 0 ? (flatten ? x.shape()[0] : static_cast<std::int64_t>(x.size()))
                                         : static_cast<std::int64_t>(x.size()) / columns;
  return reshape(x, {rows, columns});
}

Shape output_shape(const ArrayCore& x, std::int64_t units, bool flatten) {
  Shape shape;
  if (flatten) {
    shape.push_back(x.ndim() == 0 ? 1 : x.shape()[0]);
  } else {
    for (int axis = 0; axis + 1 < x.ndim(); ++axis) shape.push_back(x.shape()[axis]);
  }
  shape.push_back(units);
  return shape;
}

class FullyConnectedBackward final : public Backward {
 public:
  FullyConnectedBackward(const ArrayCore& x, const ArrayCore& weight, bool flatten)
      : x_(detached(x)), weight_(detached(weight)), flatten_(flatten) {}
  std::string_view name() const noexcept override { return "fully_connected"; }
  std::vector<const ArrayCore*> saved() const override { return {&x_, &weight_}; }
  void run(const ArrayCore& g, std::span<const bool> needed, std::span<ArrayCore> grads) const override {
    const ArrayCore rows = reshape(g, {-1, weight_.shape()[0]});
    if (needed[0]) grads[0] = reshape(matmul(rows, weight_), x_.shape());
    if (needed[1]) grads[1] = matmul(transposed(rows), as_rows(x_, flatten_));
    if (needed.size() > 2 && needed[2]) grads[2] = sum(rows, 0, /*keepdims=*/false);
  }

 private:
  ArrayCore x_, weight_;
  bool flatten_;
};

ArrayCore fully_connected_recorded(const ArrayCore& x, const ArrayCore& weight, const ArrayCore* bias, bool flatten) {
  constexpr std::string_view op = "fully_connected";
  require_float(op, x);
  XP_CHECK(weight.dtype() == x.dtype() && (!bias || bias->dtype() == x.dtype()), TypeError, op,
           ": the weight and bias must have the input's dtype ", x.dtype(), ", not ", weight.dtype(),
           bias ? " and " : "", bias ? bias->dtype() : weight.dtype());
  XP_CHECK(weight.ndim() == 2, ValueError, op, ": the weight must be (units, in_units), not ", weight.shape());
  const std::int64_t units = weight.shape()[0];
  const ArrayCore rows = as_rows(x, flatten);
  XP_CHECK(rows.shape()[1] == weight.shape()[1], ValueError, op, ": an input of shape ", x.shape(), " gives ",
           rows.shape()[1], " features per row", flatten ? "" : " (its last axis)", " but the weight ", weight.shape(),
           " takes ", weight.shape()[1]);
  XP_CHECK(!bias || bias->shape() == Shape{units}, ValueError, op, ": the bias must have shape (", units, ",), not ",
           bias->shape());
  ArrayCore y = matmul(rows, transposed(weight));
  if (bias) {
    const std::array<Operand, 2> operands{arg(y), arg(*bias)};
    elementwise(Op::add, operands, y);
  }
  y = reshape(y, output_shape(x, units, flatten));
  static const ArrayCore no_bias;
  const std::array<const ArrayCore*, 3> inputs{&x, &weight, bias ? bias : &no_bias};
  const auto used = std::span(inputs.data(), bias ? 3 : 2);
  if (!must_record(used)) return y;
  return connect(std::make_shared<FullyConnectedBackward>(x, weight, flatten), used, y);
}

}  // namespace

ArrayCore recorded::fully_connected(const ArrayCore& x, const ArrayCore& weight, const ArrayCore* bias, bool flatten) {
  return fully_connected_recorded(x, weight, bias, flatten);
}

}  // namespace xp::detail
