#pragma once
/// \file
/// xp::transform: an elementwise operation from any functor, over arrays and scalars.
///
/// \code{.cpp}
///   auto z = xp::transform([] XP_HOST_DEVICE (float x, float y) { return (x - y) * (x - y); }, x, y);
///   xp::transform(f, x, 2.0f, xp::out(z));     // into an existing array
/// \endcode
///
/// Arrays broadcast as in NumPy and must share one device (DeviceMismatchError otherwise); the
/// result's element type is f's (or out's: f's values are converted). `out` may be one of the inputs
/// (in place); an input that overlaps `out` otherwise is copied first. On CPUs the loop runs on the
/// library's threads with f inlined; on GPUs f runs in a CUDA kernel, so f must be XP_HOST_DEVICE
/// and the calling file compiled by nvcc (else NotImplementedError). Complex elements reach f as
/// std::complex on CPUs and as libcu++'s cuda::std::complex on GPUs (the same layout): a functor with a
/// template operator() takes both (nvcc's extended lambdas cannot be generic).
#include <array>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include "xp/detail/elementwise_planner.hpp"
#include "xp/error.hpp"
#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/cpu/elementwise.hpp"
#include "xp/kernels/operands.hpp"
#include "xp/ndarray.hpp"
#include "xp/profile.hpp"

#if defined(__CUDACC__)
#include "xp/kernels/cuda/elementwise.cuh"
#endif

namespace xp {

/// An output operand of transform (made by xp::out).
template <element_type T>
struct out_array {
  ndarray<T> array;  ///< the array written
};

/// Names the array a transform writes into.
template <element_type T>
out_array<T> out(const ndarray<T>& z) {
  return {z};
}

/// \cond DETAIL
namespace detail {

template <class A>
struct operand_traits {
  static_assert(scalar_operand<A>, "transform operands are typed arrays (ndarray<T>) or scalars");
  using element = A;
  static constexpr bool is_array = false;
};
template <class T>
struct operand_traits<ndarray<T>> {
  static_assert(!std::is_same_v<T, dynamic>,
                "transform needs element types at compile time: use a.as<T>() on run-time typed arrays");
  using element = T;
  static constexpr bool is_array = true;
};

template <class A>
using element_t = typename operand_traits<A>::element;

template <class A>
inline constexpr bool is_out_array = false;
template <class T>
inline constexpr bool is_out_array<out_array<T>> = true;

template <class A>
const ArrayCore* array_or_null(const A& arg) {
  if constexpr (operand_traits<A>::is_array) return &arg;
  else return nullptr;
}

/// The loop operand of an argument, reading the plan's slot for it.
template <std::size_t Slot, class A>
auto operand(const ElementwisePlan& plan, const A& arg) {
  using T = element_t<A>;
  if constexpr (operand_traits<A>::is_array) return kernels::ArrayIn<T>{static_cast<const T*>(plan.data[Slot])};
  else return kernels::ScalarIn<T>{arg};
}

inline namespace XP_COMPILER_NAMESPACE {

#if defined(__CUDACC__)
/// An operand as device code reads it: complex elements as libcu++'s complex (std::complex is not
/// device code; the layout is the same).
template <class T>
kernels::ArrayIn<kernels::kernel_value_t<T>> on_device(const kernels::ArrayIn<T>& op) {
  return {reinterpret_cast<const kernels::kernel_value_t<T>*>(op.data)};
}
template <class T>
kernels::ScalarIn<kernels::kernel_value_t<T>> on_device(const kernels::ScalarIn<T>& op) {
  if constexpr (kernels::is_complex_v<T>) return {{op.value.real(), op.value.imag()}};
  else return {op.value};
}
#endif

template <class R, class F, class... Ops>
void gpu_elementwise(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
#if defined(__CUDACC__)
  launch_elementwise<kernels::kernel_value_t<R>>(plan, f, on_device(ops)...);
#else
  (void)f;
  ((void)ops, ...);
  throw NotImplementedError("transform: running a user functor on ", plan.exec.device,
                            " needs the calling file compiled by nvcc (a .cu file); the built-in "
                            "operations (xp::add, xp::exp, ...) work from any file");
#endif
}

/// Runs f over the arguments into `out` (or a new array of R) and returns the result.
template <class R, class F, class... Args>
ndarray<R> run_transform(std::string_view op, const F& f, const ArrayCore* out, const Args&... args) {
  const profile_range profiled(op);
  const std::array<const ArrayCore*, sizeof...(Args)> inputs{array_or_null(args)...};
  ElementwisePlan plan;
  const ndarray<R> result = [&] {
    if (!out) return ndarray<R>(plan_elementwise(op, inputs, dtype_of<R>, plan));
    plan_elementwise(op, inputs, *out, plan);
    return ndarray<R>(*out);
  }();
  if (plan.size == 0) return result;

  // More operands than a plan holds were refused by the planner: no loop to instantiate.
  if constexpr (sizeof...(Args) < kMaxOperands) {
    const auto ops = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return std::tuple{operand<I + 1>(plan, args)...};
    }(std::index_sequence_for<Args...>{});
    std::apply(
        [&](const auto&... o) {
          if (plan.exec.device.is_host()) cpu_elementwise<R>(plan, f, o...);
          else gpu_elementwise<R>(plan, f, o...);
        },
        ops);
  }
  return result;
}

}  // namespace XP_COMPILER_NAMESPACE
}  // namespace detail
/// \endcond

inline namespace XP_COMPILER_NAMESPACE {

/// f applied elementwise over the broadcast operands (see the file's notes): a new array, or into xp::out(z).
template <class F, class... Args>
auto transform(const F& f, const Args&... args) {
  static_assert(sizeof...(Args) > 0, "transform needs operands");
  using Last = std::tuple_element_t<sizeof...(Args) - 1, std::tuple<Args...>>;
  if constexpr (detail::is_out_array<Last>) {
    const auto all = std::forward_as_tuple(args...);
    const auto& destination = std::get<sizeof...(Args) - 1>(all).array;
    using R = typename std::decay_t<decltype(destination)>::value_type;
    return [&]<std::size_t... I>(std::index_sequence<I...>) {
      return detail::run_transform<R>("transform", f, &destination, std::get<I>(all)...);
    }(std::make_index_sequence<sizeof...(Args) - 1>{});
  } else {
    using R = std::decay_t<std::invoke_result_t<const F&, detail::element_t<Args>...>>;
    static_assert(element_type<R>,
                  "transform: f must return an element type (bool, a fixed-width integer, "
                  "float16, bfloat16, float, double, std::complex<float or double>)");
    return detail::run_transform<R>("transform", f, nullptr, args...);
  }
}

}  // namespace XP_COMPILER_NAMESPACE
}  // namespace xp
