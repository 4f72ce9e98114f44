#include "xp/kernels/cuda/launch_shape.hpp"

#include <cuda_runtime.h>

#include "cuda/cuda_check.hpp"

namespace xp::detail {

LaunchShape best_launch_shape(const void* kernel, int device_id) {
  int grid = 0, block = 0;
  XP_CUDA_CHECK(cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel), device_id);
  return {grid, block};
}

}  // namespace xp::detail
