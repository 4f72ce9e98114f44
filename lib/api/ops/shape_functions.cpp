// NumPy's shape functions that are not plain views: concatenate and stack (copies), split (views).
#include "xp/shape_functions.hpp"

#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "core/layout.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

namespace {

// The parts of `a` along `axis` between consecutive bounds, as views.
std::vector<ArrayCore> parts_between(const ArrayCore& a, int axis, std::span<const std::int64_t> bounds) {
  std::vector<Index> indices(static_cast<std::size_t>(axis) + 1, Index(slice()));
  std::vector<ArrayCore> parts;
  parts.reserve(bounds.size() - 1);
  for (std::size_t k = 0; k + 1 < bounds.size(); ++k) {
    indices[axis] = Index(slice(bounds[k], bounds[k + 1]));
    parts.push_back(index(a, indices));
  }
  return parts;
}

}  // namespace

ArrayCore concatenate(std::span<const ArrayCore* const> arrays, int axis, std::string_view op) {
  XP_CHECK(!arrays.empty(), ValueError, op, ": need at least one array to ", op);
  const ArrayCore& first = *arrays[0];
  XP_CHECK(first.ndim() > 0, ValueError, op, ": zero-dimensional arrays cannot be concatenated");
  const Device device = common_device(op, arrays);
  const int along = normalize_axis(axis, first.ndim(), op);
  Shape shape = first.shape();
  xp::dtype type = first.dtype();
  for (std::size_t k = 1; k < arrays.size(); ++k) {
    const ArrayCore& a = *arrays[k];
    XP_CHECK(a.ndim() == first.ndim(), ValueError, op,
             ": all the input arrays must have same number of dimensions, but the array at index 0 has ", first.ndim(),
             " dimension(s) and the array at index ", k, " has ", a.ndim(), " dimension(s)");
    for (int d = 0; d < first.ndim(); ++d) {
      XP_CHECK(d == along || a.shape()[d] == first.shape()[d], ValueError, op,
               ": all the input array dimensions except for the concatenation axis must match exactly, but "
               "along dimension ",
               d, ", the array at index 0 has size ", first.shape()[d], " and the array at index ", k, " has size ",
               a.shape()[d]);
    }
    shape[along] = checked_extent_sum(shape[along], a.shape()[along], op, a.shape());
    type = promote_types(type, a.dtype());
  }
  const Exec exec = exec_on(device);
  ArrayCore out = new_array(shape, type, exec);
  std::vector<Index> indices(static_cast<std::size_t>(along) + 1, Index(slice()));
  std::int64_t at = 0;
  for (const ArrayCore* a : arrays) {
    const std::int64_t extent = a->shape()[along];
    indices[along] = Index(slice(at, at + extent));
    at += extent;
    if (a->size() == 0) continue;
    const ArrayCore part = index(out, indices);
    kernels_for(device).copy_cast(view_of(*a, exec), view_of(part, exec), exec);
  }
  return out;
}

ArrayCore stack(std::span<const ArrayCore* const> arrays, int axis) {
  XP_CHECK(!arrays.empty(), ValueError, "stack: need at least one array to stack");
  const ArrayCore& first = *arrays[0];
  XP_CHECK(first.ndim() < kMaxNdim, ValueError, "stack: arrays of shape ", first.shape(), " stack into ",
           first.ndim() + 1, " dimensions; arrays have at most ", kMaxNdim);
  const int along = normalize_axis(axis, first.ndim() + 1, "stack");
  std::vector<ArrayCore> expanded;
  expanded.reserve(arrays.size());
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    XP_CHECK(arrays[k]->shape() == first.shape(), ValueError,
             "stack: all input arrays must have the same shape, but the array at index 0 has shape ", first.shape(),
             " and the array at index ", k, " has shape ", arrays[k]->shape());
    expanded.push_back(expand_dims(*arrays[k], along));
  }
  std::vector<const ArrayCore*> pointers;
  for (const ArrayCore& a : expanded) pointers.push_back(&a);
  return concatenate(pointers, along, "stack");
}

std::vector<ArrayCore> split(const ArrayCore& a, std::int64_t sections, int axis) {
  XP_CHECK(sections > 0, ValueError, "split: number sections must be larger than 0, not ", sections);
  const int along = normalize_axis(axis, a.ndim(), "split");
  const std::int64_t extent = a.shape()[along];
  XP_CHECK(extent % sections == 0, ValueError, "split: array split does not result in an equal division: ", extent,
           " along axis ", axis, " into ", sections, " sections");
  std::vector<std::int64_t> bounds;
  for (std::int64_t k = 0; k <= sections; ++k) bounds.push_back(k * (extent / sections));
  return parts_between(a, along, bounds);
}

std::vector<ArrayCore> split_at(const ArrayCore& a, std::span<const std::int64_t> points, int axis) {
  const int along = normalize_axis(axis, a.ndim(), "split");
  const std::int64_t extent = a.shape()[along];
  // a[0:p0], a[p0:p1], ..., a[pk:]: Python's slices, so negative points count from the end, points
  // are clamped to the axis, and a point before the previous one gives an empty part (as NumPy).
  std::vector<std::int64_t> bounds{0};
  bounds.insert(bounds.end(), points.begin(), points.end());
  bounds.push_back(extent);
  return parts_between(a, along, bounds);
}

}  // namespace xp::detail
