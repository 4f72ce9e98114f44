#pragma once
/// \file
/// Run-time user kernels with CuPy's semantics (cupy.ElementwiseKernel, cupy.ReductionKernel) and
/// Chainer's memoized factories (xp::elementwise, xp::reduce):
///
/// \code{.cpp}
///   xp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
///   auto z = squared_diff(x, y);            // broadcast; z allocated, dtype bound from x and y
///   squared_diff(x, 5.0f, z);               // scalars are cast to the parameter type; z given
///   xp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
///   auto n = l2norm(x, xp::axis(1));
/// \endcode
///
/// The kernel text is C++ (CUDA C++ on GPUs). xparray generates the whole kernel around it, compiles
/// it for the arrays' device (NVRTC for GPUs, the host C++ compiler for CPUs), and caches it in
/// memory per (device, argument types, ranks, contiguity) and on disk under XP_CACHE_DIR. Compile
/// errors are xp::CompileError with the compiler's log and the numbered generated source;
/// XP_DUMP_SOURCE=1 prints every generated source to stderr.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "xp/axes.hpp"
#include "xp/export.hpp"
#include "xp/kernel_options.hpp"
#include "xp/ndarray.hpp"
#include "xp/stream.hpp"

namespace xp {

// Call arguments, passed among the arrays and scalars: k(x, y, xp::size(n)).
/// The number of loop iterations, for kernels without array arguments to size the loop.
struct XP_API loop_size {
  std::int64_t value; /**< iterations */
};
/// A call option: run the loop `n` times (CuPy's size=).
inline loop_size size(std::int64_t n) { return {n}; }
/// The CUDA block size of a launch.
struct XP_API threads_per_block {
  int value; /**< threads */
};
/// A call option: launch with `n` threads per block (CuPy's block_size=).
inline threads_per_block block_size(int n) { return {n}; }
/// The axes a reduction kernel reduces.
struct XP_API reduction_axes {
  Axes value; /**< the axes */
};
/// A call option: reduce over `axes` (CuPy's axis=).
inline reduction_axes axis(Axes axes) { return {axes}; }
/// Whether a reduction kernel keeps the reduced axes as 1.
struct XP_API keep_dims {
  bool value; /**< keep them */
};
/// A call option: keep the reduced axes (CuPy's keepdims=).
inline keep_dims keepdims(bool keep) { return {keep}; }

/// \cond DETAIL
namespace detail {

/// One argument of a kernel call as the library receives it.
struct XP_API KernelArg {
  const ArrayCore* array = nullptr;  ///< null: a scalar
  ScalarValue scalar;
};

struct XP_API KernelCall {
  std::optional<std::int64_t> size;
  std::optional<int> block_size;
  Axes axes = std::nullopt;
  bool keepdims = false;
  const Stream* stream = nullptr;
};

template <class A>
void collect(const A& a, KernelArg* args, std::size_t& count, KernelCall& call) {
  if constexpr (std::is_base_of_v<ArrayCore, A>) args[count++] = {&a, {}};
  else if constexpr (scalar_operand<A>) args[count++] = {nullptr, scalar_value(a)};
  else if constexpr (std::is_same_v<A, loop_size>) call.size = a.value;
  else if constexpr (std::is_same_v<A, threads_per_block>) call.block_size = a.value;
  else if constexpr (std::is_same_v<A, reduction_axes>) call.axes = a.value;
  else if constexpr (std::is_same_v<A, keep_dims>) call.keepdims = a.value;
  else if constexpr (std::is_same_v<A, Stream>) call.stream = &a;
  else
    static_assert(sizeof(A) == 0,
                  "kernel arguments are arrays, scalars, xp::size, xp::block_size, "
                  "xp::axis, xp::keepdims or an xp::Stream");
}

/// Sorts a call's arguments into arrays and scalars (in order) and options, then launches; the
/// second form for the call that returns the kernel's one output.
template <class Kernel, class... Args>
std::vector<ndarray<>> call_with(const Kernel& kernel, const Args&... args) {
  std::array<KernelArg, sizeof...(Args)> list{};
  std::size_t count = 0;
  KernelCall call;
  (collect(args, list.data(), count, call), ...);
  return kernel.launch(std::span(list.data(), count), call);
}
template <class Kernel, class... Args>
ndarray<> call_one_with(const Kernel& kernel, const Args&... args) {
  std::array<KernelArg, sizeof...(Args)> list{};
  std::size_t count = 0;
  KernelCall call;
  (collect(args, list.data(), count, call), ...);
  return kernel.launch_one(std::span(list.data(), count), call);
}

/// The one output of a call; ValueError for kernels with several.
XP_API ndarray<> only_output(std::vector<ndarray<>> outputs, const std::string& kernel);

struct ElementwiseKernelState;
struct ReductionKernelState;
class FusedKernels;

}  // namespace detail
/// \endcond

/// A user elementwise kernel (CuPy's ElementwiseKernel): compiled per device and argument types on first call, then
/// cached.
class XP_API ElementwiseKernel {
 public:
  /// in_params / out_params: "[raw] type name, ..." (one-letter types are placeholders); operation: the
  /// loop body, which sees the parameters, the loop index i and _ind (_ind.get(), _ind.size()).
  ElementwiseKernel(std::string_view in_params, std::string_view out_params, std::string_view operation,
                    std::string_view name = "kernel", KernelOptions options = {});

