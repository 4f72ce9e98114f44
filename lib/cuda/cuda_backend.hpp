#pragma once
// The CUDA backend's entry points, declared without CUDA headers. In a build without CUDA,
// lib/api/without_cuda.cpp defines them: no backend and no GPUs.
#include "core/backend.hpp"

namespace xp::detail {

// nullptr in a build without CUDA.
Backend* cuda_backend() noexcept;
// Usable GPUs; 0 without CUDA, without a driver or without a device.
int cuda_device_count() noexcept;

}  // namespace xp::detail
