#include "api/array/device_services.hpp"

#include "cpu/cpu_device_kernels.hpp"
#include "cpu/cpu_runtime.hpp"
#include "cpu/host_allreduce.hpp"
#include "cpu/host_kernel_compiler.hpp"
#include "cuda/cuda_services.hpp"
#include "xp/device.hpp"

namespace xp::detail {

namespace {

[[maybe_unused]] const bool services_installed = [] {
  const DeviceServices host{&cpu_runtime(), &cpu_device_kernels(), &host_collectives(), &host_kernel_compiler()};
  install_services(DeviceType::cpu, host);
  install_services(DeviceType::cpu_pinned, host);
  if (Runtime* cuda = cuda_runtime())
    install_services(DeviceType::gpu, {cuda, cuda_device_kernels(), cuda_collectives(), cuda_kernel_compiler()});
  return true;
}();

}  // namespace

RawAllocator& raw_allocator_for(Device device) {
  if (device.type() == DeviceType::cpu_pinned && num_gpus() > 0) return cuda_runtime()->raw_allocator(device);
  return runtime_for(device).raw_allocator(device);
}

}  // namespace xp::detail
