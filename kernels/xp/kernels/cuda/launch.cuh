#pragma once
// Launching a kernel on a device with the configuration that maximises its occupancy, asked of the
// CUDA runtime once per (kernel, device) and remembered (Chainer's memoize(for_each_device=True)).
// The question is asked here, in the module that registered the kernel: a program's kernels (xp::transform
// in the user's nvcc code) live in its own CUDA runtime, which the library's static runtime cannot see.
#include <cuda_runtime.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

#include "xp/device.hpp"
#include "xp/kernels/cuda/scoped_device.hpp"

namespace xp::detail {

struct LaunchShape {
  int blocks_to_fill;  // the grid that fills the device at the best occupancy
  int block;  // threads per block
};

// For `kernel` (a __global__ function's address) on gpu(device), the current device. Typeless, so that
// the runtime's occupancy template is compiled once per translation unit, not once per kernel.
inline LaunchShape best_launch_shape(const void* kernel, int device) {
  int grid = 0, block = 0;
  const cudaError_t status = cudaOccupancyMaxPotentialBlockSize(&grid, &block, kernel);
  if (status != cudaSuccess) throw_cuda_failure(status, "cudaOccupancyMaxPotentialBlockSize", device);
  return {grid, block};
}

template <auto Kernel>
LaunchShape launch_shape(int device) {
  static std::array<std::atomic<std::uint64_t>, Device::kMaxDeviceId> memo{};
  std::uint64_t packed = memo[device].load(std::memory_order_relaxed);
  if (packed == 0) {
    const LaunchShape shape = best_launch_shape(reinterpret_cast<const void*>(Kernel), device);
    packed = (static_cast<std::uint64_t>(shape.blocks_to_fill) << 32) | static_cast<std::uint32_t>(shape.block);
    memo[device].store(packed, std::memory_order_relaxed);
  }
  return {static_cast<int>(packed >> 32), static_cast<int>(packed & 0xffffffffu)};
}

// Launches Kernel for `work` grid-stride items on the current device (which must be `device`).
template <auto Kernel, class... Args>
void launch(int device, long long work, cudaStream_t stream, const Args&... args) {
  const LaunchShape shape = launch_shape<Kernel>(device);
  const long long wanted = (work + shape.block - 1) / shape.block;
  const auto grid = static_cast<unsigned>(std::clamp<long long>(wanted, 1, shape.blocks_to_fill));
  Kernel<<<grid, shape.block, 0, stream>>>(args...);
  const cudaError_t status = cudaGetLastError();
  if (status != cudaSuccess) throw_cuda_failure(status, "cudaLaunchKernel", device);
}

}  // namespace xp::detail
