#include "xp/kernels/cuda/scoped_device.hpp"

#include "cuda/cuda_check.hpp"
#include "cuda/cuda_device_guard.hpp"

namespace xp::detail {

ScopedCudaDevice::ScopedCudaDevice(int id) {
  check_gpu_exists(id);
  const Runtime& impl = *cuda_runtime();
  previous_ = impl.current_device();
  changed_ = previous_ != id;
  if (changed_) impl.set_device(id);
}

ScopedCudaDevice::~ScopedCudaDevice() {
  if (changed_) cuda_runtime()->restore_device(previous_);
}

void throw_cuda_failure(int status, const char* call, int device_id) {
  throw_cuda_error(static_cast<cudaError_t>(status), call, device_id);
}

}  // namespace xp::detail
