// The CUDA backend's entry points in a build without CUDA.
#include "cuda/cuda_backend.hpp"

namespace xp::detail {

Backend* cuda_backend() noexcept { return nullptr; }
int cuda_device_count() noexcept { return 0; }

}  // namespace xp::detail
