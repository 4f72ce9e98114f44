#pragma once
// The CUDA loop driver of elementwise operations: picks the vectorised or the strided kernel for
// an ElementwisePlan and launches it on the plan's stream.
#include <cstdint>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/cuda/elementwise_kernels.cuh"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp::detail {

template <class Index, int N>
kernels::MultiIndexer<N, Index> multi_indexer(const ElementwisePlan& plan) {
  kernels::MultiIndexer<N, Index> indexer;
  indexer.ndim = plan.shape.ndim();
  for (int axis = 0; axis < indexer.ndim; ++axis) {
    indexer.extents[axis] = static_cast<Index>(plan.shape[axis]);
    for (int k = 0; k < N; ++k) indexer.strides[k][axis] = static_cast<Index>(plan.strides[k][axis]);
  }
  return indexer;
}

template <class T>
bool vector_aligned(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (sizeof(T) * kernels::kVectorWidth) == 0;
}

template <class Op>
bool operand_vector_aligned(const Op& op) {
  if constexpr (Op::may_be_array) return vector_aligned<typename Op::value_type>(op.data);
  else return true;
}

template <class R, class F, class... Ops>
void launch_elementwise(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
  const int device = plan.exec.device.id();
  const ScopedCudaDevice scope(device);
  R* const out = static_cast<R*>(plan.data[0]);
  const long long n = plan.size;
  const auto stream = static_cast<cudaStream_t>(plan.exec.stream.native_handle());
  if (plan.contiguous && vector_aligned<R>(out) && (... && operand_vector_aligned(ops))) {
    launch<&kernels::elementwise_vectorized<R, F, Ops...>>(device, n / kernels::kVectorWidth + 1, stream, out, n, f,
                                                           ops...);
    return;
  }
  constexpr int kSlots = 1 + static_cast<int>(sizeof...(Ops));
  if (plan.fits_int32)
    launch<&kernels::elementwise_strided<std::int32_t, R, F, Ops...>>(
        device, n, stream, out, n, multi_indexer<std::int32_t, kSlots>(plan), f, ops...);
  else
    launch<&kernels::elementwise_strided<std::int64_t, R, F, Ops...>>(
        device, n, stream, out, n, multi_indexer<std::int64_t, kSlots>(plan), f, ops...);
}

}  // namespace xp::detail
