#pragma once
/// \file
/// NumPy's array manipulation routines:
/// \code{.cpp}
///   xp::ravel(a)  xp::flatten(a)  xp::ascontiguousarray(a)  xp::swapaxes(a, 0, 2)  xp::moveaxis(a, 0, -1)
///   xp::moveaxis(a, {0, 1}, {-1, -2}) xp::hstack({a, b})  xp::vstack(v)  xp::dstack(v)  xp::column_stack(v)
///   xp::array_split(a, 3, 1) xp::tile(a, {2, 3})  xp::repeat(a, 2, 0)  xp::repeat(a, {1, 0, 2}, 0) xp::flip(a)
///   xp::flip(a, {0, 2})  xp::fliplr(a)  xp::flipud(a)  xp::roll(a, 2)  xp::roll(a, {1, -1}, {0, 1}) xp::rot90(a)
///   xp::rot90(a, 3, {1, 2})  xp::broadcast_arrays({a, b})  xp::broadcast_shapes({s, t}) xp::pad(a, 2)  xp::pad(a, {1,
///   2}, "reflect")  xp::pad(a, {{1, 2}, {0, 3}}, "constant", -1)
/// \endcode
/// Views where NumPy gives views: ravel of a C-contiguous array, swapaxes, moveaxis, flip, fliplr, flipud,
/// rot90, array_split's parts and broadcast_arrays' arrays (these last read-only in NumPy, writable here:
/// writing one element of a broadcast view writes every element it stands for). flatten, the stacks, tile,
/// repeat, roll and pad copy. Each is made of the library's operations, so autograd records them. Typed arrays
/// give typed results; errors are NumPy's (ValueError for an axis out of range: NumPy's AxisError is one).
#include <array>
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <utility>
#include <vector>

#include "xp/axes.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// The elements in C order as one axis: a view when the layout allows it (as reshape), else a copy.
XP_API ndarray<> ravel(const ndarray<>& a);
/// The elements in C order as one axis, always a copy.
XP_API ndarray<> flatten(const ndarray<>& a);
/// a itself when C-contiguous, else a C-contiguous copy; a 0-d array becomes 1-D (NumPy's ndmin=1).
XP_API ndarray<> ascontiguousarray(const ndarray<>& a);
/// The view with axes axis1 and axis2 exchanged.
XP_API ndarray<> swapaxes(const ndarray<>& a, int axis1, int axis2);
/// The view with the source axes moved to the destination positions, the others in their order.
XP_API ndarray<> moveaxis(const ndarray<>& a, const Axes& source, const Axes& destination);

/// Joined along axis 1, or axis 0 for 1-D arrays (NumPy's hstack).
XP_API ndarray<> hstack(const std::vector<ndarray<>>& arrays);
/// Joined along axis 0, 1-D arrays as rows (1, n).
XP_API ndarray<> vstack(const std::vector<ndarray<>>& arrays);
/// Joined along axis 2, 1-D arrays as (1, n, 1) and 2-D ones as (m, n, 1).
XP_API ndarray<> dstack(const std::vector<ndarray<>>& arrays);
/// 1-D arrays as columns (n, 1), 2-D ones as they are, joined along axis 1.
XP_API ndarray<> column_stack(const std::vector<ndarray<>>& arrays);
/// `sections` parts along the axis, the first (extent % sections) one element longer (views).
XP_API std::vector<ndarray<>> array_split(const ndarray<>& a, std::int64_t sections, int axis = 0);

/// a repeated reps[k] times along axis k, both aligned at the last axis (NumPy's tile).
XP_API ndarray<> tile(const ndarray<>& a, const std::vector<std::int64_t>& reps);
/// Each element repeated `repeats` times along the axis; without one, over the flattened elements.
XP_API ndarray<> repeat(const ndarray<>& a, std::int64_t repeats, std::optional<int> axis = std::nullopt);
/// Element k along the axis repeated repeats[k] times (one count for every element along it).
XP_API ndarray<> repeat(const ndarray<>& a, const std::vector<std::int64_t>& repeats,
                        std::optional<int> axis = std::nullopt);

