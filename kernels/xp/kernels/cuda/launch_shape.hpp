#pragma once
#include "xp/export.hpp"
// The launch configuration of a kernel, asked of the library (compiled once) rather than of the CUDA
// runtime's occupancy template, which every nvcc translation unit would compile again per kernel.
namespace xp::detail {

struct LaunchShape {
  int blocks_to_fill;  // the grid that fills the device at the best occupancy
  int block;  // threads per block
};

// The block size of greatest occupancy for `kernel` (a __global__ function's address) on gpu(device_id),
// which must be the current device, and the grid that fills the device at it; CudaError on failure.
XP_API LaunchShape best_launch_shape(const void* kernel, int device_id);

}  // namespace xp::detail
