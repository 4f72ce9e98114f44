#pragma once
// The CUDA runtime's current device, switched through the runtime's DeviceGuard interface.
// CudaDeviceGuard also checks that the device exists, so every use of a missing gpu(i) is a
// CudaError naming it.
#include "core/runtime.hpp"
#include "xp/error.hpp"

namespace xp::detail {

Runtime* cuda_runtime() noexcept;

// Throws CudaError unless gpu(id) exists: the error of cudaGetDeviceCount when there is no usable
// driver or device, cudaErrorInvalidDevice when id is past the last GPU.
void check_gpu_exists(int id);

class CudaDeviceGuard {
 public:
  explicit CudaDeviceGuard(int id) : guard_(checked_impl(id), id) {}

 private:
  static const Runtime& checked_impl(int id) {
    check_gpu_exists(id);
    return *cuda_runtime();
  }
  DeviceGuard guard_;
};

// Runs `release` (a free or destroy call) with gpu(id) current, from a destructor: a failure cannot
// be reported there, and it would be a sticky error of earlier work that the next checked call on
// the device reports anyway.
template <class Release>
void release_on_device(int id, Release&& release) noexcept {
  try {
    const CudaDeviceGuard guard(id);
    release();
  } catch (const CudaError&) {}
}

}  // namespace xp::detail
