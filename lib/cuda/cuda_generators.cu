#include "core/view_kernels.hpp"
#include "cuda/cuda_loops.cuh"
#include "cuda/cuda_view_loops.hpp"

namespace xp::detail {

void cuda_fill(const StridedView& dst, const void* value, const Exec& exec) {
  ViewKernels<CudaLoops>::fill(dst, value, exec);
}

void cuda_iota(const StridedView& dst, const IotaRange& range, const Exec& exec) {
  ViewKernels<CudaLoops>::iota(dst, range, exec);
}

}  // namespace xp::detail
