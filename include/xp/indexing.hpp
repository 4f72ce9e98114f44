#pragma once
/// \file
/// Gathers, scatters and masks, NumPy's and CuPy's names (besides a(idx), a(mask) and a.at(...) = v on
/// the arrays themselves, xp/index.hpp):
/// \code{.cpp}
///   xp::take(a, idx)  xp::take(a, idx, 1, "wrap")  xp::take_along_axis(a, xp::argsort(a, 1), 1)
///   xp::put(a, idx, v)  xp::put_along_axis(a, idx, v, 0)  xp::putmask(a, a < 0, 0.f)  xp::place(a, m, v)
///   xp::compress(cond, a, 0)  xp::extract(cond, a)  xp::choose(idx, {x, y, z})  xp::select({c1, c2}, {x, y}, 0.f)
///   xp::nonzero(a)  xp::argwhere(a)  xp::flatnonzero(a)  xp::where(cond)
///   xp::scatter_add(a, idx, v)  xp::scatter_max(a, {idx, xp::slice()}, v)  xp::scatter_min(a, idx, 1.f)
/// \endcode
/// Index arrays may be of any integer dtype; negative positions count from the end. mode "raise"
/// (IndexError "index 5 is out of bounds for axis 0 with size 3") reads one flag back on a GPU: its one
/// synchronisation; "wrap" (modulo the extent) and "clip" (to the nearest end) never synchronise. A
/// mask's true positions are counted on the device and read back (nonzero, argwhere, flatnonzero,
/// compress, extract, place and a(mask): their result's size depends on the data). Writes (put,
/// put_along_axis, a.at(...) = v) leave the last of repeated positions; scatter_add, scatter_max and
/// scatter_min combine them all (np.add.at, np.maximum.at, np.minimum.at; GPU atomics, one thread in
/// C order on CPUs). Gathers (take, take_along_axis, a(idx)) have gradients: scatter_add of the
/// output's gradient.
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "xp/creation.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
enum class ScatterKind : std::uint8_t { add, max, min };

/// The same as the public functions call them (lib/api/ops/index_functions.cpp; the gathers recorded
/// for backward while autograd records).
namespace recorded {
XP_API ArrayCore take(const ArrayCore& a, const ArrayCore& indices, std::optional<int> axis, std::string_view mode);
XP_API ArrayCore take_along_axis(const ArrayCore& a, const ArrayCore& indices, std::optional<int> axis);
}  // namespace recorded
XP_API void put(const ArrayCore& a, const ArrayCore& indices, const Operand& values, std::string_view mode);
XP_API void put_along_axis(const ArrayCore& a, const ArrayCore& indices, const Operand& values,
                           std::optional<int> axis);
XP_API void putmask(const ArrayCore& a, const ArrayCore& mask, const Operand& values);
XP_API void place(const ArrayCore& a, const ArrayCore& mask, const ArrayCore& values);
XP_API ArrayCore compress(const ArrayCore& condition, const ArrayCore& a, std::optional<int> axis);
XP_API ArrayCore choose(const ArrayCore& a, std::span<const ArrayCore> choices);
XP_API ArrayCore select(std::span<const ArrayCore> conditions, std::span<const ArrayCore> choices,
                        const Operand& default_value);
XP_API std::vector<ArrayCore> nonzero(const ArrayCore& a);
XP_API void scatter(ScatterKind kind, const ArrayCore& a, std::span<const Index> indices, const Operand& values);
}  // namespace detail
/// \endcond

/// Elements at `indices` (any integer dtype, any shape) along `axis` (nullopt: of the flattened array):
/// the result's shape is a's with that axis replaced by the indices' shape. mode: "raise", "wrap" or "clip".
template <detail::array_face A, detail::array_face I>
A take(const A& a, const I& indices, std::optional<int> axis = std::nullopt, std::string_view mode = "raise") {
  return A(detail::recorded::take(a, indices, axis, mode));
}

/// out[..., j, ...] = a[..., indices[..., j, ...], ...] along `axis` (nullopt: the flattened array);
/// indices have a's number of dimensions and broadcast against it on the other axes.
template <detail::array_face A, detail::array_face I>
A take_along_axis(const A& a, const I& indices, std::optional<int> axis) {
  return A(detail::recorded::take_along_axis(a, indices, axis));
}

/// a.flat[indices] = values (an array or a scalar, repeated when shorter), in place; mode as take's.
template <detail::array_face A, detail::array_face I, detail::math_operand V>
void put(const A& a, const I& indices, const V& values, std::string_view mode = "raise") {
  detail::put(a, indices, detail::to_operand(values), mode);
}

/// The writes take_along_axis's reads would be: values broadcast to the indices' shape.
template <detail::array_face A, detail::array_face I, detail::math_operand V>
void put_along_axis(const A& a, const I& indices, const V& values, std::optional<int> axis) {
  detail::put_along_axis(a, indices, detail::to_operand(values), axis);
}

/// a.flat[i] = values.flat[i % values.size()] where mask.flat[i] (mask of a's shape), in place.
template <detail::array_face A, detail::array_face M, detail::math_operand V>
void putmask(const A& a, const M& mask, const V& values) {
  detail::putmask(a, mask, detail::to_operand(values));
}

