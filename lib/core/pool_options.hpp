#pragma once
// The options of a device's default pool, read from the environment:
// XP_DISABLE_POOL=1 turns caching off; XP_GPU_MEMORY_LIMIT limits GPU pools.
#include <cstddef>
#include <string_view>

#include "xp/device.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// "1073741824" (bytes) or "40%" (of total_bytes; fractions allowed, at most 100%); ValueError otherwise.
std::size_t parse_memory_limit(std::string_view text, std::size_t total_bytes);

PoolOptions pool_options_from_environment(Device device, std::size_t device_total_bytes);

}  // namespace xp::detail
