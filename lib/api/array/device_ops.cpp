// What a Device can do, routed to its runtime and its pool.
#include "api/array/device_services.hpp"
#include "core/stream_capture.hpp"
#include "cuda/cuda_services.hpp"
#include "xp/device.hpp"
#include "xp/memory_pool.hpp"

namespace xp {

void Device::synchronize() const {
  detail::check_no_wait_in_capture(*this, "Device::synchronize");
  detail::runtime_for(*this).synchronize_device(*this);
}

void synchronize(Device device) { device.synchronize(); }

void Device::empty_cache() const { get_default_memory_pool(*this).free_all_blocks(); }

MemoryInfo Device::memory_info() const { return detail::runtime_for(*this).memory_info(*this); }

bool built_with_cuda() noexcept { return detail::cuda_runtime() != nullptr; }

bool built_with_nccl() noexcept { return detail::cuda_has_nccl(); }

int num_gpus() noexcept {
  const detail::Runtime* cuda = detail::cuda_runtime();
  return cuda ? cuda->device_count() : 0;
}

MemoryInfo gpu_memory_info(int id) { return gpu(id).memory_info(); }

}  // namespace xp
