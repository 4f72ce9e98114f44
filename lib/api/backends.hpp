#pragma once
// Which backend serves a device.
#include "core/backend.hpp"

namespace xp::detail {

// The backend that computes on `device`: the CPU backend for cpu and cpu_pinned devices, the CUDA
// backend for GPUs (NotImplementedError in a build without CUDA).
Backend& backend_for(Device device);

// Where `device`'s memory comes from: pinned host memory is the CUDA runtime's when a GPU is
// present, plain aligned host memory otherwise.
RawAllocator& raw_allocator_for(Device device);

}  // namespace xp::detail
