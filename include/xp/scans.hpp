#pragma once
/// \file
/// Scans and differences along an axis, NumPy's names and result types:
/// \code{.cpp}
///   xp::cumsum(a)  xp::cumsum(a, 1)  xp::cumprod(a, 0)  xp::nancumsum(a)  xp::nancumprod(a, -1)
///   xp::diff(a)  xp::diff(a, 2, 0)  xp::ediff1d(a)
/// \endcode
/// cumsum and cumprod of bool and signed integers are int64, of unsigned integers uint64, of inexact
/// types their own type (2-byte floats accumulate in float32); nancumsum and nancumprod count NaNs as
/// 0 and 1. Without an axis they run over the flattened array. GPUs scan with CUB's DeviceScan; CPUs
/// scan long rows in blocks on every thread (so a long float row's rounding may differ from NumPy's
/// sequential one) and short rows in order.
#include <cstdint>
#include <optional>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
enum class Scan : std::uint8_t { cumsum, cumprod, nancumsum, nancumprod };

/// The dtype of a scan of `t`: NumPy's cumsum and cumprod types.
constexpr xp::dtype scan_dtype(xp::dtype t) {
  if (is_inexact_dtype(t)) return t;
  return is_unsigned_dtype(t) ? xp::dtype::uint64 : xp::dtype::int64;
}

/// The same as the public functions call them: recorded for backward while autograd records (lib/autograd).
namespace recorded {
XP_API ArrayCore scan(Scan scan, const ArrayCore& a, std::optional<int> axis);
XP_API ArrayCore diff(const ArrayCore& a, int n, int axis);
}  // namespace recorded

template <class A>
auto scan_face_tag() {
  if constexpr (std::is_same_v<A, ndarray<>>) return std::type_identity<ndarray<>>{};
  else return std::type_identity<ndarray<type_of<scan_dtype(dtype_of<typename A::value_type>)>>>{};
}
/// A scan's result: `ndarray<R>` of scan_dtype for typed arrays, `ndarray<>` for run-time typed ones.
template <class A>
using scan_face = typename decltype(scan_face_tag<A>())::type;
}  // namespace detail
/// \endcond

/// Running sums along `axis` (nullopt: over the flattened array).
template <detail::array_face A>
detail::scan_face<A> cumsum(const A& a, std::optional<int> axis = std::nullopt) {
  return detail::scan_face<A>(detail::recorded::scan(detail::Scan::cumsum, a, axis));
}
/// Running products along `axis` (nullopt: over the flattened array).
template <detail::array_face A>
detail::scan_face<A> cumprod(const A& a, std::optional<int> axis = std::nullopt) {
  return detail::scan_face<A>(detail::recorded::scan(detail::Scan::cumprod, a, axis));
}
/// cumsum with NaNs counted as zeros.
template <detail::array_face A>
detail::scan_face<A> nancumsum(const A& a, std::optional<int> axis = std::nullopt) {
  return detail::scan_face<A>(detail::recorded::scan(detail::Scan::nancumsum, a, axis));
}
/// cumprod with NaNs counted as ones.
template <detail::array_face A>
detail::scan_face<A> nancumprod(const A& a, std::optional<int> axis = std::nullopt) {
  return detail::scan_face<A>(detail::recorded::scan(detail::Scan::nancumprod, a, axis));
}

/// The n-th differences along `axis`: a[1:] - a[:-1], n times (bool: a[1:] != a[:-1]).
template <detail::array_face A>
A diff(const A& a, int n = 1, int axis = -1) {
  return A(detail::recorded::diff(a, n, axis));
}

/// The differences of the flattened array, 1-d (TypeError for bool, as NumPy's subtract).
template <detail::array_face A>
A ediff1d(const A& a) {
  XP_CHECK(a.dtype() != dtype::bool_, TypeError, "ediff1d: boolean subtract is not supported; use diff (not_equal)");
  return A(detail::recorded::diff(a.reshape({-1}), 1, 0));
}

}  // namespace xp
