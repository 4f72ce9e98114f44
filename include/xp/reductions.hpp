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
#include <cstdint>

#include "xp/axes.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Stamps out a reduction: name(a, axes, keepdims).
#define XP_REDUCTION(name)                                                         \
  template <detail::array_face A>                                                  \
  auto name(const A& a, const Axes& axes = std::nullopt, bool keepdims = false) {  \
    return detail::apply_reduction<detail::Reduction::name>(a, axes, keepdims, 0); \
  }

/// The sum over the axes (all of them by default).
XP_REDUCTION(sum)
/// The product over the axes.
XP_REDUCTION(prod)
/// The mean over the axes.
XP_REDUCTION(mean)
/// The largest element over the axes (ValueError when empty).
XP_REDUCTION(max)
/// The smallest element over the axes (ValueError when empty).
XP_REDUCTION(min)
/// The int64 position of the largest element over one axis, or over all in C order.
XP_REDUCTION(argmax)
/// The int64 position of the smallest element over one axis, or over all in C order.
XP_REDUCTION(argmin)
/// Whether every element over the axes is non-zero.
XP_REDUCTION(all)
/// Whether some element over the axes is non-zero.
XP_REDUCTION(any)
/// The 2-norm of the elements over the axes (Frobenius for two).
XP_REDUCTION(norm)
#undef XP_REDUCTION

/// Variance and standard deviation, divided by N - ddof.
template <detail::array_face A>
auto var(const A& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) {
  return detail::apply_reduction<detail::Reduction::var>(a, axes, keepdims, ddof);
}
template <detail::array_face A>
auto std(const A& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) {
  return detail::apply_reduction<detail::Reduction::std>(a, axes, keepdims, ddof);
}

}  // namespace xp
