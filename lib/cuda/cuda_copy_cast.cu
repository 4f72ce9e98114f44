#include "core/view_kernels.hpp"
#include "cuda/cuda_loops.cuh"
#include "cuda/cuda_view_loops.hpp"

namespace xp::detail {

// Its own file: the dtype pairs of casts are most of the view loops' kernels.
void cuda_copy_cast(const StridedView& src, const StridedView& dst, const Exec& exec) {
  ViewKernels<CudaLoops>::copy_cast(src, dst, exec);
}

}  // namespace xp::detail
