// NumPy's average and ptp, made of the built-in reductions and elementwise operations, so that
// autograd records each step.
#include <algorithm>
#include <numeric>
#include <vector>

#include "core/layout.hpp"
#include "xp/math.hpp"
#include "xp/reduction_routines.hpp"
#include "xp/reductions.hpp"

namespace xp {

namespace {

// The weights laid out to broadcast against a: as they are when they have a's shape; otherwise they give
// a's extents along the axes, in the order the axes are given (NumPy's rule), and become a's shape with
// 1 along the other axes.
ndarray<> broadcastable_weights(const ndarray<>& a, const Axes& axes, const ndarray<>& weights) {
  if (weights.shape() == a.shape()) return weights;
  XP_CHECK(!axes.all(), TypeError, "average: the axes must be given when a's shape ", a.shape(),
           " and the weights' shape ", weights.shape(), " differ");
  std::vector<int> along;
  Shape expected;
  for (const int axis : axes.list()) {
    along.push_back(detail::normalize_axis(axis, a.ndim(), "average"));
    expected.push_back(a.shape()[static_cast<std::size_t>(along.back())]);
  }
  XP_CHECK(weights.shape() == expected, ValueError, "average: the weights' shape ", weights.shape(),
           " is not a's extents along the axes, ", expected);
  std::vector<int> order(along.size());  // the weights' axes in the order of a's
  std::iota(order.begin(), order.end(), 0);
  std::ranges::sort(order, {}, [&](int i) { return along[static_cast<std::size_t>(i)]; });
  Shape laid_out = a.shape();
  for (int k = 0; k < a.ndim(); ++k)
    if (std::ranges::find(along, k) == along.end()) laid_out[static_cast<std::size_t>(k)] = 1;
  return ndarray<>(detail::recorded::transpose(weights, order)).reshape(laid_out);
}

}  // namespace

ndarray<> average(const ndarray<>& a, const Axes& axes, const std::optional<ndarray<>>& weights, bool keepdims) {
  if (!weights) return mean(a, axes, keepdims);
  const xp::dtype type = detail::average_dtype(a.dtype(), weights->dtype());
  const ndarray<> w = broadcastable_weights(a, axes, *weights).astype(type);
  const ndarray<> weight_sums = sum(w, axes, keepdims);
  XP_CHECK(!any(equal(weight_sums, 0)).item<bool>(), ValueError,
           "average: the weights sum to zero over a slice, which cannot be normalized");
  return divide(sum(multiply(a, w), axes, keepdims), weight_sums);
}

ndarray<> ptp(const ndarray<>& a, const Axes& axes, bool keepdims) {
  return subtract(max(a, axes, keepdims), min(a, axes, keepdims));
}

}  // namespace xp
