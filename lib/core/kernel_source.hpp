#pragma once
// The full source of a run-time kernel, generated from its spec and one call's signature: a pure
// function (golden-tested), the same for the host compiler and NVRTC but for the loop driver.
//
// Arguments reach the kernel in parameter order (inputs, then outputs), then the loop shapes.
// Elementwise: a non-raw array is a pointer (contiguous loop) or xpj::strided<T, N> (strided loop
// of N axes), then the loop is `index_t size` or xpj::shape<N>. Reductions: a non-raw input is
// xpj::strided<T, K + R> (K kept axes, then R reduced ones), an output xpj::strided<T, K>, then
// xpj::shape<K> and xpj::shape<R>. A raw array is xpj::raw_array<T, ndim, contiguous>; a scalar is
// its parameter's C type. Inputs are const.
//
// The host entry points (target cpu) take the arguments as an array of pointers to them:
//   elementwise: void name(void* const* args, index_t begin, index_t end)
//   reduction:   void name(void* const* args, index_t out_begin, index_t out_end,
//                          index_t r_begin, index_t r_end, _type_reduce* partial)
//                (partial null: outputs [out_begin, out_end) whole; else the reduced positions
//                 [r_begin, r_end) of output out_begin into *partial) and
//                void name_finish(void* const* args, index_t out, const _type_reduce* partials, int n).
// The GPU entry points (target cuda) are __global__ functions of the arguments themselves.
#include <array>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/compiled_module.hpp"
#include "core/kernel_params.hpp"
#include "xp/kernel_options.hpp"

namespace xp::detail {

enum class ArgKind : std::uint8_t { array, raw, scalar };

// No default member values: lists of these are made on every call and filled in.
struct ArgSignature {
  ArgKind kind;
  xp::dtype type;
  int ndim;  // raw arrays: their rank (0 otherwise)
  bool contiguous;  // raw arrays: C-contiguous (false otherwise)
};

// The arguments' signatures, inline (made on every call).
class ArgList {
 public:
  ArgList() = default;
  ArgList(std::initializer_list<ArgSignature> list) {
    for (const ArgSignature& a : list) items_[count_++] = a;
  }
  void resize(std::size_t n) { count_ = n; }
  std::size_t size() const noexcept { return count_; }
  ArgSignature& operator[](std::size_t k) noexcept { return items_[k]; }
  const ArgSignature& operator[](std::size_t k) const noexcept { return items_[k]; }
  operator std::span<const ArgSignature>() const noexcept { return {items_.data(), count_}; }  // NOLINT

 private:
  std::array<ArgSignature, kMaxKernelParams> items_;
  std::size_t count_ = 0;
};

// The names generated code gives the user's code (the loop index and position; reductions' operands,
// indices and positions): no parameter may take them.
inline constexpr std::string_view kElementwiseReservedNames[] = {"i", "_ind"};
inline constexpr std::string_view kReductionReservedNames[] = {"a", "b", "_i", "_j", "_J", "_in_ind", "_out_ind", "_r"};

struct ElementwiseSpec {
  std::vector<KernelParam> in, out;
  std::string operation, name;
  KernelOptions options;
};

struct ElementwiseSignature {
  ArgList args;  // inputs, then outputs
  TypeBindings bindings;
  int loop_ndim = 1;
  bool contiguous = true;  // every non-raw array walks memory with stride 1 over a 1-D loop
};

struct ReductionSpec {
  std::vector<KernelParam> in, out;
  std::string map_expr, reduce_expr, post_map_expr, identity, name;
  KernelOptions options;
};

struct ReductionSignature {
  ArgList args;
  TypeBindings bindings;
  int kept_ndim = 0, reduced_ndim = 1;
  int block_size = 256;  // cuda target only
};

// The C type of reductions' a and b: options.reduce_type (a placeholder, a NumPy name or C text),
// else the first output's type.
std::string reduce_type_name(const ReductionSpec& spec, const TypeBindings& bindings);

std::string elementwise_source(const ElementwiseSpec& spec, const ElementwiseSignature& signature, KernelTarget target);
std::string reduction_source(const ReductionSpec& spec, const ReductionSignature& signature, KernelTarget target);

// The prelude every generated source starts with (kernels/xp/kernels/jit_prelude.cuh).
std::string_view jit_prelude() noexcept;
// xp::float16 and xp::bfloat16 (kernels/xp/kernels/element_types.hpp), which a source whose types or
// code name them carries before its prelude.
std::string_view jit_element_types() noexcept;
// xp::complex64 and xp::complex128 (kernels/xp/kernels/complex_arithmetic.hpp and jit_complex.cuh),
// which a source whose types or code name them carries after its prelude.
std::string_view jit_complex() noexcept;
// NumPy's functions of one element over the shared functors (kernels/xp/kernels/jit_std.cuh, the functor
// headers, jit_ufuncs.cuh), which a source whose code names xp:: functions carries after the complex types.
std::string_view jit_functions() noexcept;
// The prelude of a host kernel whose code (body, expressions, preamble) is `code`: of its math
// functions only those the code names (`sqrt` or `sqrtf` keeps XPJ_MATH1(sqrt)).
std::string host_prelude(std::initializer_list<std::string_view> code);
std::string host_prelude(std::span<const std::string_view> code);

}  // namespace xp::detail