/// The view with the order of elements along the axes reversed (every axis by default).
XP_API ndarray<> flip(const ndarray<>& a, const Axes& axes = std::nullopt);
/// flip along axis 1 (at least 2-D).
XP_API ndarray<> fliplr(const ndarray<>& a);
/// flip along axis 0 (at least 1-D).
XP_API ndarray<> flipud(const ndarray<>& a);
/// Elements shifted by `shift` along each axis, those past the end coming back at the start; without
/// axes, over the flattened elements (the shape kept). One shift for every axis, or one each.
XP_API ndarray<> roll(const ndarray<>& a, const std::vector<std::int64_t>& shifts, const Axes& axes = std::nullopt);
/// The view rotated by 90 degrees k times, from the first of the two axes toward the second.
XP_API ndarray<> rot90(const ndarray<>& a, int k = 1, std::array<int, 2> axes = {0, 1});

/// pad's widths, NumPy's pad_width: one width for every side, {before, after} for every axis, or one pair
/// per axis ({{1, 2}, {0, 3}}). Negative widths are a ValueError.
class XP_API PadWidths {
 public:
  PadWidths(std::int64_t every_side) : pairs_{{every_side, every_side}} {}  ///< pad(a, 2)
  PadWidths(std::initializer_list<std::int64_t> before_after);  ///< pad(a, {1, 2})
  PadWidths(std::initializer_list<std::array<std::int64_t, 2>> per_axis) : pairs_(per_axis) {}  ///< {{1, 2}, {0, 3}}
  PadWidths(std::vector<std::array<std::int64_t, 2>> per_axis) : pairs_(std::move(per_axis)) {}  ///< at run time
  /// The (before, after) of each of ndim axes: one pair stands for every axis.
  std::vector<std::array<std::int64_t, 2>> for_axes(int ndim) const;

 private:
  std::vector<std::array<std::int64_t, 2>> pairs_;
};

/// a with `widths` elements added before and after each axis: mode "constant" (constant_value, cast to
/// a's dtype), "edge" (the edge element repeated), "reflect" (mirrored about the edge element),
/// "symmetric" (mirrored, the edge repeated) or "wrap" (from the other end); any width, periodically
/// beyond the extent, as NumPy's. Extending an empty axis is a ValueError except with "constant".
XP_API ndarray<> pad(const ndarray<>& a, const PadWidths& widths, std::string_view mode = "constant",
                     double constant_value = 0);

/// Views of the arrays broadcast to their common shape.
XP_API std::vector<ndarray<>> broadcast_arrays(const std::vector<ndarray<>>& arrays);
/// The shape the shapes broadcast to (ValueError naming them when they do not).
XP_API Shape broadcast_shapes(const std::vector<Shape>& shapes);

/// \cond DETAIL
namespace detail {
template <class T>
std::vector<ndarray<>> untyped(const std::vector<ndarray<T>>& arrays) {
  return {arrays.begin(), arrays.end()};
}
template <class T>
std::vector<ndarray<T>> typed(const std::vector<ndarray<>>& arrays) {
  std::vector<ndarray<T>> result;
  result.reserve(arrays.size());
  for (const ndarray<>& a : arrays) result.push_back(a.as<T>());
  return result;
}
}  // namespace detail
/// \endcond

/// Stamps out a stacking function's typed forms: name(vector of ndarray<T>) and name({a, b, ...}).
#define XP_TYPED_STACK(name)                                  \
  template <class T>                                          \
  ndarray<T> name(const std::vector<ndarray<T>>& arrays) {    \
    return name(detail::untyped(arrays)).template as<T>();    \
  }                                                           \
  template <class T>                                          \
  ndarray<T> name(std::initializer_list<ndarray<T>> arrays) { \
    return name(std::vector<ndarray<T>>(arrays));             \
  }
