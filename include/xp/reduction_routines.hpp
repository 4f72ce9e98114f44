#pragma once
/// \file
/// NumPy's reductions made of the built-in ones: those that skip NaN, the weighted average, peak to peak.
/// \code{.cpp}
///   xp::nansum(a)  xp::nanmean(a, 1)  xp::nanmax(a, {0, 2}, true)  xp::nanargmin(a, -1)  xp::nanvar(a, 0, false, 1)
///   xp::average(a)  xp::average(a, 1, w)  xp::ptp(a, 0)
/// \endcode
/// NaN elements count as 0 in nansum, 1 in nanprod and not at all in nanmean, nanvar and nanstd; nanmax,
/// nanmin, nanargmax and nanargmin look past them. For bool and integer arrays each is its NumPy
/// counterpart without "nan". Result dtypes are those of sum, mean, max, argmax and var. As NumPy's:
/// - 2-byte floats: nanmean, nanvar and nanstd compute in float32 and round once, as the reductions do;
/// - an all-NaN slice gives NaN in nanmax, nanmin and nanmean and warns ("All-NaN slice encountered",
///   "Mean of empty slice") through xp::utils::warn; nanargmax and nanargmin of one are a ValueError;
/// - nanvar and nanstd give NaN where the count of numbers less ddof is 0 or below, warning "Degrees of
///   freedom <= 0 for slice."; nansum of an all-NaN slice is 0.
/// average is NumPy's: the weights have a's shape, or the shape of a's extents along the axes in the order
/// given; its dtype is a's and the weights' promoted, float64 for bool and integer a; weights summing to 0
/// over a slice are a ValueError (NumPy's ZeroDivisionError). ptp is max - min in a's dtype (integers
/// wrap; bool is a TypeError, as NumPy's subtract).
/// NumPy's `dtype` and `out` arguments as <xp/reductions.hpp> has them: nansum, nanprod, nanmean, nanvar
/// and nanstd take a dtype (nanmean, nanvar and nanstd only floating and complex ones); all but average
/// take an `out` (nanargmax and nanargmin: int64 under the safe rule):
/// \code{.cpp}
///   xp::nansum(a, 1, false, xp::dtype::float64)  xp::nanmax(a, 0, false, out)  xp::nanvar(a, 0, false, 1,
///   std::nullopt, out)
/// \endcode
/// The nan-reductions check a slice for NaN by reading one bool back, which on a GPU waits for the work before it.
/// Each function is made of the library's operations, so autograd records them.
#include <cstdint>
#include <optional>

#include "xp/axes.hpp"
#include "xp/detail/reduction_ops.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"
#include "xp/promotion.hpp"
#include "xp/reductions.hpp"
#include "xp/type_info.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
// average's dtype: a's and the weights' promoted, with float64 for bool and integer a.
constexpr xp::dtype average_dtype(xp::dtype a, xp::dtype weights) {
  const xp::dtype promoted = promote_types(a, weights);
  return is_inexact_dtype(a) ? promoted : promote_types(promoted, xp::dtype::float64);
}
}  // namespace detail
/// \endcond

/// Stamps out the typed form, ndarray<T> in and the dtype `reduction` gives out: name(a, axes, keepdims).
#define XP_TYPED_NAN_REDUCTION(name, reduction)                                            \
  template <element_type T>                                                                \
  auto name(const ndarray<T>& a, const Axes& axes = std::nullopt, bool keepdims = false) { \
    using R = type_of<detail::reduction_dtype(detail::Reduction::reduction, dtype_of<T>)>; \
    return name(ndarray<>(a), axes, keepdims).template as<R>();                            \
  }
/// Stamps out a moment's typed form: name(a, axes, keepdims, ddof).
#define XP_TYPED_NAN_MOMENT(name, reduction)                                                                      \
  template <element_type T>                                                                                       \
  auto name(const ndarray<T>& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) { \
    using R = type_of<detail::reduction_dtype(detail::Reduction::reduction, dtype_of<T>)>;                        \
    return name(ndarray<>(a), axes, keepdims, ddof).template as<R>();                                             \
  }
