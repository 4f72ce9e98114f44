#pragma once
// The CUDA loop driver of elementwise operations: picks the vectorised or the strided kernel for
// an ElementwisePlan and launches it on the plan's stream; a plan past int32 offsets runs as int32
// pieces (one strided kernel per operation, not two).
#include <cstdint>
#include <utility>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/detail/int32_pieces.hpp"
#include "xp/kernels/cuda/elementwise_kernels.cuh"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp::detail {

// The indexer of a box of the plan's loop (the whole loop, or one of its int32 pieces). Out of line:
// one copy serves every operation with N slots (inlined, host compile time grew by a third).
template <int N>
[[gnu::noinline]] kernels::MultiIndexer<N, std::int32_t> multi_indexer(const ElementwisePlan& plan, const Shape& box) {
  kernels::MultiIndexer<N, std::int32_t> indexer;
  indexer.ndim = box.ndim();
  for (int axis = 0; axis < indexer.ndim; ++axis) {
    indexer.extents[axis] = static_cast<std::int32_t>(box[axis]);
    // An axis the box does not step along may have a stride past int32; it is multiplied by 0.
    for (int k = 0; k < N; ++k)
      indexer.strides[k][axis] = box[axis] > 1 ? static_cast<std::int32_t>(plan.strides[k][axis]) : 0;
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
  constexpr auto kernel = &kernels::elementwise_strided<R, F, Ops...>;
  if (plan.fits_int32) {
    launch<kernel>(device, n, stream, out, n, multi_indexer<kSlots>(plan, plan.shape), f, ops...);
    return;
  }
  for (const Int32Piece& piece : int32_pieces(plan)) {
    const long long count = numel(piece.shape);
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      launch<kernel>(device, count, stream, out + piece.offsets[0], count, multi_indexer<kSlots>(plan, piece.shape), f,
                     ops.moved(piece.offsets[I + 1])...);
    }(std::index_sequence_for<Ops...>{});
  }
}

}  // namespace xp::detail
