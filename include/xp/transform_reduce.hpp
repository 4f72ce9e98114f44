#pragma once
/// \file
/// xp::transform_reduce: a reduction from any functors (CuPy's ReductionKernel, compiled ahead).
///
/// \code{.cpp}
///   // the 2-norm of each row
///   auto n = xp::transform_reduce(x, 1, false, 0.0f,
///                                 [] XP_HOST_DEVICE (float v) { return v * v; },          // map
///                                 [] XP_HOST_DEVICE (float a, float b) { return a + b; }, // reduce_op
///                                 [] XP_HOST_DEVICE (float a) { return sqrt(a); });       // post
/// \endcode
///
/// identity's type is the accumulator's; reduce_op must be associative and identity its neutral
/// element (the reduction is pairwise and parallel). map may take the element's position in its
/// reduction as a second argument (long long, C order over the reduced axes). The result's element
/// type is post's. On GPUs the functors must be XP_HOST_DEVICE and the calling file compiled by nvcc.
#include <string_view>
#include <type_traits>

#include "xp/axes.hpp"
#include "xp/detail/reduction_planner.hpp"
#include "xp/error.hpp"
#include "xp/host_device.hpp"
#include "xp/kernels/cpu/reduction.hpp"
#include "xp/ndarray.hpp"
#include "xp/profile.hpp"

#if defined(__CUDACC__)
#include "xp/kernels/cuda/reduction.cuh"
#endif

namespace xp {
/// \cond DETAIL
namespace detail {
inline namespace XP_COMPILER_NAMESPACE {

template <class T, class Acc, class R, class Map, class Combine, class Post>
void gpu_reduction(const ReductionPlan& plan, const Acc& identity, const Map& map, const Combine& combine,
                   const Post& post) {
#if defined(__CUDACC__)
  launch_reduction<T, Acc, R>(plan, identity, map, combine, post);
#else
  (void)identity, (void)map, (void)combine, (void)post;
  throw NotImplementedError("transform_reduce: running user functors on ", plan.exec.device,
                            " needs the calling file compiled by nvcc (a .cu file); the built-in "
                            "reductions (xp::sum, xp::max, ...) work from any file");
#endif
}

}  // namespace XP_COMPILER_NAMESPACE
}  // namespace detail
/// \endcond

inline namespace XP_COMPILER_NAMESPACE {

/// post(reduce_op over the reduced axes of map(x)), starting from `identity` (see the file's notes).
template <class T, class Acc, class Map, class Reduce, class Post>
auto transform_reduce(const ndarray<T>& x, const Axes& axes, bool keepdims, const Acc& identity, const Map& map,
                      const Reduce& reduce_op, const Post& post) {
  using R = std::decay_t<std::invoke_result_t<const Post&, Acc>>;
  static_assert(element_type<R>, "transform_reduce: post must return bool, a fixed-width integer, float or double");
  constexpr bool ordered = std::is_invocable_v<const Map&, T, long long>;
  const profile_range profiled("transform_reduce");
  detail::ReductionPlan plan;
  const detail::ArrayCore result =
      detail::plan_reduction("transform_reduce", x, axes, keepdims, ordered, dtype_of<R>, plan);
  if (plan.outputs > 0) {
    if (plan.exec.device.is_host()) detail::cpu_reduction<T, Acc, R>(plan, identity, map, reduce_op, post);
    else detail::gpu_reduction<T, Acc, R>(plan, identity, map, reduce_op, post);
  }
  return ndarray<R>(result);
}

}  // namespace XP_COMPILER_NAMESPACE
}  // namespace xp
