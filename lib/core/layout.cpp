#include "core/layout.hpp"

#include <algorithm>
#include <sstream>

#include "support/shape_check.hpp"
#include "xp/error.hpp"

namespace xp::detail {

bool is_c_contiguous(const Shape& shape, const Strides& strides) noexcept {
  std::int64_t expected = 1;
  bool contiguous = true;
  for (int axis = shape.ndim() - 1; axis >= 0; --axis) {
    if (shape[axis] == 0) return true;
    if (shape[axis] != 1) contiguous = contiguous && strides[axis] == expected;
    expected *= shape[axis];
  }
  return contiguous;
}

void squash_axes(Shape& shape, std::span<Strides* const> strides) {
  Shape squashed;
  int kept = 0;
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    const std::int64_t extent = shape[axis];
    if (extent == 1) continue;
    bool mergeable = kept > 0;
    for (const Strides* s : strides) mergeable = mergeable && (*s)[kept - 1] == (*s)[axis] * extent;
    if (mergeable) {
      squashed[kept - 1] *= extent;
      for (Strides* s : strides) (*s)[kept - 1] = (*s)[axis];
    } else {
      squashed.push_back(extent);
      for (Strides* s : strides) (*s)[kept] = (*s)[axis];
      ++kept;
    }
  }
  for (Strides* s : strides) *s = Strides(s->span().first(static_cast<std::size_t>(kept)));
  shape = squashed;
}

Shape resolve_reshape(const Shape& requested, std::int64_t size) {
  int unknown = -1;
  // The product of the given non-zero extents: one that overflows cannot be the size of an array.
  std::int64_t known = 1;
  bool zero = false, overflow = false;
  for (int axis = 0; axis < requested.ndim(); ++axis) {
    const std::int64_t extent = requested[axis];
    if (extent == -1) {
      XP_CHECK(unknown < 0, ValueError, "reshape: can only specify one unknown dimension in ", requested);
      unknown = axis;
    } else {
      XP_CHECK(extent >= 0, ValueError, "reshape: negative dimensions are not allowed: ", requested);
      if (extent == 0) zero = true;
      else overflow |= __builtin_mul_overflow(known, extent, &known);
    }
  }
  // An overflowed product has wrapped (to 0, say): it is neither divided by nor compared.
  const bool fits = !overflow && (unknown >= 0 ? !zero && size % known == 0 : (zero ? 0 : known) == size);
  Shape resolved = requested;
  if (fits && unknown >= 0) resolved[unknown] = size / known;
  XP_CHECK(fits, ValueError, "reshape: cannot reshape array of size ", size, " into shape ", requested);
  return resolved;
}

std::optional<Strides> reshape_strides(const Shape& shape, const Strides& strides, const Shape& new_shape) {
  Strides result;
  for (int axis = 0; axis < new_shape.ndim(); ++axis) result.push_back(0);
  if (numel(shape) == 0) return contiguous_strides(new_shape);

  // Axes of extent 1 carry no layout information.
  Shape old_shape;
  Strides old_strides;
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    if (shape[axis] == 1) continue;
    old_shape.push_back(shape[axis]);
    old_strides.push_back(strides[axis]);
  }
  // Walk groups of old and new axes that hold the same number of elements; each old group must be
  // contiguous in itself for the new group to be expressible with strides.
  int oi = 0, oj = 1, ni = 0, nj = 1;
  const int old_ndim = old_shape.ndim(), new_ndim = new_shape.ndim();
  while (ni < new_ndim && oi < old_ndim) {
    std::int64_t np = new_shape[ni], op = old_shape[oi];
    while (np != op) {
      if (np < op) np *= new_shape[nj++];
      else op *= old_shape[oj++];
    }
    for (int ok = oi; ok < oj - 1; ++ok)
      if (old_strides[ok] != old_shape[ok + 1] * old_strides[ok + 1]) return std::nullopt;
    result[nj - 1] = old_strides[oj - 1];
    for (int nk = nj - 1; nk > ni; --nk) result[nk - 1] = result[nk] * new_shape[nk];
    ni = nj++;
    oi = oj++;
  }
  const std::int64_t last = ni >= 1 ? result[ni - 1] : 1;
  for (int nk = ni; nk < new_ndim; ++nk) result[nk] = last;
  return result;
}

