#include "api/backends.hpp"

#include <array>

#include "cpu/cpu_backend.hpp"
#include "cpu/cpu_runtime.hpp"
#include "cuda/cuda_backend.hpp"
#include "xp/error.hpp"

namespace xp::detail {

namespace {

// The runtimes of the device types, installed when the library is loaded.
[[maybe_unused]] const bool runtimes_installed = [] {
  set_runtime(DeviceType::cpu, &cpu_runtime());
  set_runtime(DeviceType::cpu_pinned, &cpu_runtime());
  if (Runtime* cuda = cuda_runtime()) set_runtime(DeviceType::gpu, cuda);
  return true;
}();

}  // namespace

Backend& backend_for(Device device) {
  // Indexed by DeviceType: cpu, gpu (null without CUDA), cpu_pinned.
  static const std::array<Backend*, 4> backends{nullptr, &cpu_backend(), cuda_backend(), &cpu_backend()};
  Backend* const backend = backends[static_cast<std::size_t>(device.type())];
  XP_CHECK(backend != nullptr, NotImplementedError,
           "xparray was built without CUDA support: ", device, " cannot be used");
  return *backend;
}

RawAllocator& raw_allocator_for(Device device) {
  if (device.type() == DeviceType::cpu_pinned && num_gpus() > 0) return cuda_backend()->raw_allocator(device);
  return backend_for(device).raw_allocator(device);
}

}  // namespace xp::detail
