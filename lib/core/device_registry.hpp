#pragma once
// One registry of what serves each device type: its runtime, its device kernels, its collectives and
// its kernel compiler. lib/api installs the real ones when the library is loaded (the CPU's for cpu
// and cpu_pinned devices, CUDA's for GPUs); tests install fakes for a scope (ScopedServices).
#include <array>
#include <atomic>
#include <cstddef>

#include "core/runtime.hpp"
#include "xp/device.hpp"

namespace xp::detail {

class DeviceKernels;
class DeviceCollectives;
class KernelCompiler;

// What serves one device type; null parts are absent (GPUs in a build without CUDA).
struct DeviceServices {
  Runtime* runtime = nullptr;
  DeviceKernels* kernels = nullptr;
  DeviceCollectives* collectives = nullptr;
  KernelCompiler* compiler = nullptr;
};

namespace device_registry {
struct Entry {
  std::atomic<Runtime*> runtime{nullptr};
  std::atomic<DeviceKernels*> kernels{nullptr};
  std::atomic<DeviceCollectives*> collectives{nullptr};
  std::atomic<KernelCompiler*> compiler{nullptr};
};
// Indexed by DeviceType; read on every operation, hence inline.
inline std::array<Entry, 4> entries{};
// NotImplementedError: a GPU in a build without CUDA.
[[noreturn]] void throw_missing(Device device);

template <class Part>
Part& part_for(std::atomic<Part*> Entry::* part, Device device) {
  Part* const found = (entries[static_cast<std::size_t>(device.type())].*part).load(std::memory_order_acquire);
  if (found == nullptr) [[unlikely]]
    throw_missing(device);
  return *found;
}
}  // namespace device_registry

inline Runtime& runtime_for(Device device) {
  return device_registry::part_for(&device_registry::Entry::runtime, device);
}
inline DeviceKernels& kernels_for(Device device) {
  return device_registry::part_for(&device_registry::Entry::kernels, device);
}
inline DeviceCollectives& collectives_for(Device device) {
  return device_registry::part_for(&device_registry::Entry::collectives, device);
}
inline KernelCompiler& compiler_for(Device device) {
  return device_registry::part_for(&device_registry::Entry::compiler, device);
}

// Installs the non-null parts of `services` for `type`; returns the parts they replace (null where
// nothing was installed or nothing replaced).
DeviceServices install_services(DeviceType type, const DeviceServices& services) noexcept;

// Fakes installed for the life of a scope (the non-null parts of `fake`), then the previous parts again.
class ScopedServices {
 public:
  ScopedServices(DeviceType type, const DeviceServices& fake) noexcept;
  ~ScopedServices();
  ScopedServices(const ScopedServices&) = delete;
  ScopedServices& operator=(const ScopedServices&) = delete;

 private:
  DeviceType type_;
  DeviceServices fake_, previous_;
};

}  // namespace xp::detail