/// Stamps out NumPy's out argument: name(a, axes, keepdims, out), the result cast to out's dtype under `casting`.
#define XP_ROUTINE_INTO(name, casting)                                                                \
  template <detail::array_face A, detail::array_face O>                                               \
  const O& name(const A& a, const Axes& axes, bool keepdims, const O& out) {                          \
    return detail::write_reduction(#name, name(ndarray<>(a), axes, keepdims), out, Casting::casting); \
  }
/// Stamps out NumPy's dtype argument: name(a, axes, keepdims, dtype) and name(a, axes, keepdims, dtype, out);
/// `any_type`: whether integer types may accumulate.
#define XP_ROUTINE_IN_DTYPE(name, any_type)                                                                           \
  template <detail::array_face A>                                                                                     \
  ndarray<> name(const A& a, const Axes& axes, bool keepdims, xp::dtype type) {                                       \
    return detail::accumulated_in(#name, ndarray<>(a), type, any_type, type,                                          \
                                  [&](const ndarray<>& x) { return name(x, axes, keepdims); });                       \
  }                                                                                                                   \
  template <detail::array_face A, detail::array_face O>                                                               \
  const O& name(const A& a, const Axes& axes, bool keepdims, std::optional<xp::dtype> type, const O& out) {           \
    return detail::write_reduction(#name, type ? name(a, axes, keepdims, *type) : name(ndarray<>(a), axes, keepdims), \
                                   out);                                                                              \
  }
/// Stamps out a moment's dtype and out arguments: name(a, axes, keepdims, ddof, dtype) and
/// name(a, axes, keepdims, ddof, dtype, out).
#define XP_NAN_MOMENT_IN_DTYPE(name)                                                                           \
  template <detail::array_face A>                                                                              \
  ndarray<> name(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof, xp::dtype type) {             \
    return detail::accumulated_in(#name, ndarray<>(a), type, false, detail::real_part_type(type),              \
                                  [&](const ndarray<>& x) { return name(x, axes, keepdims, ddof); });          \
  }                                                                                                            \
  template <detail::array_face A, detail::array_face O>                                                        \
  const O& name(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof, std::optional<xp::dtype> type, \
                const O& out) {                                                                                \
    return detail::write_reduction(                                                                            \
        #name, type ? name(a, axes, keepdims, ddof, *type) : name(ndarray<>(a), axes, keepdims, ddof), out);   \
  }

/// The sum over the axes with NaN counted as 0.
///@{
XP_API ndarray<> nansum(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nansum, sum)
XP_ROUTINE_INTO(nansum, same_kind)
XP_ROUTINE_IN_DTYPE(nansum, true)
///@}
/// The product over the axes with NaN counted as 1.
///@{
XP_API ndarray<> nanprod(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanprod, prod)
XP_ROUTINE_INTO(nanprod, same_kind)
XP_ROUTINE_IN_DTYPE(nanprod, true)
///@}
/// The mean of the numbers (not NaN) over the axes.
///@{
XP_API ndarray<> nanmean(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanmean, mean)
XP_ROUTINE_INTO(nanmean, same_kind)
XP_ROUTINE_IN_DTYPE(nanmean, false)
///@}
/// The largest number over the axes; NaN for an all-NaN slice.
///@{
XP_API ndarray<> nanmax(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanmax, max)
XP_ROUTINE_INTO(nanmax, same_kind)
///@}
/// The smallest number over the axes; NaN for an all-NaN slice.
///@{
XP_API ndarray<> nanmin(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanmin, min)
XP_ROUTINE_INTO(nanmin, same_kind)
///@}
/// The int64 position of the largest number over one axis or all of them (ValueError for an all-NaN slice).
///@{
XP_API ndarray<> nanargmax(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanargmax, argmax)
XP_ROUTINE_INTO(nanargmax, safe)
///@}
/// The int64 position of the smallest number over one axis or all of them (ValueError for an all-NaN slice).
///@{
XP_API ndarray<> nanargmin(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
XP_TYPED_NAN_REDUCTION(nanargmin, argmin)
XP_ROUTINE_INTO(nanargmin, safe)
///@}
/// The variance of the numbers over the axes, divided by their count less ddof.
///@{
XP_API ndarray<> nanvar(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false,
                        std::int64_t ddof = 0);
XP_TYPED_NAN_MOMENT(nanvar, var)
XP_ROUTINE_INTO(nanvar, same_kind)
XP_NAN_MOMENT_IN_DTYPE(nanvar)
///@}
/// The standard deviation of the numbers over the axes, divided by their count less ddof.
///@{
XP_API ndarray<> nanstd(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false,
                        std::int64_t ddof = 0);
XP_TYPED_NAN_MOMENT(nanstd, std)
XP_ROUTINE_INTO(nanstd, same_kind)
XP_NAN_MOMENT_IN_DTYPE(nanstd)
///@}

/// The mean over the axes; with weights, sum(a * weights) / sum(weights) over them.
///@{
XP_API ndarray<> average(const ndarray<>& a, const Axes& axes = std::nullopt,
                         const std::optional<ndarray<>>& weights = std::nullopt, bool keepdims = false);
template <element_type T>
auto average(const ndarray<T>& a, const Axes& axes = std::nullopt) {
  using R = type_of<detail::reduction_dtype(detail::Reduction::mean, dtype_of<T>)>;
  return average(ndarray<>(a), axes).template as<R>();
}
template <element_type T, element_type W>
auto average(const ndarray<T>& a, const Axes& axes, const ndarray<W>& weights, bool keepdims = false) {
  using R = type_of<detail::average_dtype(dtype_of<T>, dtype_of<W>)>;
  return average(ndarray<>(a), axes, ndarray<>(weights), keepdims).template as<R>();
}
///@}
/// max - min over the axes (peak to peak), in a's dtype.
///@{
XP_API ndarray<> ptp(const ndarray<>& a, const Axes& axes = std::nullopt, bool keepdims = false);
template <element_type T>
ndarray<T> ptp(const ndarray<T>& a, const Axes& axes = std::nullopt, bool keepdims = false) {
  return ptp(ndarray<>(a), axes, keepdims).template as<T>();
}
XP_ROUTINE_INTO(ptp, same_kind)
///@}

#undef XP_NAN_MOMENT_IN_DTYPE
#undef XP_ROUTINE_IN_DTYPE
#undef XP_ROUTINE_INTO
#undef XP_TYPED_NAN_MOMENT
#undef XP_TYPED_NAN_REDUCTION

}  // namespace xp
