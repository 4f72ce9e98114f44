#pragma once
// The CUDA backend's entry points, declared without CUDA headers. In a build without CUDA,
// lib/cuda/without_cuda.cpp defines them: no backend, no runtime, no GPUs.
#include "core/backend.hpp"
#include "core/runtime.hpp"

namespace xp::detail {

// nullptr in a build without CUDA.
Backend* cuda_backend() noexcept;
Runtime* cuda_runtime() noexcept;
// Whether GPU collectives go through NCCL (lib/cuda/without_nccl.cpp where CMake found none).
bool cuda_has_nccl() noexcept;

}  // namespace xp::detail
