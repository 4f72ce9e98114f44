#pragma once
/// \file
/// Reductions as free functions, NumPy's names and result types:
/// \code{.cpp}
///   xp::sum(a)  xp::sum(a, 1)  xp::sum(a, {0, 2}, /*keepdims=*/true)  xp::argmax(a, -1)
/// \endcode
/// sum and prod of bool and signed integers are int64, of unsigned integers uint64; max and min keep
/// the dtype (ValueError for an empty reduction); argmax and argmin give int64 positions (one axis or
/// all of them, C order over them); all and any give bool; mean, var, std and norm of integers are
/// float64. Float sums are pairwise on CPUs (NumPy's accuracy) and tree reductions on GPUs.
///
/// NumPy's `dtype` and `out` arguments:
/// \code{.cpp}
///   xp::sum(a, 1, false, xp::dtype::float64)   // a converted to float64 and summed there (ndarray<>)
///   xp::sum(a, 1, false, out)                  // the result written into out, which is returned
///   xp::mean(a, {0, 1}, true, xp::dtype::float32, out)  xp::var(a, 0, false, 1, std::nullopt, out)
/// \endcode
/// sum, prod, mean, var and std take a dtype: the elements are converted to it and reduced in it (2-byte
/// floats in float32, rounded once, as always); the result has that dtype (var and std of complex types:
/// their real part type). mean, var and std accumulate only in floating and complex types (TypeError
/// otherwise: NumPy's integer mean truncates, and so would its var's intermediate mean). Every reduction
/// takes an `out` of the result's shape and of a dtype the result casts to under NumPy's same_kind rule
/// (argmax and argmin: the safe rule, so int64); errors name both. The write into `out` is recorded for
/// backward while autograd records, as `out[...] = result`.
#include <cstdint>
#include <optional>
#include <string_view>

#include "xp/axes.hpp"
#include "xp/ndarray.hpp"
#include "xp/traced_value.hpp"
#include "xp/type_info.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {
// NumPy's dtype argument: `a` converted to `type` and reduced by `reduce` there, the result given
// `result_type`. Only sums and products accumulate in every type.
template <class Reduce>
ndarray<> accumulated_in(std::string_view name, const ndarray<>& a, xp::dtype type, bool any_type,
                         xp::dtype result_type, Reduce&& reduce) {
  XP_CHECK(any_type || is_inexact_dtype(type), TypeError, name, ": cannot accumulate in ", type,
           " (only floating and complex types: NumPy's integer mean truncates)");
  const ndarray<> result = reduce(a.dtype() == type ? a : a.astype(type));
  return result.dtype() == result_type ? result : result.astype(result_type);
}

// The dtype and accumulation rules of the built-in reductions that take a dtype.
template <Reduction r>
ndarray<> reduce_in(const ndarray<>& a, const Axes& axes, bool keepdims, std::int64_t ddof, xp::dtype type) {
  const bool moment = r == Reduction::var || r == Reduction::std;
  return accumulated_in(reduction_name(r), a, type, r == Reduction::sum || r == Reduction::prod,
                        moment ? real_part_type(type) : type,
                        [&](const ndarray<>& x) { return ndarray<>(recorded::reduce(r, x, axes, keepdims, ddof)); });
}

// NumPy's out argument: the result written into `out` of the same shape, its dtype reached under `casting`.
template <class O>
const O& write_reduction(std::string_view name, const ndarray<>& result, const O& out,
                         Casting casting = Casting::same_kind) {
  XP_CHECK(out.shape() == result.shape(), ValueError, name, ": the output has shape ", out.shape(), ", the result ",
           result.shape());
  XP_CHECK(can_cast(result.dtype(), out.dtype(), casting), TypeError, name, ": cannot write a ", result.dtype(),
           " result into a ", out.dtype(), " output (NumPy's ", casting == Casting::safe ? "safe" : "same_kind",
           " casting)");
  const Operand value = to_operand(result);
  recorded::assign_selection(out, {}, value);
  return out;
}
}  // namespace detail
/// \endcond

