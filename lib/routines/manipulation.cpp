// NumPy's array manipulation routines, made of views (reshape, transpose, slices, broadcast_to) and of
// concatenate and take, so that autograd records each step.
#include "xp/manipulation.hpp"

#include <algorithm>
#include <numeric>

#include "core/layout.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

namespace {

std::vector<int> identity_permutation(int ndim) {
  std::vector<int> order(static_cast<std::size_t>(ndim));
  std::iota(order.begin(), order.end(), 0);
  return order;
}

// Axes given as a list, normalised; ValueError naming `op` for one out of range or repeated.
std::vector<int> normalized_axes(const Axes& axes, int ndim, std::string_view op) {
  if (axes.all()) return identity_permutation(ndim);
  std::vector<int> result;
  for (int axis : axes.list()) {
    const int normal = detail::normalize_axis(axis, ndim, op);
    XP_CHECK(std::find(result.begin(), result.end(), normal) == result.end(), ValueError, op, ": repeated axis ", axis);
    result.push_back(normal);
  }
  return result;
}

// `result` itself, or a copy of it where it still shares a's memory: NumPy's flatten always copies.
ndarray<> copied_from(const ndarray<>& a, const ndarray<>& result) {
  return result.shares_buffer_with(a) ? result.copyto(result.device()) : result;
}

// a with axes of extent 1 in front until it has `ndim` axes.
ndarray<> at_least(const ndarray<>& a, int ndim) {
  if (a.ndim() >= ndim) return a;
  Shape shape;
  for (int k = a.ndim(); k < ndim; ++k) shape.push_back(1);
  for (std::int64_t extent : a.shape()) shape.push_back(extent);
  return a.reshape(shape);
}

std::vector<ndarray<>> reshaped_each(const std::vector<ndarray<>>& arrays, ndarray<> (*shape_of)(const ndarray<>&)) {
  std::vector<ndarray<>> result;
  result.reserve(arrays.size());
  for (const ndarray<>& a : arrays) result.push_back(shape_of(a));
  return result;
}

}  // namespace

ndarray<> ravel(const ndarray<>& a) { return a.reshape({-1}); }

ndarray<> flatten(const ndarray<>& a) { return copied_from(a, a.reshape({-1})); }

ndarray<> ascontiguousarray(const ndarray<>& a) {
  const ndarray<> at_least_1d = at_least(a, 1);
  return at_least_1d.is_contiguous() ? at_least_1d : at_least_1d.copyto(a.device());
}

ndarray<> swapaxes(const ndarray<>& a, int axis1, int axis2) {
  std::vector<int> order = identity_permutation(a.ndim());
  std::swap(order[static_cast<std::size_t>(detail::normalize_axis(axis1, a.ndim(), "swapaxes"))],
            order[static_cast<std::size_t>(detail::normalize_axis(axis2, a.ndim(), "swapaxes"))]);
  return transpose(a, order);
}

ndarray<> moveaxis(const ndarray<>& a, const Axes& source, const Axes& destination) {
  XP_CHECK(!source.all() && !destination.all(), ValueError, "moveaxis: the source and destination axes must be given");
  const std::vector<int> from = normalized_axes(source, a.ndim(), "moveaxis");
  const std::vector<int> to = normalized_axes(destination, a.ndim(), "moveaxis");
  XP_CHECK(from.size() == to.size(), ValueError, "moveaxis: source and destination must have the same number of ",
           "elements, not ", from.size(), " and ", to.size());
  std::vector<int> order;
  for (int axis = 0; axis < a.ndim(); ++axis)
    if (std::find(from.begin(), from.end(), axis) == from.end()) order.push_back(axis);
  std::vector<std::pair<int, int>> moves;
  for (std::size_t k = 0; k < from.size(); ++k) moves.emplace_back(to[k], from[k]);
  std::sort(moves.begin(), moves.end());  // inserted by destination, lowest first, as NumPy
  for (const auto& [position, axis] : moves) order.insert(order.begin() + position, axis);
  return transpose(a, order);
}

ndarray<> hstack(const std::vector<ndarray<>>& arrays) {
  const std::vector<ndarray<>> rows = reshaped_each(arrays, [](const ndarray<>& a) { return at_least(a, 1); });
  return concatenate(rows, !rows.empty() && rows[0].ndim() == 1 ? 0 : 1);
}

ndarray<> vstack(const std::vector<ndarray<>>& arrays) {
  return concatenate(reshaped_each(arrays, [](const ndarray<>& a) { return at_least(a, 2); }), 0);
}

ndarray<> dstack(const std::vector<ndarray<>>& arrays) {
  const auto as_3d = [](const ndarray<>& a) {
    if (a.ndim() == 0) return a.reshape({1, 1, 1});
    if (a.ndim() == 1) return a.reshape({1, a.shape()[0], 1});
    return a.ndim() == 2 ? a.reshape({a.shape()[0], a.shape()[1], 1}) : a;
  };
  return concatenate(reshaped_each(arrays, as_3d), 2);
}

ndarray<> column_stack(const std::vector<ndarray<>>& arrays) {
  const auto as_column = [](const ndarray<>& a) { return a.ndim() < 2 ? a.reshape({-1, 1}) : a; };
  return concatenate(reshaped_each(arrays, as_column), 1);
}

std::vector<ndarray<>> array_split(const ndarray<>& a, std::int64_t sections, int axis) {
  XP_CHECK(sections > 0, ValueError, "array_split: the number of sections must be larger than 0, not ", sections);
  XP_CHECK(axis >= -a.ndim() && axis < a.ndim(), IndexError, "array_split: axis ", axis,
           " is out of range for an array of dimension ", a.ndim(), " (an IndexError, as NumPy's)");
  const std::int64_t extent = a.shape()[detail::normalize_axis(axis, a.ndim(), "array_split")];
  const std::int64_t each = extent / sections, longer = extent % sections;
  std::vector<std::int64_t> points;
  for (std::int64_t k = 1, at = 0; k < sections; ++k) points.push_back(at += each + (k <= longer ? 1 : 0));
  return split(a, points, axis);
}

std::vector<ndarray<>> broadcast_arrays(const std::vector<ndarray<>>& arrays) {
  std::vector<Shape> shapes;
  for (const ndarray<>& a : arrays) shapes.push_back(a.shape());
  const Shape common = broadcast_shapes(shapes);
  std::vector<ndarray<>> views;
  for (const ndarray<>& a : arrays) views.push_back(a.broadcast_to(common));
  return views;
}

Shape broadcast_shapes(const std::vector<Shape>& shapes) {
  std::vector<const Shape*> pointers;
  for (const Shape& shape : shapes) pointers.push_back(&shape);
  return detail::broadcast_shapes("broadcast_shapes", pointers);
}

}  // namespace xp
