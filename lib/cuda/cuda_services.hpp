#pragma once
// What serves GPUs (core/device_registry.hpp), declared without CUDA headers. In a build without
// CUDA, lib/cuda/without_cuda.cpp defines them: all null, no GPUs.
#include "core/device_collectives.hpp"
#include "core/device_kernels.hpp"
#include "core/kernel_compiler.hpp"
#include "core/runtime.hpp"

namespace xp::detail {

// nullptr in a build without CUDA.
Runtime* cuda_runtime() noexcept;
DeviceKernels* cuda_device_kernels() noexcept;
DeviceCollectives* cuda_collectives() noexcept;
KernelCompiler* cuda_kernel_compiler() noexcept;
// Whether GPU collectives go through NCCL (lib/cuda/without_nccl.cpp where CMake found none).
bool cuda_has_nccl() noexcept;

}  // namespace xp::detail