/// Stamps out a reduction: name(a, axes, keepdims) and name(a, axes, keepdims, out).
#define XP_REDUCTION(name)                                                                                            \
  template <detail::elementwise_face A>                                                                               \
  auto name(const A& a, const Axes& axes = std::nullopt, bool keepdims = false) {                                     \
    return detail::apply_reduction<detail::Reduction::name>(a, axes, keepdims, 0);                                    \
  }                                                                                                                   \
  template <detail::array_face A, detail::array_face O>                                                               \
  const O& name(const A& a, const Axes& axes, bool keepdims, const O& out) {                                          \
    const bool arg =                                                                                                  \
        detail::Reduction::name == detail::Reduction::argmax || detail::Reduction::name == detail::Reduction::argmin; \
    return detail::write_reduction(#name, ndarray<>(name(a, axes, keepdims)), out,                                    \
                                   arg ? Casting::safe : Casting::same_kind);                                         \
  }

/// Stamps out a reduction's dtype forms: name(a, axes, keepdims, dtype) and name(a, axes, keepdims, dtype, out).
#define XP_REDUCTION_IN_DTYPE(name)                                                                                   \
  template <detail::array_face A>                                                                                     \
  ndarray<> name(const A& a, const Axes& axes, bool keepdims, xp::dtype type) {                                       \
    return detail::reduce_in<detail::Reduction::name>(ndarray<>(a), axes, keepdims, 0, type);                         \
  }                                                                                                                   \
  template <detail::array_face A, detail::array_face O>                                                               \
  const O& name(const A& a, const Axes& axes, bool keepdims, std::optional<xp::dtype> type, const O& out) {           \
    return detail::write_reduction(#name, type ? name(a, axes, keepdims, *type) : ndarray<>(name(a, axes, keepdims)), \
                                   out);                                                                              \
  }

/// The sum over the axes (all of them by default).
///@{
XP_REDUCTION(sum)
XP_REDUCTION_IN_DTYPE(sum)
///@}
/// The product over the axes.
///@{
XP_REDUCTION(prod)
XP_REDUCTION_IN_DTYPE(prod)
///@}
/// The mean over the axes.
///@{
XP_REDUCTION(mean)
XP_REDUCTION_IN_DTYPE(mean)
///@}
/// The largest element over the axes (ValueError when empty).
///@{
XP_REDUCTION(max)
///@}
/// The smallest element over the axes (ValueError when empty).
///@{
XP_REDUCTION(min)
///@}
/// The int64 position of the largest element over one axis, or over all in C order.
///@{
XP_REDUCTION(argmax)
///@}
/// The int64 position of the smallest element over one axis, or over all in C order.
///@{
XP_REDUCTION(argmin)
///@}
/// Whether every element over the axes is non-zero.
///@{
XP_REDUCTION(all)
///@}
/// Whether some element over the axes is non-zero.
///@{
XP_REDUCTION(any)
///@}
/// The 2-norm of the elements over the axes (Frobenius for two).
///@{
XP_REDUCTION(norm)
///@}
#undef XP_REDUCTION_IN_DTYPE
#undef XP_REDUCTION

/// Stamps out variance and standard deviation, divided by N - ddof: name(a, axes, keepdims, ddof),
/// name(a, axes, keepdims, ddof, dtype), name(a, axes, keepdims, out), name(a, axes, keepdims, ddof, dtype, out).
#define XP_MOMENT(name)                                                                                        \
  template <detail::elementwise_face A>                                                                        \
  auto name(const A& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) {       \
    return detail::apply_reduction<detail::Reduction::name>(a, axes, keepdims, ddof);                          \
  }                                                                                                            \
  template <detail::array_face A>                                                                              \
  ndarray<> name(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof, xp::dtype type) {             \
    return detail::reduce_in<detail::Reduction::name>(ndarray<>(a), axes, keepdims, ddof, type);               \
  }                                                                                                            \
  template <detail::array_face A, detail::array_face O>                                                        \
  const O& name(const A& a, const Axes& axes, bool keepdims, const O& out) {                                   \
    return detail::write_reduction(#name, ndarray<>(name(a, axes, keepdims)), out);                            \
  }                                                                                                            \
  template <detail::array_face A, detail::array_face O>                                                        \
  const O& name(const A& a, const Axes& axes, bool keepdims, std::int64_t ddof, std::optional<xp::dtype> type, \
                const O& out) {                                                                                \
    return detail::write_reduction(                                                                            \
        #name, type ? name(a, axes, keepdims, ddof, *type) : ndarray<>(name(a, axes, keepdims, ddof)), out);   \
  }
/// Variance, divided by N - ddof.
///@{
XP_MOMENT(var)
///@}
/// Standard deviation, divided by N - ddof.
///@{
XP_MOMENT(std)
///@}
#undef XP_MOMENT

}  // namespace xp
