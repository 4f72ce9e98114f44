#include "autograd/gradient_math.hpp"

#include <array>

#include "core/layout.hpp"
#include "xp/linalg.hpp"

namespace xp::detail {

ArrayCore apply(ElementwiseOp op, const Operand& a) {
  const std::array<Operand, 1> operands{a};
  return elementwise(op, operands);
}

ArrayCore apply(ElementwiseOp op, const Operand& a, const Operand& b) {
  const std::array<Operand, 2> operands{a, b};
  return elementwise(op, operands);
}

ArrayCore apply(ElementwiseOp op, const Operand& a, const Operand& b, const Operand& c) {
  const std::array<Operand, 3> operands{a, b, c};
  return elementwise(op, operands);
}

ArrayCore conjugate(const ArrayCore& a) { return is_complex(a.dtype()) ? apply(ElementwiseOp::conj, arg(a)) : a; }

ArrayCore sum(const ArrayCore& x, const Axes& axes, bool keepdims) {
  return reduce(Reduction::sum, x, axes, keepdims, 0);
}

ArrayCore matmul(const ArrayCore& a, const ArrayCore& b) { return product(Product::matmul, a, b, nullptr); }

ArrayCore sum_to(const ArrayCore& grad, const Shape& shape) {
  if (grad.shape() == shape) return grad;
  const int added = grad.ndim() - shape.ndim();
  XP_ASSERT(added >= 0);
  std::vector<int> axes;
  for (int axis = 0; axis < grad.ndim(); ++axis)
    if (axis < added || (shape[axis - added] == 1 && grad.shape()[axis] != 1)) axes.push_back(axis);
  return reshape(sum(grad, axes, /*keepdims=*/false), shape);
}

ArrayCore fit_to(const ArrayCore& grad, const ArrayCore& input) {
  const ArrayCore summed = sum_to(grad, input.shape());
  return summed.dtype() == input.dtype() ? summed : astype(summed, input.dtype());
}

ArrayCore with_reduced_axes(const ArrayCore& reduced, const Shape& input_shape, const Axes& axes, bool keepdims) {
  if (keepdims) return reduced;
  const int ndim = input_shape.ndim();
  const std::array<bool, kMaxNdim> chosen = reduced_axes("backward", axes, ndim);
  Shape shape;
  for (int axis = 0; axis < ndim; ++axis) shape.push_back(chosen[axis] ? 1 : input_shape[axis]);
  return reshape(reduced, shape);
}

}  // namespace xp::detail
