#include "core/runtime.hpp"

#include <atomic>

#include "xp/error.hpp"

namespace xp::detail {

namespace {

// Indexed by DeviceType (1..3).
std::array<std::atomic<Runtime*>, 4> runtimes{};

}  // namespace

Runtime& runtime_for(Device device) {
  Runtime* const runtime = runtimes[static_cast<std::size_t>(device.type())].load(std::memory_order_acquire);
  XP_CHECK(runtime != nullptr, NotImplementedError, "xparray was built without CUDA support: ", device,
           " cannot be used");
  return *runtime;
}

Runtime* set_runtime(DeviceType type, Runtime* runtime) noexcept {
  return runtimes[static_cast<std::size_t>(type)].exchange(runtime, std::memory_order_acq_rel);
}

}  // namespace xp::detail
