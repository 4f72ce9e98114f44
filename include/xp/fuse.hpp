#pragma once
/// \file
/// xp::fuse (cupy.fuse): an expression of array functions run as one kernel.
///
/// \code{.cpp}
///   auto f = xp::fuse([](auto x, auto y) { return xp::exp(x + 2) * y; });
///   ndarray<> z = f(x, y);                        // one pass over x and y, no temporaries
///   auto s = xp::fuse([](auto x, auto y) { return xp::sum((x - y) * (x - y)); });
/// \endcode
///
/// The function is generic: on the first call for a binding of dtypes and ranks it is called with
/// xp::TracedValue arguments, and what it computes with the array functions (arithmetic, comparisons,
/// every elementwise function of math.hpp, around, where, clip, the operators, astype, scalar constants) is recorded,
/// with the dtypes each unfused call would compute in and store; it may end in one reduction (sum,
/// prod, mean, max, min, argmax, argmin, all, any, norm, var, std) with axes. Later calls with that
/// binding reuse the trace. Results are the unfused expression's, bit for bit: each operation reads
/// and rounds as the unfused one does. The arguments broadcast as in NumPy and share one device.
/// - CPUs: the built-in loops over blocks of the output, one operation after another while the block
///   stays in the cache, on the CPU's threads (no compiler run).
/// - GPUs: one ElementwiseKernel printed from the trace, compiled by NVRTC for the binding.
/// - A trailing reduction sums in the built-in reduction's order: on CPUs a sum, prod, max or min over
///   every axis or the last ones walks its tree in one pass; others reduce the fused result.
/// - Scalars and captured values are constants of the trace: pass a value that changes between calls
///   as a 0-d array argument. Arrays captured instead of passed are a compile error.
/// - While autograd records and an argument needs a gradient, the function runs unfused (and is recorded).
#include <array>
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>

#include "xp/autograd.hpp"
#include "xp/export.hpp"
#include "xp/math.hpp"
#include "xp/ndarray.hpp"
#include "xp/reductions.hpp"
#include "xp/traced_value.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {

/// Calls the fused function with traced arguments (on the first call of a binding).
using FusedTracer = TracedValue (*)(const void* function, std::span<const TracedValue> arguments);

/// The traces of one fused function, by binding, and their runs (lib/api/jit/fused_kernels.cpp).
class XP_API FusedKernels {
 public:
  explicit FusedKernels(std::string name);
  ArrayCore run(std::span<const ArrayCore* const> arrays, FusedTracer tracer, const void* function) const;
  std::size_t traced_bindings() const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

template <class F, std::size_t... I>
TracedValue trace_fused(const void* function, std::span<const TracedValue> arguments, std::index_sequence<I...>) {
  const F& f = *static_cast<const F*>(function);
  using Result = std::decay_t<decltype(f(arguments[I]...))>;
  static_assert(std::is_same_v<Result, TracedValue>,
                "xp::fuse: the function must return one expression of its arguments");
  return f(arguments[I]...);
}

}  // namespace detail
/// \endcond

/// A fused function: call it with arrays (see the file's notes). Copies share the traces.
template <class F>
class Fused {
 public:
  /// `name` names the kernels and appears in errors (a C identifier).
  explicit Fused(F function, std::string name = "fused") : function_(std::move(function)), kernels_(std::move(name)) {}

  /// The expression over `arrays`, as a new array.
  template <detail::array_face... A>
    requires(sizeof...(A) > 0)
  ndarray<> operator()(const A&... arrays) const {
    if (autograd::is_recording() && (... || detail::ArrayInternals::autograd_meta(arrays)))
      return ndarray<>(function_(arrays...));
    const std::array<const detail::ArrayCore*, sizeof...(A)> list{&arrays...};
    const detail::FusedTracer tracer = [](const void* f, std::span<const TracedValue> arguments) {
      return detail::trace_fused<F>(f, arguments, std::index_sequence_for<A...>{});
    };
    return ndarray<>(kernels_.run(list, tracer, &function_));
  }

  /// The bindings of dtypes and ranks traced so far.
  std::size_t traced_bindings() const { return kernels_.traced_bindings(); }

 private:
  F function_;
  detail::FusedKernels kernels_;
};

/// `function` fused (cupy.fuse).
template <class F>
Fused<F> fuse(F function, std::string name = "fused") {
  return Fused<F>(std::move(function), std::move(name));
}

}  // namespace xp
