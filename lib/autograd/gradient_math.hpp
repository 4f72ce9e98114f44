#pragma once
// The arithmetic backwards are written in: the library's operations (never recorded) over arrays and
// scalars, and the sum that undoes a broadcast.
#include "xp/detail/reduction_ops.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

inline Operand arg(const ArrayCore& a) noexcept { return {&a, {}}; }
inline Operand arg(double value) noexcept { return {nullptr, scalar_value(value)}; }

ArrayCore apply(ElementwiseOp op, const Operand& a);
ArrayCore apply(ElementwiseOp op, const Operand& a, const Operand& b);
ArrayCore apply(ElementwiseOp op, const Operand& a, const Operand& b, const Operand& c);

// The complex conjugate of a complex array; a real one itself. Backwards of holomorphic functions f over
// complex numbers run their real formula as conj(formula(conj(g))): g * conj(f'(z)), PyTorch's convention
// (the gradient of a real loss L is dL/dx + i dL/dy).
ArrayCore conjugate(const ArrayCore& a);

// The sum of `grad` over the axes a broadcast from `shape` added or stretched, in `shape`.
ArrayCore sum_to(const ArrayCore& grad, const Shape& shape);
// A gradient fitted to its input: summed to the input's shape and converted to its dtype.
ArrayCore fit_to(const ArrayCore& grad, const ArrayCore& input);

ArrayCore sum(const ArrayCore& x, const Axes& axes, bool keepdims);
ArrayCore matmul(const ArrayCore& a, const ArrayCore& b);
// The reduction's result with its reduced axes put back as extent 1, so that it broadcasts to x.
ArrayCore with_reduced_axes(const ArrayCore& reduced, const Shape& input_shape, const Axes& axes, bool keepdims);

}  // namespace xp::detail
