#include "core/content_hash.hpp"

namespace xp::detail {

namespace {

// SplitMix64's finaliser: spreads every input bit over the word.
std::uint64_t mix(std::uint64_t x) noexcept {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

ContentHash content_hash(std::string_view bytes) noexcept {
  // Two FNV-1a lanes with different bases and primes, finalised with the length.
  std::uint64_t a = 0xcbf29ce484222325ULL, b = 0x84222325cbf29ce4ULL;
  for (unsigned char c : bytes) {
    a = (a ^ c) * 0x100000001b3ULL;
    b = (b ^ c) * 0x100000001c7ULL;
  }
  const std::uint64_t n = bytes.size();
  return {mix(a ^ mix(n)), mix(b + n * 0x9e3779b97f4a7c15ULL)};
}

std::string ContentHash::hex() const {
  static constexpr char digits[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int k = 0; k < 16; ++k) {
    out[15 - k] = digits[(high >> (4 * k)) & 15];
    out[31 - k] = digits[(low >> (4 * k)) & 15];
  }
  return out;
}

}  // namespace xp::detail
