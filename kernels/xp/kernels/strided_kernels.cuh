#pragma once
// CUDA kernels over strided arrays: grid-stride loops around the shared functors and indexer.
// The CPU drivers in lib/cpu/strided_loops.hpp run the same functors.
#include <cstdint>

#include "xp/kernels/cast.hpp"
#include "xp/kernels/indexer.hpp"

namespace xp::kernels {

template <class T, class Generator>
__global__ void generate_kernel(T* out, StridedIndexer out_index, std::int64_t n, Generator gen) {
  const std::int64_t stride = std::int64_t(blockDim.x) * gridDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[out_index.offset(i)] = gen(i);
}

template <class Src, class Dst>
__global__ void copy_cast_kernel(const Src* in, StridedIndexer in_index, Dst* out,
                                 StridedIndexer out_index, std::int64_t n) {
  const std::int64_t stride = std::int64_t(blockDim.x) * gridDim.x;
  for (std::int64_t i = std::int64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    out[out_index.offset(i)] = cast<Dst>(in[in_index.offset(i)]);
}

}  // namespace xp::kernels