/// The true positions of mask (a's shape) get values' elements in turn, repeated when too few.
template <detail::array_face A, detail::array_face M, detail::array_face V>
void place(const A& a, const M& mask, const V& values) {
  detail::place(a, mask, values);
}

/// The slices along `axis` (nullopt: elements of the flattened array) where the 1-d condition is true;
/// a condition shorter than the axis is false past its end.
template <detail::array_face C, detail::array_face A>
A compress(const C& condition, const A& a, std::optional<int> axis = std::nullopt) {
  return A(detail::compress(condition, a, axis));
}

/// The elements of a (flattened) where the condition (a's size) is true, 1-d.
template <detail::array_face C, detail::array_face A>
A extract(const C& condition, const A& a) {
  return A(detail::compress(detail::reshape(condition, Shape{-1}), detail::reshape(a, Shape{-1}), 0));
}

/// choices[a][...]: each element of the integer array a picks the choice it names (all broadcast
/// together); ValueError "invalid entry in choice array" outside [0, choices).
template <detail::array_face I, detail::array_face A>
A choose(const I& a, std::initializer_list<A> choices) {
  const std::vector<detail::ArrayCore> list(choices.begin(), choices.end());
  return A(detail::choose(a, list));
}

/// The first choice whose condition holds, else default_value, elementwise (NumPy's select).
template <detail::array_face C, detail::array_face A, detail::math_operand D>
auto select(std::initializer_list<C> conditions, std::initializer_list<A> choices, const D& default_value) {
  const std::vector<detail::ArrayCore> cs(conditions.begin(), conditions.end()), xs(choices.begin(), choices.end());
  return ndarray<>(detail::select(cs, xs, detail::to_operand(default_value)));
}

/// The positions of the non-zero elements, one int64 array per axis (C order).
template <detail::array_face A>
std::vector<ndarray<std::int64_t>> nonzero(const A& a) {
  std::vector<ndarray<std::int64_t>> result;
  for (const detail::ArrayCore& axis : detail::nonzero(a)) result.emplace_back(axis);
  return result;
}

/// nonzero as one int64 array of shape (count, ndim).
template <detail::array_face A>
ndarray<std::int64_t> argwhere(const A& a) {
  if (a.ndim() == 0) {  // NumPy: (1, 0) when the element is non-zero, else (0, 0)
    const auto count = detail::nonzero(detail::reshape(a, Shape{1}))[0].shape()[0];
    return ndarray<std::int64_t>(detail::zeros(Shape{count, 0}, xp::dtype::int64, a.device()));
  }
  const std::vector<detail::ArrayCore> axes = detail::nonzero(a);
  std::vector<const detail::ArrayCore*> pointers;
  for (const detail::ArrayCore& axis : axes) pointers.push_back(&axis);
  return ndarray<std::int64_t>(detail::stack(pointers, 1));
}

/// The positions of the non-zero elements of the flattened array, int64.
template <detail::array_face A>
ndarray<std::int64_t> flatnonzero(const A& a) {
  return ndarray<std::int64_t>(detail::nonzero(detail::reshape(a, Shape{-1}))[0]);
}

/// One-argument where: nonzero(condition).
template <detail::array_face C>
std::vector<ndarray<std::int64_t>> where(const C& condition) {
  return nonzero(condition);
}

/// a[index] += values with every repeated position counted (np.add.at, cupyx.scatter_add): values
/// broadcast to the selection, with NumPy's same_kind rule into a's dtype.
template <detail::array_face A, detail::math_operand V>
void scatter_add(const A& a, const Index& index, const V& values) {
  detail::scatter(detail::ScatterKind::add, a, std::span(&index, 1), detail::to_operand(values));
}
/// a[indices...] += values, as the one-index form.
template <detail::array_face A, detail::math_operand V>
void scatter_add(const A& a, const std::vector<Index>& indices, const V& values) {
  detail::scatter(detail::ScatterKind::add, a, indices, detail::to_operand(values));
}
/// a[index] = maximum(a[index], values) over every repeated position (np.maximum.at); NaN wins.
template <detail::array_face A, detail::math_operand V>
void scatter_max(const A& a, const Index& index, const V& values) {
  detail::scatter(detail::ScatterKind::max, a, std::span(&index, 1), detail::to_operand(values));
}
/// scatter_max through several indices.
template <detail::array_face A, detail::math_operand V>
void scatter_max(const A& a, const std::vector<Index>& indices, const V& values) {
  detail::scatter(detail::ScatterKind::max, a, indices, detail::to_operand(values));
}
/// a[index] = minimum(a[index], values) over every repeated position (np.minimum.at); NaN wins.
template <detail::array_face A, detail::math_operand V>
void scatter_min(const A& a, const Index& index, const V& values) {
  detail::scatter(detail::ScatterKind::min, a, std::span(&index, 1), detail::to_operand(values));
}
/// scatter_min through several indices.
template <detail::array_face A, detail::math_operand V>
void scatter_min(const A& a, const std::vector<Index>& indices, const V& values) {
  detail::scatter(detail::ScatterKind::min, a, indices, detail::to_operand(values));
}

}  // namespace xp
