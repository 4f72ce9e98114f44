// NumPy's tensor products made of matmul (the contraction), transposes, reshapes and multiplies: the
// operands are arranged as two matrices, (free a, summed) and (summed, free b), whose product is
// reshaped to the free axes. Every piece is a recorded operation, so autograd differentiates them.
#include "xp/tensor_products.hpp"

#include <algorithm>
#include <numeric>
#include <sstream>

#include "core/layout.hpp"
#include "xp/linalg.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

namespace {

std::string shapes_of(const ndarray<>& a, const ndarray<>& b) {
  std::ostringstream text;
  text << "(shapes " << a.shape() << " and " << b.shape() << ")";
  return text.str();
}

std::vector<int> normalized(const std::vector<int>& axes, int ndim, std::string_view op) {
  std::vector<int> out;
  for (const int axis : axes) out.push_back(detail::normalize_axis(axis, ndim, op));
  return out;
}

// The axes of an ndim-array not in `summed`, in order.
std::vector<int> free_axes(int ndim, const std::vector<int>& summed) {
  std::vector<int> out;
  for (int axis = 0; axis < ndim; ++axis)
    if (std::find(summed.begin(), summed.end(), axis) == summed.end()) out.push_back(axis);
  return out;
}

std::int64_t extent(const ndarray<>& a, const std::vector<int>& axes, Shape* shape) {
  std::int64_t n = 1;
  for (const int axis : axes) {
    n *= a.shape()[axis];
    if (shape) shape->push_back(a.shape()[axis]);
  }
  return n;
}

std::vector<int> joined(std::vector<int> first, const std::vector<int>& second) {
  first.insert(first.end(), second.begin(), second.end());
  return first;
}

}  // namespace

ndarray<> tensordot(const ndarray<>& a, const ndarray<>& b, const std::vector<int>& a_axes,
                    const std::vector<int>& b_axes) {
  XP_CHECK(a_axes.size() == b_axes.size(), ValueError, "tensordot: the axes lists differ in length (", a_axes.size(),
           " and ", b_axes.size(), ")");
  const std::vector<int> summed_a = normalized(a_axes, a.ndim(), "tensordot");
  const std::vector<int> summed_b = normalized(b_axes, b.ndim(), "tensordot");
  for (std::size_t k = 0; k < summed_a.size(); ++k)
    XP_CHECK(a.shape()[summed_a[k]] == b.shape()[summed_b[k]], ValueError, "tensordot: shape-mismatch for sum ",
             shapes_of(a, b), ": axis ", summed_a[k], " of a has ", a.shape()[summed_a[k]], ", axis ", summed_b[k],
             " of b ", b.shape()[summed_b[k]]);
  const std::vector<int> free_a = free_axes(a.ndim(), summed_a), free_b = free_axes(b.ndim(), summed_b);
  Shape result;
  const std::int64_t rows = extent(a, free_a, &result), columns = extent(b, free_b, &result);
  const std::int64_t inner_length = extent(a, summed_a, nullptr);
  const ndarray<> left = transpose(a, joined(free_a, summed_a)).reshape({rows, inner_length});
  const ndarray<> right = transpose(b, joined(summed_b, free_b)).reshape({inner_length, columns});
  return matmul(left, right).reshape(result);
}

ndarray<> tensordot(const ndarray<>& a, const ndarray<>& b, std::int64_t axes) {
  XP_CHECK(axes >= 0 && axes <= a.ndim() && axes <= b.ndim(), ValueError, "tensordot: cannot contract ", axes, " axes ",
           shapes_of(a, b));
  std::vector<int> a_axes(static_cast<std::size_t>(axes)), b_axes(static_cast<std::size_t>(axes));
  std::iota(a_axes.begin(), a_axes.end(), a.ndim() - static_cast<int>(axes));
  std::iota(b_axes.begin(), b_axes.end(), 0);
  return tensordot(a, b, a_axes, b_axes);
}

ndarray<> outer(const ndarray<>& a, const ndarray<>& b) {
  return multiply(ravel(a).reshape({a.size(), 1}), ravel(b).reshape({1, b.size()}));
}

ndarray<> inner(const ndarray<>& a, const ndarray<>& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiply(a, b);
  XP_CHECK(a.shape()[a.ndim() - 1] == b.shape()[b.ndim() - 1], ValueError, "inner: the last axes differ ",
           shapes_of(a, b));
  return tensordot(a, b, {-1}, {-1});
}

ndarray<> vdot(const ndarray<>& a, const ndarray<>& b) {
  XP_CHECK(a.size() == b.size(), ValueError, "vdot: the operands' sizes differ ", shapes_of(a, b));
  return matmul(ravel(conj(a)), ravel(b));
}

ndarray<> kron(const ndarray<>& a, const ndarray<>& b) {
  const int ndim = std::max(a.ndim(), b.ndim());
  Shape spread_a, spread_b, result;
  for (int axis = 0; axis < ndim; ++axis) {
    const int from_a = axis - (ndim - a.ndim()), from_b = axis - (ndim - b.ndim());
    const std::int64_t na = from_a < 0 ? 1 : a.shape()[from_a], nb = from_b < 0 ? 1 : b.shape()[from_b];
    spread_a.push_back(na);
    spread_a.push_back(1);
    spread_b.push_back(1);
    spread_b.push_back(nb);
    result.push_back(na * nb);
  }
  return multiply(a.reshape(spread_a), b.reshape(spread_b)).reshape(result);
}

}  // namespace xp
