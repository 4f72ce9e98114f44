#pragma once
// The arguments of a run-time kernel call, laid out as the generated code declares them
// (kernels/xp/kernels/jit_prelude.cuh): 8-byte words, one run of them per argument, and the array
// of pointers to the runs that both cudaLaunchKernel and the host entry points take.
#include <array>
#include <cstdint>

#include "core/kernel_params.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

class KernelArguments {
 public:
  // A non-raw array of a contiguous loop: its data pointer.
  void add_pointer(const void* data);
  // A non-raw array of a strided loop: xpj::strided<T, N> with the given strides (two runs may be
  // given: reductions pass the kept strides, then the reduced ones).
  void add_strided(const void* data, const Strides& strides, const Strides* more = nullptr);
  // A raw array: xpj::raw_array<T, ndim, contiguous>.
  void add_raw(const ArrayCore& a);
  // A scalar converted to `type`, the parameter's.
  void add_scalar(const ScalarValue& value, xp::dtype type);
  // A loop extent: xpj::index_t (contiguous loops) or xpj::shape<N>.
  void add_size(std::int64_t size);
  void add_shape(const Shape& shape);

  void** pointers() noexcept { return pointers_.data(); }

 private:
  std::uint64_t* begin_argument();
  void push(std::uint64_t word);

  // Not initialised: every word used is written. 16-byte aligned, as a complex128 scalar's run is.
  alignas(16) std::array<std::uint64_t, 1280> words_;
  std::array<void*, kMaxKernelParams + 2> pointers_;
  std::size_t used_ = 0, count_ = 0;
};

}  // namespace xp::detail