bool walks_with_unit_stride(const Shape& shape, std::span<const Strides* const> strides) noexcept {
  if (shape.ndim() > 1) return false;
  if (shape.ndim() == 0) return true;
  return std::all_of(strides.begin(), strides.end(), [](const Strides* s) { return (*s)[0] == 1; });
}

Shape broadcast_shapes(std::string_view op, std::span<const Shape* const> shapes) {
  int ndim = 0;
  for (const Shape* s : shapes) ndim = std::max(ndim, s->ndim());
  Shape result;
  for (int axis = 0; axis < ndim; ++axis) result.push_back(1);
  for (const Shape* s : shapes) {
    const int lead = ndim - s->ndim();
    for (int axis = 0; axis < s->ndim(); ++axis) {
      std::int64_t& extent = result[lead + axis];
      const std::int64_t other = (*s)[axis];
      if (other == extent || other == 1) continue;
      if (extent != 1) {
        std::ostringstream list;
        for (const Shape* t : shapes) list << ' ' << *t;
        throw ValueError(op, ": operands could not be broadcast together with shapes", list.str());
      }
      extent = other;
    }
  }
  checked_numel(result, op);  // (2^40, 1) and (1, 2^40) each fit; together they do not
  return result;
}

Strides broadcast_strides(const Shape& shape, const Strides& strides, const Shape& to) {
  const auto fail = [&] {
    return ValueError("broadcast_to: cannot broadcast an array of shape ", shape, " to shape ", to);
  };
  if (shape.ndim() > to.ndim()) throw fail();
  Strides result;
  const int lead = to.ndim() - shape.ndim();
  for (int axis = 0; axis < to.ndim(); ++axis) {
    if (axis < lead) {
      result.push_back(0);
      continue;
    }
    const std::int64_t extent = shape[axis - lead];
    if (extent == to[axis]) result.push_back(strides[axis - lead]);
    else if (extent == 1) result.push_back(0);
    else throw fail();
  }
  return result;
}

std::array<bool, kMaxNdim> reduced_axes(std::string_view op, const Axes& axes, int ndim) {
  std::array<bool, kMaxNdim> reduce{};
  if (axes.all()) {
    reduce.fill(true);
    return reduce;
  }
  for (int axis : axes.list()) {
    XP_CHECK(axis >= -ndim && axis < ndim, ValueError, op, ": axis ", axis, " is out of bounds for array of dimension ",
             ndim);
    const int a = axis < 0 ? axis + ndim : axis;
    XP_CHECK(!reduce[a], ValueError, op, ": duplicate value in 'axis'");
    reduce[a] = true;
  }
  return reduce;
}

std::vector<int> last_two_swapped(int ndim) {
  std::vector<int> order(static_cast<std::size_t>(ndim));
  for (int axis = 0; axis < ndim; ++axis) order[static_cast<std::size_t>(axis)] = axis;
  std::swap(order[order.size() - 1], order[order.size() - 2]);
  return order;
}

int normalize_axis(int axis, int ndim, std::string_view op) {
  XP_CHECK(axis >= -ndim && axis < ndim, ValueError, op, ": axis ", axis,
           " is out of bounds for an array of dimension ", ndim);
  return axis < 0 ? axis + ndim : axis;
}

std::pair<std::int64_t, std::int64_t> offset_range(const Shape& shape, const Strides& strides) {
  std::int64_t low = 0, high = 0;
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    const std::int64_t span = (shape[axis] - 1) * strides[axis];
    (span < 0 ? low : high) += span;
  }
  return {low, high};
}

}  // namespace xp::detail
