#pragma once
// The checked layer every CUDA runtime call goes through: a failure becomes an xp::CudaError that
// names the call, the device and the CUDA error.
#include <cuda_runtime_api.h>

namespace xp::detail {

// device_id < 0: the call concerns no particular device.
[[noreturn]] void throw_cuda_error(cudaError_t status, const char* call_text, int device_id);

inline void check_cuda(cudaError_t status, const char* call_text, int device_id) {
  if (status != cudaSuccess) [[unlikely]]
    throw_cuda_error(status, call_text, device_id);
}

}  // namespace xp::detail

#define XP_CUDA_CHECK(call, device_id) ::xp::detail::check_cuda((call), #call, (device_id))