  /// Inputs, then optionally the outputs, then call options. Returns the output when the kernel has
  /// one (outputs() returns all of them).
  template <class... Args>
  ndarray<> operator()(const Args&... args) const {
    return detail::call_one_with(*this, args...);
  }
  /// All the outputs, for kernels with several.
  template <class... Args>
  std::vector<ndarray<>> outputs(const Args&... args) const {
    return detail::call_with(*this, args...);
  }

  const std::string& name() const noexcept;  ///< the kernel's name, as in its compiled source and errors
  /// Compiled kernels held in memory by this kernel (one per device and argument signature).
  std::size_t cached_kernels() const;

 private:
  template <class Kernel, class... Args>
  friend std::vector<ndarray<>> detail::call_with(const Kernel&, const Args&...);
  template <class Kernel, class... Args>
  friend ndarray<> detail::call_one_with(const Kernel&, const Args&...);
  std::vector<ndarray<>> launch(std::span<const detail::KernelArg> args, const detail::KernelCall& call) const;
  friend class detail::FusedKernels;  // launches its printed kernels with a run-time list of arrays
  ndarray<> launch_one(std::span<const detail::KernelArg> args, const detail::KernelCall& call) const;
  std::shared_ptr<detail::ElementwiseKernelState> state_;
};

/// A user reduction kernel (CuPy's ReductionKernel): map, reduce and post-map expressions over the reduced axes.
class XP_API ReductionKernel {
 public:
  /// map_expr: each input element's value (sees the inputs, _i, _j, _J, _in_ind, _out_ind);
  /// reduce_expr: combines a and b; post_map_expr: stores a into the outputs; identity: the value of
  /// an empty reduction ("" for none: reducing zero elements is then a ValueError).
  ReductionKernel(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                  std::string_view reduce_expr, std::string_view post_map_expr, std::string_view identity,
                  std::string_view name = "reduce_kernel", KernelOptions options = {});

  /// The only output.
  template <class... Args>
  ndarray<> operator()(const Args&... args) const {
    return detail::only_output(outputs(args...), name());
  }
  /// All the outputs, for kernels with several.
  template <class... Args>
  std::vector<ndarray<>> outputs(const Args&... args) const {
    return detail::call_with(*this, args...);
  }

  const std::string& name() const noexcept;  ///< the kernel's name
  std::size_t cached_kernels() const;  ///< compiled kernels held in memory (one per device and argument signature)

 private:
  template <class Kernel, class... Args>
  friend std::vector<ndarray<>> detail::call_with(const Kernel&, const Args&...);
  std::vector<ndarray<>> launch(std::span<const detail::KernelArg> args, const detail::KernelCall& call) const;
  std::shared_ptr<detail::ReductionKernelState> state_;
};

/// Chainer's factories: the kernel for these arguments, made once and kept (name is mandatory).
/// The references stay valid for the whole program, also across clear_memo().
XP_API const ElementwiseKernel& elementwise(std::string_view in_params, std::string_view out_params,
                                            std::string_view operation, std::string_view name,
                                            const KernelOptions& options = {});
/// The reduction kernel for these arguments, made once and kept (Chainer's reduce).
XP_API const ReductionKernel& reduce(std::string_view in_params, std::string_view out_params, std::string_view map_expr,
                                     std::string_view reduce_expr, std::string_view post_map_expr,
                                     std::string_view identity, std::string_view name,
                                     const KernelOptions& options = {});

}  // namespace xp
