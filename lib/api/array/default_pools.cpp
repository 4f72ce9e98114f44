// The default pool of every device: created at first use, never destroyed.
#include <array>
#include <atomic>
#include <mutex>

#include "api/array/device_services.hpp"
#include "core/pool_options.hpp"
#include "xp/memory_pool.hpp"

namespace xp {

MemoryPool& get_default_memory_pool(Device device) {
  constexpr int kSlotsPerType = Device::kMaxDeviceId;
  static std::array<std::atomic<MemoryPool*>, 3 * kSlotsPerType> pools{};
  std::atomic<MemoryPool*>& slot = pools[(static_cast<int>(device.type()) - 1) * kSlotsPerType + device.id()];
  if (MemoryPool* pool = slot.load(std::memory_order_acquire)) return *pool;

  static std::mutex creation;
  const std::lock_guard lock(creation);
  if (MemoryPool* pool = slot.load(std::memory_order_acquire)) return *pool;
  RawAllocator& raw = detail::raw_allocator_for(device);
  const std::size_t total = device.is_gpu() ? detail::runtime_for(device).memory_info(device).total : 0;
  auto* pool = new MemoryPool(raw, device, detail::pool_options_from_environment(device, total));
  slot.store(pool, std::memory_order_release);
  return *pool;
}

PinnedMemoryPool& get_default_pinned_memory_pool() { return get_default_memory_pool(cpu_pinned(0)); }

}  // namespace xp
