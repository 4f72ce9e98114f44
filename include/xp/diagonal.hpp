#pragma once
/// \file
/// NumPy's diagonal, trace and diag:
/// \code{.cpp}
///   xp::diagonal(a)  xp::diagonal(a, 1, 1, 2)  xp::trace(a)  xp::trace(a, -1, 0, 1, xp::dtype::float64)
///   xp::diag(v)  xp::diag(v, 2)  xp::diag(m, -1)
/// \endcode
/// diagonal(a, offset, axis1, axis2) is the view of the elements (i, i + offset) of the axis1 x axis2
/// planes, as a last axis after a's other axes (NumPy's; writable here, read-only in NumPy). Offsets past
/// the planes give an empty axis; a's of fewer than two axes, equal or out-of-range axes are ValueErrors.
/// trace is the sum along it (sum's dtype, or the one given; `out` as the reductions take it). diag of a
/// 1-D array is the square matrix with it on diagonal k (a copy), of a 2-D array the view diagonal(a, k).
/// Autograd records them.
#include <cstdint>
#include <optional>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/reductions.hpp"

namespace xp {

/// \cond DETAIL
namespace detail::recorded {
XP_API ArrayCore diagonal(const ArrayCore& a, std::int64_t offset, int axis1, int axis2);  // lib/autograd
}  // namespace detail::recorded
/// \endcond

/// The view of the diagonal `offset` of the planes of axis1 and axis2, as the last axis.
template <detail::array_face A>
A diagonal(const A& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return A(detail::recorded::diagonal(a, offset, axis1, axis2));
}

/// The sum along diagonal(a, offset, axis1, axis2).
template <detail::array_face A>
auto trace(const A& a, std::int64_t offset = 0, int axis1 = 0, int axis2 = 1) {
  return sum(diagonal(a, offset, axis1, axis2), -1);
}
/// The same accumulated in `type` (NumPy's dtype argument).
template <detail::array_face A>
ndarray<> trace(const A& a, std::int64_t offset, int axis1, int axis2, xp::dtype type) {
  return sum(diagonal(a, offset, axis1, axis2), -1, false, type);
}
/// The same written into `out` (returned).
template <detail::array_face A, detail::array_face O>
const O& trace(const A& a, std::int64_t offset, int axis1, int axis2, std::optional<xp::dtype> type, const O& out) {
  return sum(diagonal(a, offset, axis1, axis2), -1, false, type, out);
}

/// A 1-D v on diagonal k of a square matrix of zeros (a copy); of a 2-D v, the view of its diagonal k.
XP_API ndarray<> diag(const ndarray<>& v, std::int64_t k = 0);  // lib/routines
/// Typed arrays in, typed arrays out.
template <element_type T>
ndarray<T> diag(const ndarray<T>& v, std::int64_t k = 0) {
  return diag(ndarray<>(v), k).template as<T>();
}

}  // namespace xp
