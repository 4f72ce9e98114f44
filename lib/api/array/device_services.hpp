#pragma once
// What serves each device (core/device_registry.hpp: runtime_for, kernels_for, collectives_for,
// compiler_for), installed when the library is loaded: the CPU's for cpu and cpu_pinned devices,
// CUDA's for GPUs (none in a build without CUDA: NotImplementedError).
#include "core/device_collectives.hpp"
#include "core/device_kernels.hpp"
#include "core/device_registry.hpp"
#include "core/kernel_compiler.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// Where `device`'s memory comes from: pinned host memory is the CUDA runtime's when a GPU is
// present, plain aligned host memory otherwise.
RawAllocator& raw_allocator_for(Device device);

}  // namespace xp::detail
