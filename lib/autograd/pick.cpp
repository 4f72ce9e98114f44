// pick: x's element at a given position along one axis (MXNet's nd.pick, mode 'clip'): a gather
// (take_along_axis with positions clipped), recorded as gathers are.
#include "api/ops/indexing.hpp"
#include "autograd/gather.hpp"
#include "autograd/nn_checks.hpp"
#include "core/layout.hpp"
#include "xp/nn_functions.hpp"

namespace xp::detail {

namespace {

// The index as int64 positions with x's shape and extent 1 along the axis. The index has x's shape
// without the axis, or with it as extent 1.
ArrayCore positions_of(const ArrayCore& x, const ArrayCore& index, int axis) {
  Shape without, with_one;
  for (int a = 0; a < x.ndim(); ++a) {
    if (a != axis) without.push_back(x.shape()[a]);
    with_one.push_back(a == axis ? 1 : x.shape()[a]);
  }
  XP_CHECK(index.shape() == without || index.shape() == with_one, ValueError, "pick: the index has shape ",
           index.shape(), " but an array of shape ", x.shape(), " picked along axis ", axis, " needs ", without);
  XP_CHECK(index.device() == x.device(), DeviceMismatchError, "pick: the index is on ", index.device(),
           " but the array is on ", x.device());
  XP_CHECK(x.shape()[axis] > 0, ValueError, "pick: axis ", axis, " of ", x.shape(), " is empty");
  const ArrayCore whole = index.dtype() == xp::dtype::int64 ? index : astype(index, xp::dtype::int64);
  return reshape(whole, with_one);
}

}  // namespace

ArrayCore recorded::pick(const ArrayCore& x, const ArrayCore& index, int axis, bool keepdims) {
  require_float("pick", x);
  const int normalized = normalize_axis(axis, x.ndim(), "pick");
  const ArrayCore positions = positions_of(x, index, normalized);
  const ArrayCore picked =
      recorded_gather(x, along_axis_index(x, positions, normalized), kernels::IndexMode::clip, "pick");
  if (keepdims) return picked;
  Shape without;
  for (int a = 0; a < x.ndim(); ++a)
    if (a != normalized) without.push_back(x.shape()[a]);
  return recorded::reshape(picked, without);
}

}  // namespace xp::detail
