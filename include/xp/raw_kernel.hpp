#pragma once
/// \file
/// Raw CUDA kernels with their own launch shape (CuPy's cupy.RawKernel and cupy.RawModule; API §15):
///
/// \code{.cpp}
///   xp::RawKernel scale(R"(extern "C" __global__ void scale(float* x, float a, long long n) {
///     long long i = blockIdx.x * blockDim.x + threadIdx.x;
///     if (i < n) x[i] *= a;
///   })", "scale");
///   scale(xp::grid((n + 255) / 256), xp::block(256), x, 2.0f, n);       // x: a float32 array on a GPU
///   xp::RawModule m({.code = source, .name_expressions = {"twice<float>", "twice<double>"}});
///   m.get_function("twice<float>")(xp::grid(1), xp::block(64), y, xp::shared_mem(256));
///   xp::RawModule loaded({.path = "kernels.cubin"});                       // or a PTX file
/// \endcode
///
/// - Sources compile with NVRTC for the architecture of the device they first run on (and again for each
///   other architecture), with the given NVRTC options and the toolkit's include folders (CUB, cuda_fp16.h);
///   compiled code is kept in memory and in the kernel disk cache (XP_CACHE_DIR), as ElementwiseKernel's.
///   Compile errors are xp::CompileError with NVRTC's log. `name_expressions` name template
///   instantiations (NVRTC's lowered names are looked up for them); other kernels are found by their
///   `extern "C"` names.
/// - Arguments, in the kernel's parameter order: arrays pass the device address of their first element
///   (any layout: the kernel indexes them as it likes), scalars their value as the C++ type given (an `int`
///   is a 4-byte int: write `n` as the kernel's type, `std::int64_t` for `long long`), raw pointers as
///   pointers; `xp::shared_mem(bytes)` anywhere among them sets the dynamic shared memory.
/// - The device is the arrays' (all on one GPU; DeviceMismatchError otherwise), else the current device;
///   the launch goes on its current stream, after the arrays' pending work on other streams. Raw kernels
///   run on GPUs only: on a CPU device the call is a NotImplementedError naming the kernel.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "xp/dtype.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// Three extents of a launch (CUDA's dim3).
struct XP_API LaunchExtents {
  std::uint32_t x = 1; /**< the first extent */
  std::uint32_t y = 1; /**< the second */
  std::uint32_t z = 1; /**< the third */
};
/// The blocks of a launch: xp::grid(blocks) or xp::grid(x, y, z).
struct XP_API grid : LaunchExtents {
  /// `x` by `y` by `z` blocks.
  explicit grid(std::uint32_t blocks_x, std::uint32_t blocks_y = 1, std::uint32_t blocks_z = 1)
      : LaunchExtents{blocks_x, blocks_y, blocks_z} {}
};
/// The threads of each block: xp::block(threads) or xp::block(x, y, z).
struct XP_API block : LaunchExtents {
  /// `x` by `y` by `z` threads.
  explicit block(std::uint32_t threads_x, std::uint32_t threads_y = 1, std::uint32_t threads_z = 1)
      : LaunchExtents{threads_x, threads_y, threads_z} {}
};
/// Dynamic shared memory of a launch, in bytes.
struct XP_API shared_mem {
  /// `per_block` bytes of dynamic shared memory per block.
  explicit shared_mem(std::size_t per_block) : bytes(per_block) {}
  std::size_t bytes; /**< bytes per block */
};

/// Where a RawModule's code comes from, and how it is compiled (CuPy's RawModule arguments).
struct XP_API RawModuleSource {
  // Default member initializers: designated initializers that leave members out ({.code = s}) then
  // draw no -Wmissing-field-initializers from GCC 12.
  std::string code{};  ///< CUDA C++ source for NVRTC (or empty, with `path`)
  std::string path{};  ///< a CUBIN or PTX file to load instead of `code`
  std::vector<std::string> options{};  ///< NVRTC options, e.g. "--std=c++17", "-DTILE=32"
  std::vector<std::string> name_expressions{};  ///< template instantiations to look up, e.g. "f<float>"
};

/// RawKernel's compile options.
struct XP_API RawKernelOptions {
  std::vector<std::string> options{};  ///< NVRTC options
};

/// \cond DETAIL
namespace detail {
struct RawModuleState;
/// One argument of a raw launch: an array, or the bytes of a value.
struct XP_API RawArgument {
  const ArrayCore* array = nullptr;  ///< null: a value
  const void* value = nullptr;
  std::size_t size = 0;
};
/// Launches `name` of `module` (lib/api/jit/raw_kernel.cpp).
XP_API void launch_raw(const RawModuleState& module, const std::string& name, const LaunchExtents& grid,
                       const LaunchExtents& block, std::size_t shared_bytes, std::span<const RawArgument> args);

template <class A>
void add_raw_argument(const A& a, RawArgument*& next, std::size_t& shared_bytes) {
  using T = std::decay_t<A>;
  if constexpr (std::is_same_v<T, shared_mem>) {
    shared_bytes = a.bytes;
  } else if constexpr (std::is_base_of_v<ArrayCore, T>) {
    *next++ = RawArgument{&a, nullptr, 0};
  } else {
    static_assert(element_type<T> || std::is_pointer_v<T>,
                  "RawKernel arguments: arrays, xp::shared_mem, pointers and element types (bool, fixed-width "
                  "integers, floats, complex)");
    *next++ = RawArgument{nullptr, &a, sizeof(T)};
  }
}
}  // namespace detail
/// \endcond

class RawKernel;

/// Kernels of one CUDA source or CUBIN/PTX file (CuPy's RawModule).
class XP_API RawModule {
 public:
  /// Compiles nothing yet: `code` compiles at the first launch on each architecture (a `path` is read now,
  /// IOError naming it when it cannot be).
  explicit RawModule(RawModuleSource source);
  /// The kernel `name`: an `extern "C"` name or one of the name expressions.
  RawKernel get_function(std::string_view name) const;

 private:
  std::shared_ptr<const detail::RawModuleState> state_;
};

/// One kernel of a CUDA source, launched with its own grid and block (CuPy's RawKernel).
class XP_API RawKernel {
 public:
  /// The kernel `name` (its `extern "C"` name) of `code`.
  RawKernel(std::string code, std::string name, RawKernelOptions options = {});

  const std::string& name() const noexcept { return name_; }  ///< the kernel's name as given

  /// Launches grid x block threads with `args` (see the file's notes).
  template <class... Args>
  void operator()(const grid& blocks, const block& threads, const Args&... args) const {
    detail::RawArgument arguments[sizeof...(Args) + 1];
    detail::RawArgument* next = arguments;
    std::size_t shared_bytes = 0;
    (detail::add_raw_argument(args, next, shared_bytes), ...);
    detail::launch_raw(*module_, name_, blocks, threads, shared_bytes,
                       std::span<const detail::RawArgument>(arguments, static_cast<std::size_t>(next - arguments)));
  }

 private:
  friend class RawModule;
  RawKernel(std::shared_ptr<const detail::RawModuleState> module, std::string name)
      : module_(std::move(module)), name_(std::move(name)) {}
  std::shared_ptr<const detail::RawModuleState> module_;
  std::string name_;
};

}  // namespace xp
