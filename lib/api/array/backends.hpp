#pragma once
// Which backend serves a device.
#include <array>

#include "core/backend.hpp"
#include "cpu/cpu_backend.hpp"
#include "cuda/cuda_backend.hpp"

namespace xp::detail {

[[noreturn]] void throw_without_cuda(Device device);

// The backend that computes on `device`: the CPU backend for cpu and cpu_pinned devices, the CUDA
// backend for GPUs (NotImplementedError in a build without CUDA). Inline: every operation asks.
inline Backend& backend_for(Device device) {
  // Indexed by DeviceType: cpu, gpu (null without CUDA), cpu_pinned.
  static const std::array<Backend*, 4> backends{nullptr, &cpu_backend(), cuda_backend(), &cpu_backend()};
  Backend* const backend = backends[static_cast<std::size_t>(device.type())];
  if (backend == nullptr) [[unlikely]]
    throw_without_cuda(device);
  return *backend;
}

// Where `device`'s memory comes from: pinned host memory is the CUDA runtime's when a GPU is
// present, plain aligned host memory otherwise.
RawAllocator& raw_allocator_for(Device device);

}  // namespace xp::detail
