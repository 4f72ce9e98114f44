// XP_GPU_MEMORY_LIMIT ("1073741824", "40%"): a byte count, never more than the device for a
// percentage, or a ValueError. Input: the text, then optionally a NUL and the device's size in bytes
// (little-endian, up to 8 bytes; 80 GiB without).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "core/pool_options.hpp"
#include "fuzz_check.hpp"
#include "xp/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::uint64_t total = 80ull << 30;
  if (const std::size_t nul = text.rfind('\0'); nul != std::string_view::npos) {
    const std::string_view bytes = text.substr(nul + 1, 8);
    total = 0;
    for (std::size_t k = 0; k < bytes.size(); ++k)
      total |= std::uint64_t{static_cast<unsigned char>(bytes[k])} << (8 * k);
    text = text.substr(0, nul);
  }
  try {
    const std::size_t limit = xp::detail::parse_memory_limit(text, total);
    if (text.ends_with('%')) FUZZ_CHECK(limit <= total);
  } catch (const xp::ValueError&) {}
  return 0;
}
