#pragma once
#include "xp/export.hpp"
// What kernel launches compiled in any nvcc translation unit (the library's or a user's) need from
// the library, declared without CUDA types.
namespace xp::detail {

// Makes gpu(id) the CUDA runtime's current device while it lives (CudaError if there is no such
// GPU), then restores the previous one.
class XP_API ScopedCudaDevice {
 public:
  explicit ScopedCudaDevice(int id);
  ~ScopedCudaDevice();
  ScopedCudaDevice(const ScopedCudaDevice&) = delete;
  ScopedCudaDevice& operator=(const ScopedCudaDevice&) = delete;

 private:
  // Used by the nvcc-compiled definition only; other compilers see just the declaration.
  [[maybe_unused]] int previous_;
  [[maybe_unused]] bool changed_;
};

// Throws CudaError for a failed CUDA call (status: a cudaError_t); device_id < 0: no device.
[[noreturn]] XP_API void throw_cuda_failure(int status, const char* call, int device_id);

}  // namespace xp::detail
