#pragma once
// The CUDA loop driver of reductions: picks the kernels of reduction_kernels.cuh for a
// ReductionPlan and launches them on the plan's stream. Partials and the accumulators live in
// memory from the plan's scratch pool (the device's), from the blocks of that stream; nothing waits
// for the GPU.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "xp/detail/reduction_plan.hpp"
#include "xp/kernels/cuda/launch.cuh"
#include "xp/kernels/cuda/reduction_kernels.cuh"
#include "xp/kernels/cuda/scoped_device.hpp"
#include "xp/kernels/make_indexer.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// How reduce_runs splits each run: when outputs are too few to fill the device, into chunks
// reduced in parallel (a block each, in a grid column per output).
struct RunSplit {
  long long chunk;
  int splits;
};

inline RunSplit split_runs(long long outputs, long long reduced, int blocks_to_fill) {
  const long long min_chunk = static_cast<long long>(kernels::kReduceThreads) * 8;
  const long long wanted = std::max<long long>(1, blocks_to_fill / std::max<long long>(outputs, 1));
  const long long splits = std::clamp<long long>((reduced + min_chunk - 1) / min_chunk, 1, wanted);
  const long long chunk = (reduced + splits - 1) / splits;
  return {chunk, static_cast<int>(splits)};
}

template <bool Indexed, class T, class Acc, class Map, class Combine>
void launch_runs(int device, cudaStream_t stream, const T* input, Acc* partial, long long outputs, long long reduced,
                 const kernels::StridedIndexer& kept, const kernels::StridedIndexer& positions, long long step,
                 const Acc& identity, const Map& map, const Combine& combine, const RunSplit& split) {
  // A column of blocks per output, up to CUDA's limit on grid rows (the kernel loops over the rest).
  const dim3 grid(static_cast<unsigned>(split.splits), static_cast<unsigned>(std::min<long long>(outputs, 65535)));
  kernels::reduce_runs<Indexed><<<grid, kernels::kReduceThreads, 0, stream>>>(
      input, partial, outputs, reduced, split.chunk, split.splits, kept, positions, step, identity, map, combine);
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw_cuda_failure(status, "cudaLaunchKernel", device);
}

template <class T, class Acc, class R, class Map, class Combine, class Post>
void launch_reduction(const ReductionPlan& plan, const Acc& identity, const Map& map, const Combine& combine,
                      const Post& post) {
  if (plan.outputs == 0) return;
  const int device = plan.exec.device.id();
  const ScopedCudaDevice scope(device);
  const auto stream = static_cast<cudaStream_t>(plan.exec.stream.native_handle());
  MemoryPool& pool = *plan.scratch;
  const Allocation accumulators = pool.malloc(static_cast<std::size_t>(plan.outputs) * sizeof(Acc), plan.exec.stream);
  Acc* const result = static_cast<Acc*>(accumulators.get());
  const T* const input = static_cast<const T*>(plan.input);

  const int kept_axes = plan.kept_shape.ndim(), reduced_axes = plan.reduced_shape.ndim();
  const long long step = reduced_axes == 1 ? plan.reduced_strides[0] : 0;
  if (plan.reduced == 0) {
    launch<&kernels::reduction_fill<Acc>>(device, plan.outputs, stream, result, plan.outputs, identity);
  } else if (reduced_axes == 1 && kept_axes >= 1 && step != 1 && plan.kept_strides[kept_axes - 1] == 1) {
    const long long width = plan.kept_shape[kept_axes - 1];
    launch<&kernels::reduce_columns<T, Acc, Map, Combine>>(
        device, plan.outputs, stream, input, result, plan.outputs, width, plan.reduced, step,
        kernels::make_indexer(plan.kept_shape, plan.kept_strides, kept_axes - 1), identity, map, combine);
  } else {
    const auto kept = kernels::make_indexer(plan.kept_shape, plan.kept_strides);
    const auto positions = kernels::make_indexer(plan.reduced_shape, plan.reduced_strides);
    const auto runs = [&]<bool Indexed>() {
      const RunSplit split =
          split_runs(plan.outputs, plan.reduced,
                     launch_shape<&kernels::reduce_runs<Indexed, T, Acc, Map, Combine>>(device).blocks_to_fill);
      if (split.splits == 1) {
        launch_runs<Indexed>(device, stream, input, result, plan.outputs, plan.reduced, kept, positions, step, identity,
                             map, combine, split);
        return;
      }
      // First the chunks of every run, then each run's chunks (contiguous partials).
      const Allocation chunks =
          pool.malloc(static_cast<std::size_t>(plan.outputs * split.splits) * sizeof(Acc), plan.exec.stream);
      Acc* const partial = static_cast<Acc*>(chunks.get());
      launch_runs<Indexed>(device, stream, input, partial, plan.outputs, plan.reduced, kept, positions, step, identity,
                           map, combine, split);
      kernels::StridedIndexer rows;
      rows.ndim = 1;
      rows.extents[0] = plan.outputs;
      rows.strides[0] = split.splits;
      launch_runs<false>(device, stream, static_cast<const Acc*>(partial), result, plan.outputs, split.splits, rows,
                         kernels::StridedIndexer{}, 1, identity, kernels::Identity{}, combine,
                         RunSplit{split.splits, 1});
    };
    if (reduced_axes > 1) runs.template operator()<true>();
    else runs.template operator()<false>();
  }
  launch<&kernels::reduction_post<Acc, R, Post>>(device, plan.outputs, stream, static_cast<const Acc*>(result),
                                                 static_cast<R*>(plan.output), plan.outputs, post);
}

}  // namespace xp::detail
