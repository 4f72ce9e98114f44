#pragma once
// A 128-bit hash of bytes, for naming cached kernels and checking their files: not cryptographic,
// collisions are caught by comparing the stored key.
#include <cstdint>
#include <string>
#include <string_view>

namespace xp::detail {

struct ContentHash {
  std::uint64_t high = 0, low = 0;
  std::string hex() const;  // 32 lowercase hex digits
  friend bool operator==(const ContentHash&, const ContentHash&) = default;
};

ContentHash content_hash(std::string_view bytes) noexcept;

}  // namespace xp::detail
