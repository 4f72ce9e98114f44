#include "core/pool_options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "xp/error.hpp"

namespace xp::detail {

std::size_t parse_memory_limit(std::string_view text, std::size_t total_bytes) {
  const auto invalid = [&] {
    return ValueError("invalid memory limit '", text,
                      "': expected a number of bytes (\"1073741824\") or a percentage of the "
                      "device's memory (\"40%\")");
  };
  if (text.empty()) throw invalid();
  const char* first = text.data();
  const char* last = text.data() + text.size();
  if (text.back() == '%') {
    double percent = 0;
    const auto [end, error] = std::from_chars(first, last - 1, percent);
    if (error != std::errc() || end != last - 1 || !std::isfinite(percent) || percent < 0 || percent > 100)
      throw invalid();
    // Rounding may carry a share of nearly 2^64 bytes past the total (found by fuzz_memory_limit).
    const long double share = static_cast<long double>(total_bytes) * percent / 100;
    return share >= static_cast<long double>(total_bytes) ? total_bytes : static_cast<std::size_t>(share);
  }
  unsigned long long bytes = 0;
  const auto [end, error] = std::from_chars(first, last, bytes);
  if (error != std::errc() || end != last) throw invalid();
  return static_cast<std::size_t>(bytes);
}

PoolOptions pool_options_from_environment(Device device, std::size_t device_total_bytes) {
  PoolOptions options;
  if (const char* disable = std::getenv("XP_DISABLE_POOL"); disable && *disable) {
    const std::string_view value(disable);
    XP_CHECK(value == "0" || value == "1", ValueError, "XP_DISABLE_POOL must be 0 or 1, not '", value, "'");
    options.caching = value == "0";
  }
  if (const char* limit = std::getenv("XP_GPU_MEMORY_LIMIT"); device.is_gpu() && limit && *limit) {
    try {
      options.limit = parse_memory_limit(limit, device_total_bytes);
    } catch (const ValueError& e) { throw ValueError("XP_GPU_MEMORY_LIMIT: ", e.what()); }
  }
  return options;
}

}  // namespace xp::detail
