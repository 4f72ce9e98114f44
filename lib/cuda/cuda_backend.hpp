#pragma once
// The CUDA backend's entry points, declared without CUDA headers. In a build without CUDA,
// lib/cuda/without_cuda.cpp defines them: no backend, no runtime, no GPUs.
#include "core/backend.hpp"
#include "core/runtime.hpp"

namespace xp::detail {

// nullptr in a build without CUDA.
Backend* cuda_backend() noexcept;
Runtime* cuda_runtime() noexcept;

}  // namespace xp::detail
