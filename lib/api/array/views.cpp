// Views: new shapes and strides over the same buffer.
#include <algorithm>
#include <vector>

#include "api/array/diagonal_view.hpp"
#include "api/ops/indexing.hpp"
#include "core/layout.hpp"
#include "support/shape_check.hpp"
#include "xp/ndarray.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

ArrayCore view(const ArrayCore& a, std::int64_t element_offset, const Shape& shape, const Strides& strides) {
  char* data = element_address(a, element_offset);
  return ArrayCore(ArrayInternals::buffer(a), data, shape, strides, a.device(), a.dtype());
}

}  // namespace

ArrayCore reshape(const ArrayCore& a, const Shape& shape) {
  const Shape resolved = resolve_reshape(shape, static_cast<std::int64_t>(a.size()));
  checked_bytes(resolved, a.dtype(), "reshape");  // a size-0 array's new extents may still overflow
  if (const auto strides = reshape_strides(a.shape(), a.strides(), resolved)) return view(a, 0, resolved, *strides);
  const ArrayCore contiguous = copy_to(a, a.device());
  return view(contiguous, 0, resolved, contiguous_strides(resolved));
}

ArrayCore transpose(const ArrayCore& a, std::span<const int> axes) {
  const int ndim = a.ndim();
  std::vector<int> order(static_cast<std::size_t>(ndim));
  if (axes.empty()) {
    for (int axis = 0; axis < ndim; ++axis) order[axis] = ndim - 1 - axis;
  } else {
    XP_CHECK(static_cast<int>(axes.size()) == ndim, ValueError, "transpose: ", axes.size(),
             " axes given for an array of dimension ", ndim);
    std::vector<bool> seen(static_cast<std::size_t>(ndim));
    for (int i = 0; i < ndim; ++i) {
      order[i] = normalize_axis(axes[i], ndim, "transpose");
      XP_CHECK(!seen[order[i]], ValueError, "transpose: repeated axis ", axes[i]);
      seen[order[i]] = true;
    }
  }
  Shape shape;
  Strides strides;
  for (int axis : order) {
    shape.push_back(a.shape()[axis]);
    strides.push_back(a.strides()[axis]);
  }
  return view(a, 0, shape, strides);
}

ArrayCore squeeze(const ArrayCore& a, const Axes& axes) {
  const std::array<bool, kMaxNdim> chosen = reduced_axes("squeeze", axes, a.ndim());
  Shape shape;
  Strides strides;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    const bool one = a.shape()[axis] == 1;
    XP_CHECK(axes.all() || !chosen[axis] || one, ValueError,
             "squeeze: cannot select an axis to squeeze out which has size not equal to one (axis ", axis, " has size ",
             a.shape()[axis], ")");
    if (chosen[axis] && one) continue;
    shape.push_back(a.shape()[axis]);
    strides.push_back(a.strides()[axis]);
  }
  return view(a, 0, shape, strides);
}

ArrayCore expand_dims(const ArrayCore& a, const Axes& axes) {
  XP_CHECK(!axes.all(), ValueError, "expand_dims: the axes of the new dimensions are needed");
  const int ndim = a.ndim() + static_cast<int>(axes.list().size());
  XP_CHECK(ndim <= kMaxNdim, ValueError, "expand_dims: an array of shape ", a.shape(), " with ", axes.list().size(),
           " new axes has ", ndim, " dimensions; arrays have at most ", kMaxNdim);
  const std::array<bool, kMaxNdim> added = reduced_axes("expand_dims", axes, ndim);
  Shape shape;
  Strides strides;
  int from = 0;
  for (int axis = 0; axis < ndim; ++axis) {
    if (added[axis]) {
      shape.push_back(1);
      strides.push_back(0);
    } else {
      shape.push_back(a.shape()[from]);
      strides.push_back(a.strides()[from]);
      ++from;
    }
  }
  return view(a, 0, shape, strides);
}

ArrayCore diagonal(const ArrayCore& a, std::int64_t offset, int axis1, int axis2) {
  XP_CHECK(a.ndim() >= 2, ValueError, "diagonal: needs an array of at least two dimensions, not ", a.ndim());
  const int first = normalize_axis(axis1, a.ndim(), "diagonal");
  const int second = normalize_axis(axis2, a.ndim(), "diagonal");
  XP_CHECK(first != second, ValueError, "diagonal: axis1 and axis2 cannot be the same (", axis1, " and ", axis2, ")");
  Shape shape;
  Strides strides;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    if (axis == first || axis == second) continue;
    shape.push_back(a.shape()[axis]);
    strides.push_back(a.strides()[axis]);
  }
  const std::int64_t rows = a.shape()[first], columns = a.shape()[second];
  const std::int64_t length =
      std::max<std::int64_t>(0, offset >= 0 ? std::min(rows, columns - offset) : std::min(rows + offset, columns));
  // The first element, (0, offset) or (-offset, 0); none when the diagonal is empty.
  const std::int64_t start = length == 0   ? 0
                             : offset >= 0 ? offset * a.strides()[second]
                                           : -offset * a.strides()[first];
  shape.push_back(length);
  strides.push_back(a.strides()[first] + a.strides()[second]);
  return view(a, start, shape, strides);
}

ArrayCore index(const ArrayCore& a, std::span<const Index> indices) {
  return gather_index(a, indices, kernels::IndexMode::raise, "index");
}

ArrayCore broadcast_to(const ArrayCore& a, const Shape& shape) {
  checked_bytes(shape, a.dtype(), "broadcast_to");
  return view(a, 0, shape, broadcast_strides(a.shape(), a.strides(), shape));
}

}  // namespace xp::detail
