#include "api/array/backends.hpp"

#include "api/array/array_factory.hpp"
#include "cpu/cpu_runtime.hpp"
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

void throw_without_cuda(Device device) {
  throw NotImplementedError("xparray was built without CUDA support: ", device, " cannot be used");
}

RawAllocator& raw_allocator_for(Device device) {
  if (device.type() == DeviceType::cpu_pinned && num_gpus() > 0) return cuda_backend()->raw_allocator(device);
  return backend_for(device).raw_allocator(device);
}

}  // namespace xp::detail
