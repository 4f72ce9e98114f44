#include "core/runtime.hpp"

#include "xp/error.hpp"

namespace xp::detail {

void runtime_registry::throw_missing(Device device) {
  throw NotImplementedError("xparray was built without CUDA support: ", device, " cannot be used");
}

Runtime* set_runtime(DeviceType type, Runtime* runtime) noexcept {
  return runtime_registry::runtimes[static_cast<std::size_t>(type)].exchange(runtime, std::memory_order_acq_rel);
}

}  // namespace xp::detail
