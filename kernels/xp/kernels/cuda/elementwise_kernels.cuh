#pragma once
// CUDA kernels of elementwise operations: grid-stride loops around the same functors, operands and
// index math as the CPU driver (include/xp/kernels/cpu/elementwise.hpp).
#include <cstdint>
#include <tuple>
#include <utility>

#include "xp/kernels/cast.hpp"
#include "xp/kernels/multi_indexer.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::kernels {

// Every operand contiguous: each thread handles kVectorWidth elements per step with one vector load
// per array (the launcher checks the alignment), then the remainder one by one.
template <class R, class F, class... Ops>
__global__ void elementwise_vectorized(R* out, long long n, F f, Ops... ops) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  const long long first = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  const long long vectors = n / kVectorWidth;
  for (long long v = first; v < vectors; v += stride) {
    const std::tuple loaded{ops.lanes(v)...};
    Vector<R> result;
#pragma unroll
    for (int j = 0; j < kVectorWidth; ++j)
      result.lanes[j] = [&]<std::size_t... I>(std::index_sequence<I...>) {
        return cast<R>(f(std::get<I>(loaded).lanes[j]...));
      }(std::index_sequence_for<Ops...>{});
    reinterpret_cast<Vector<R>*>(out)[v] = result;
  }
  for (long long i = vectors * kVectorWidth + first; i < n; i += stride) out[i] = cast<R>(f(ops.at(i)...));
}

// Any strides (and contiguous operands not aligned for vector loads): offsets from the position
// through the shared indexer, in 32-bit arithmetic (larger plans run in pieces that fit in it).
template <class R, class F, class... Ops>
__global__ void elementwise_strided(R* out, long long n, MultiIndexer<1 + sizeof...(Ops), std::int32_t> indexer, F f,
                                    Ops... ops) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    std::int32_t offsets[1 + sizeof...(Ops)];
    indexer.offsets(static_cast<std::int32_t>(i), offsets);
    out[offsets[0]] = [&]<std::size_t... I>(std::index_sequence<I...>) {
      return cast<R>(f(ops.at(offsets[I + 1])...));
    }(std::index_sequence_for<Ops...>{});
  }
}

}  // namespace xp::kernels