/// The functions above for typed arrays: ndarray<T> in, ndarray<T> out; braces for the lists.
///@{
template <class T>
ndarray<T> ravel(const ndarray<T>& a) {
  return ravel(ndarray<>(a)).template as<T>();
}
template <class T>
ndarray<T> flatten(const ndarray<T>& a) {
  return flatten(ndarray<>(a)).template as<T>();
}
template <class T>
ndarray<T> ascontiguousarray(const ndarray<T>& a) {
  return ascontiguousarray(ndarray<>(a)).template as<T>();
}
template <class T>
ndarray<T> swapaxes(const ndarray<T>& a, int axis1, int axis2) {
  return swapaxes(ndarray<>(a), axis1, axis2).template as<T>();
}
template <class T>
ndarray<T> moveaxis(const ndarray<T>& a, const Axes& source, const Axes& destination) {
  return moveaxis(ndarray<>(a), source, destination).template as<T>();
}
XP_TYPED_STACK(hstack)
XP_TYPED_STACK(vstack)
XP_TYPED_STACK(dstack)
XP_TYPED_STACK(column_stack)
#undef XP_TYPED_STACK
template <class T>
std::vector<ndarray<T>> array_split(const ndarray<T>& a, std::int64_t sections, int axis = 0) {
  return detail::typed<T>(array_split(ndarray<>(a), sections, axis));
}
template <class T>
ndarray<T> tile(const ndarray<T>& a, const std::vector<std::int64_t>& reps) {
  return tile(ndarray<>(a), reps).template as<T>();
}
template <class T>
ndarray<T> repeat(const ndarray<T>& a, std::int64_t repeats, std::optional<int> axis = std::nullopt) {
  return repeat(ndarray<>(a), repeats, axis).template as<T>();
}
template <class T>
ndarray<T> repeat(const ndarray<T>& a, const std::vector<std::int64_t>& repeats,
                  std::optional<int> axis = std::nullopt) {
  return repeat(ndarray<>(a), repeats, axis).template as<T>();
}
template <class T>
ndarray<T> flip(const ndarray<T>& a, const Axes& axes = std::nullopt) {
  return flip(ndarray<>(a), axes).template as<T>();
}
template <class T>
ndarray<T> fliplr(const ndarray<T>& a) {
  return fliplr(ndarray<>(a)).template as<T>();
}
template <class T>
ndarray<T> flipud(const ndarray<T>& a) {
  return flipud(ndarray<>(a)).template as<T>();
}
template <class T>
ndarray<T> roll(const ndarray<T>& a, const std::vector<std::int64_t>& shifts, const Axes& axes = std::nullopt) {
  return roll(ndarray<>(a), shifts, axes).template as<T>();
}
/// One shift: roll(a, 2), roll(a, -1, 0).
template <class T>
ndarray<T> roll(const ndarray<T>& a, std::int64_t shift, const Axes& axes = std::nullopt) {
  return roll(a, std::vector<std::int64_t>{shift}, axes);
}
template <class T>
ndarray<T> rot90(const ndarray<T>& a, int k = 1, std::array<int, 2> axes = {0, 1}) {
  return rot90(ndarray<>(a), k, axes).template as<T>();
}
template <class T>
ndarray<T> pad(const ndarray<T>& a, const PadWidths& widths, std::string_view mode = "constant",
               double constant_value = 0) {
  return pad(ndarray<>(a), widths, mode, constant_value).template as<T>();
}
template <class T>
std::vector<ndarray<T>> broadcast_arrays(const std::vector<ndarray<T>>& arrays) {
  return detail::typed<T>(broadcast_arrays(detail::untyped(arrays)));
}
template <class T>
std::vector<ndarray<T>> broadcast_arrays(std::initializer_list<ndarray<T>> arrays) {
  return broadcast_arrays(std::vector<ndarray<T>>(arrays));
}
///@}

}  // namespace xp
