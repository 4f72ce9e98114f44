#pragma once
// CUDA kernels of reductions, around the same map and combine functors as the CPU driver:
// - reduce_runs: blocks of threads reduce runs (one output's elements, or a chunk of them when
//   outputs are few) with cub::BlockReduce; a second pass over the chunks' partials finishes;
// - reduce_columns: outputs contiguous in the input with the reduced axis outer: a thread per
//   output walks the rows (neighbouring threads read neighbouring elements), combining blocks of
//   rows before adding them up;
// - reduction_post, reduction_fill: post into the output; the identity for empty reductions.
#include <cub/block/block_reduce.cuh>

#include "xp/kernels/cast.hpp"
#include "xp/kernels/indexer.hpp"
#include "xp/kernels/monoids.hpp"

namespace xp::kernels {

inline constexpr int kReduceThreads = 256;

// How a block combines its threads' values: warp shuffles, but for 16-byte-aligned values (complex128)
// through shared memory, whose shuffles ptxas spilled to local memory.
template <class Acc>
inline constexpr cub::BlockReduceAlgorithm kBlockReduceAlgorithm =
    alignof(Acc) >= 16 ? cub::BLOCK_REDUCE_RAKING : cub::BLOCK_REDUCE_WARP_REDUCTIONS;
inline constexpr long long kColumnBlockRows = 64;

// Indexed: a run's elements found through `positions` (several reduced axes); else `step` apart.
// Two kernels rather than a branch: together the two walks make ptxas spill registers.
template <bool Indexed, class T, class Acc, class Map, class Combine>
__global__ void __launch_bounds__(kReduceThreads)
    reduce_runs(const T* input, Acc* partial, long long outputs, long long reduced, long long chunk, int splits,
                StridedIndexer kept, StridedIndexer positions, long long step, Acc identity, Map map, Combine combine) {
  using BlockReduce = cub::BlockReduce<Acc, kReduceThreads, kBlockReduceAlgorithm<Acc>>;
  __shared__ typename BlockReduce::TempStorage storage;
  for (long long k = blockIdx.y; k < outputs; k += gridDim.y) {
    const T* base = input + kept.offset(k);
    const long long begin = blockIdx.x * chunk, end = begin + chunk < reduced ? begin + chunk : reduced;
    Acc acc = identity;
    for (long long j = begin + threadIdx.x; j < end; j += kReduceThreads) {
      const long long offset = Indexed ? positions.offset(j) : j * step;
      acc = combine(acc, static_cast<Acc>(apply_map(map, base[offset], j)));
    }
    const Acc total = BlockReduce(storage).Reduce(acc, combine);
    if (threadIdx.x == 0) partial[k * splits + blockIdx.x] = total;
    __syncthreads();  // the storage serves the next output
  }
}

template <class T, class Acc, class Map, class Combine>
__global__ void reduce_columns(const T* input, Acc* partial, long long outputs, long long width, long long rows,
                               long long row_step, StridedIndexer kept_outer, Acc identity, Map map, Combine combine) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long e = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; e < outputs; e += stride) {
    const long long outer = e / width;
    const T* column = input + kept_outer.offset(outer) + (e - outer * width);
    Acc total = identity;
    for (long long first = 0; first < rows; first += kColumnBlockRows) {
      const long long last = first + kColumnBlockRows < rows ? first + kColumnBlockRows : rows;
      Acc block = identity;
      for (long long r = first; r < last; ++r)
        block = combine(block, static_cast<Acc>(apply_map(map, column[r * row_step], r)));
      total = combine(total, block);
    }
    partial[e] = total;
  }
}

template <class Acc, class R, class Post>
__global__ void reduction_post(const Acc* partial, R* out, long long n, Post post) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride)
    out[k] = cast<R>(post(partial[k]));
}

template <class Acc>
__global__ void reduction_fill(Acc* partial, long long n, Acc identity) {
  const long long stride = static_cast<long long>(blockDim.x) * gridDim.x;
  for (long long k = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; k < n; k += stride)
    partial[k] = identity;
}

}  // namespace xp::kernels
