#include "api/backends.hpp"

#include "cpu/cpu_backend.hpp"
#include "cuda/cuda_backend.hpp"
#include "xp/error.hpp"

namespace xp::detail {

Backend& backend_for(Device device) {
  if (device.is_host()) return cpu_backend();
  Backend* cuda = cuda_backend();
  XP_CHECK(cuda != nullptr, NotImplementedError,
           "xparray was built without CUDA support: ", device, " cannot be used");
  return *cuda;
}

RawAllocator& raw_allocator_for(Device device) {
  if (device.type() == DeviceType::cpu_pinned && cuda_device_count() > 0)
    return cuda_backend()->raw_allocator(device);
  return backend_for(device).raw_allocator(device);
}

}  // namespace xp::detail
