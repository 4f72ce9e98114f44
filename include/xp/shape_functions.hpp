#pragma once
/// \file
/// NumPy's shape functions as free functions, taking shapes and axes as braces or run-time values:
/// \code{.cpp}
///   xp::reshape(a, {2, -1})          xp::reshape(a, shape)      (shape: Shape or std::vector<int64_t>)
///   xp::transpose(a)                 xp::transpose(a, perm)     (perm: {1, 0} or std::vector<int>)
///   xp::squeeze(a)                   xp::squeeze(a, {0, 2})     xp::expand_dims(a, {0, -1})
///   xp::concatenate({a, b}, 1)       xp::stack(arrays, -1)      (arrays: braces or std::vector)
///   xp::split(a, 3)                  xp::split(a, {2, 5}, 1)    (a count of equal parts, or split points)
/// \endcode
/// reshape, transpose, squeeze, expand_dims and split give views; concatenate and stack copy into a new
/// array on the operands' common device, of their promoted dtype. As in NumPy, split(a, 2) is two equal
/// parts and split(a, {2}) splits at position 2 (braces are a list of points, as NumPy's [2]).
#include <cstdint>
#include <initializer_list>
#include <span>
#include <vector>

#include "xp/axes.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
XP_API ArrayCore squeeze(const ArrayCore& a, const Axes& axes);
XP_API ArrayCore expand_dims(const ArrayCore& a, const Axes& axes);
XP_API ArrayCore concatenate(std::span<const ArrayCore* const> arrays, int axis, std::string_view op = "concatenate");
XP_API ArrayCore stack(std::span<const ArrayCore* const> arrays, int axis);
XP_API std::vector<ArrayCore> split(const ArrayCore& a, std::int64_t sections, int axis);
XP_API std::vector<ArrayCore> split_at(const ArrayCore& a, std::span<const std::int64_t> points, int axis);

/// The same as the public functions call them: recorded for backward while autograd records (lib/autograd).
namespace recorded {
XP_API ArrayCore squeeze(const ArrayCore& a, const Axes& axes);
XP_API ArrayCore expand_dims(const ArrayCore& a, const Axes& axes);
XP_API ArrayCore concatenate(std::span<const ArrayCore* const> arrays, int axis);
XP_API ArrayCore stack(std::span<const ArrayCore* const> arrays, int axis);
XP_API std::vector<ArrayCore> split(const ArrayCore& a, std::int64_t sections, int axis);
XP_API std::vector<ArrayCore> split_at(const ArrayCore& a, std::span<const std::int64_t> points, int axis);
}  // namespace recorded

template <class A>
std::vector<const ArrayCore*> pointers_to(std::span<const A> arrays) {
  std::vector<const ArrayCore*> pointers;
  pointers.reserve(arrays.size());
  for (const A& a : arrays) pointers.push_back(&a);
  return pointers;
}

template <class A>
std::vector<A> faces_of(std::vector<ArrayCore> cores) {
  std::vector<A> faces;
  faces.reserve(cores.size());
  for (ArrayCore& core : cores) faces.emplace_back(std::move(core));
  return faces;
}
}  // namespace detail
/// \endcond

/// a.reshape(shape): a view when the strides allow it, else a copy; one extent may be -1.
template <detail::array_face A>
A reshape(const A& a, const Shape& shape) {
  return a.reshape(shape);
}

/// No axes: reverse them; else a permutation of every axis (negative ones count from the end).
template <detail::array_face A>
A transpose(const A& a, const Axes& axes = std::nullopt) {
  XP_CHECK(axes.all() || !axes.list().empty() || a.ndim() == 0, ValueError,
           "transpose: axes don't match array: 0 axes given for an array of dimension ", a.ndim());
  return A(detail::recorded::transpose(a, axes.list()));
}

/// Without axes every axis of extent 1 goes; given axes must have extent 1.
template <detail::array_face A>
A squeeze(const A& a, const Axes& axes = std::nullopt) {
  return A(detail::recorded::squeeze(a, axes));
}

/// New axes of extent 1 at the given positions of the result.
template <detail::array_face A>
A expand_dims(const A& a, const Axes& axes) {
  return A(detail::recorded::expand_dims(a, axes));
}

/// Arrays joined along an existing axis (the other extents must agree).
template <detail::array_face A>
A concatenate(const std::vector<A>& arrays, int axis = 0) {
  return A(detail::recorded::concatenate(detail::pointers_to<A>(arrays), axis));
}
/// The same with braces: concatenate({a, b}).
template <detail::array_face A>
A concatenate(std::initializer_list<A> arrays, int axis = 0) {
  return A(detail::recorded::concatenate(detail::pointers_to<A>({arrays.begin(), arrays.size()}), axis));
}

/// Arrays of one shape along a new axis.
template <detail::array_face A>
A stack(const std::vector<A>& arrays, int axis = 0) {
  return A(detail::recorded::stack(detail::pointers_to<A>(arrays), axis));
}
/// The same with braces: stack({a, b}).
template <detail::array_face A>
A stack(std::initializer_list<A> arrays, int axis = 0) {
  return A(detail::recorded::stack(detail::pointers_to<A>({arrays.begin(), arrays.size()}), axis));
}

/// `sections` equal parts along the axis (ValueError when the extent does not divide).
template <detail::array_face A>
std::vector<A> split(const A& a, std::int64_t sections, int axis = 0) {
  return detail::faces_of<A>(detail::recorded::split(a, sections, axis));
}
/// Parts between the points: a[:p0], a[p0:p1], ..., a[pk:] along the axis (Python's slice rules).
template <detail::array_face A>
std::vector<A> split(const A& a, std::initializer_list<std::int64_t> points, int axis = 0) {
  return detail::faces_of<A>(
      detail::recorded::split_at(a, std::span<const std::int64_t>(points.begin(), points.size()), axis));
}
/// The same with run-time points.
template <detail::array_face A, axis_integer I>
std::vector<A> split(const A& a, const std::vector<I>& points, int axis = 0) {
  const std::vector<std::int64_t> wide(points.begin(), points.end());
  return detail::faces_of<A>(detail::recorded::split_at(a, wide, axis));
}

}  // namespace xp
