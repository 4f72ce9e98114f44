// diff: n rounds of a[1:] - a[:-1] along the axis, from recorded views and subtractions, so its
// gradient is theirs.
#include <vector>

#include "autograd/graph.hpp"
#include "core/layout.hpp"
#include "xp/scans.hpp"

namespace xp::detail {

namespace {

ArrayCore part(const ArrayCore& x, int axis, slice range) {
  std::vector<Index> indices(static_cast<std::size_t>(x.ndim()), Index(slice()));
  indices[static_cast<std::size_t>(axis)] = range;
  return recorded::index(x, indices);
}

}  // namespace

ArrayCore recorded::diff(const ArrayCore& a, int n, int axis) {
  XP_CHECK(a.ndim() > 0, ValueError, "diff: requires input that is at least one dimensional");
  XP_CHECK(n >= 0, ValueError, "diff: order must be non-negative but got ", n);
  axis = normalize_axis(axis, a.ndim(), "diff");
  // NumPy's diff of booleans is not_equal (subtraction is not defined for them).
  const ElementwiseOp op = a.dtype() == xp::dtype::bool_ ? ElementwiseOp::not_equal : ElementwiseOp::subtract;
  ArrayCore x = a;
  for (int round = 0; round < n && x.shape()[axis] > 0; ++round) {
    const ArrayCore later = part(x, axis, slice(1, std::nullopt));
    const ArrayCore earlier = part(x, axis, slice(std::nullopt, -1));
    const std::array<Operand, 2> operands{Operand{&later, {}}, Operand{&earlier, {}}};
    x = recorded::elementwise(op, operands);
  }
  return x;
}

}  // namespace xp::detail
