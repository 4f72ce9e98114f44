#include "core/device_registry.hpp"

#include "xp/error.hpp"

namespace xp::detail {

namespace {

// Sets the parts of `entry` that `mask` has to those of `services` (null included); returns the old ones.
DeviceServices exchange(device_registry::Entry& entry, const DeviceServices& mask, const DeviceServices& services) {
  DeviceServices old;
  constexpr auto order = std::memory_order_acq_rel;
  if (mask.runtime) old.runtime = entry.runtime.exchange(services.runtime, order);
  if (mask.kernels) old.kernels = entry.kernels.exchange(services.kernels, order);
  if (mask.collectives) old.collectives = entry.collectives.exchange(services.collectives, order);
  if (mask.compiler) old.compiler = entry.compiler.exchange(services.compiler, order);
  return old;
}

device_registry::Entry& entry_of(DeviceType type) { return device_registry::entries[static_cast<std::size_t>(type)]; }

}  // namespace

void device_registry::throw_missing(Device device) {
  throw NotImplementedError("xparray was built without CUDA support: ", device, " cannot be used");
}

DeviceServices install_services(DeviceType type, const DeviceServices& services) noexcept {
  return exchange(entry_of(type), services, services);
}

ScopedServices::ScopedServices(DeviceType type, const DeviceServices& fake) noexcept
    : type_(type), fake_(fake), previous_(install_services(type, fake)) {}

ScopedServices::~ScopedServices() { exchange(entry_of(type_), fake_, previous_); }

}  // namespace xp::detail
