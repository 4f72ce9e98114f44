#pragma once
// Reductions as free functions, NumPy's names and result types:
//   xp::sum(a)  xp::sum(a, 1)  xp::sum(a, {0, 2}, /*keepdims=*/true)  xp::argmax(a, -1)
// sum and prod of bool and signed integers are int64, of unsigned integers uint64; max and min keep
// the dtype (ValueError for an empty reduction); argmax and argmin give int64 positions (one axis or
// all of them, C order over them); all and any give bool; mean, var, std and norm of integers are
// float64. Float sums are pairwise on CPUs (NumPy's accuracy) and tree reductions on GPUs.
#include <cstdint>

#include "xp/axes.hpp"
#include "xp/ndarray.hpp"

namespace xp {

#define XP_REDUCTION(name)                                                            \
  template <detail::array_face A>                                                     \
  auto name(const A& a, const Axes& axes = std::nullopt, bool keepdims = false) {               \
    return detail::apply_reduction<detail::Reduction::name>(a, axes, keepdims, 0);    \
  }

XP_REDUCTION(sum)
XP_REDUCTION(prod)
XP_REDUCTION(mean)
XP_REDUCTION(max)
XP_REDUCTION(min)
XP_REDUCTION(argmax)
XP_REDUCTION(argmin)
XP_REDUCTION(all)
XP_REDUCTION(any)
XP_REDUCTION(norm)  // the 2-norm of the elements over the axes (Frobenius for two)
#undef XP_REDUCTION

// Variance and standard deviation, divided by N - ddof.
template <detail::array_face A>
auto var(const A& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) {
  return detail::apply_reduction<detail::Reduction::var>(a, axes, keepdims, ddof);
}
template <detail::array_face A>
auto std(const A& a, const Axes& axes = std::nullopt, bool keepdims = false, std::int64_t ddof = 0) {
  return detail::apply_reduction<detail::Reduction::std>(a, axes, keepdims, ddof);
}

}  // namespace xp
