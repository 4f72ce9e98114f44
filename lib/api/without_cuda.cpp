// The CUDA backend's entry points in a build without CUDA.
#include "cuda/cuda_backend.hpp"
#include "xp/detail/cuda_launch.hpp"
#include "xp/error.hpp"

namespace xp::detail {

Backend* cuda_backend() noexcept { return nullptr; }
int cuda_device_count() noexcept { return 0; }

// Kernels compiled against this library by nvcc cannot run on it.
ScopedCudaDevice::ScopedCudaDevice(int id) : previous_(id), changed_(false) {
  throw NotImplementedError("xparray was built without CUDA support: ", gpu(id), " cannot be used");
}
ScopedCudaDevice::~ScopedCudaDevice() = default;

void throw_cuda_failure(int status, const char* call, int) {
  throw NotImplementedError("xparray was built without CUDA support (", call, " returned ", status, ")");
}

}  // namespace xp::detail
