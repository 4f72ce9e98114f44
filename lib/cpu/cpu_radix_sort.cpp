#include "cpu/cpu_radix_sort.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <vector>

namespace xp::detail {

namespace {

constexpr int kDigitBits = 8;
constexpr int kBuckets = 1 << kDigitBits;
using Counts = std::array<std::int64_t, kBuckets>;

template <class K, class V>
void insertion_sort(K* keys, V* values, std::int64_t n) {
  for (std::int64_t i = 1; i < n; ++i) {
    const K key = keys[i];
    std::int64_t j = i;
    if constexpr (std::is_void_v<V>) {
      for (; j > 0 && keys[j - 1] > key; --j) keys[j] = keys[j - 1];
    } else {
      const V value = values[i];
      for (; j > 0 && keys[j - 1] > key; --j) {
        keys[j] = keys[j - 1];
        values[j] = values[j - 1];
      }
      values[j] = value;
    }
    keys[j] = key;
  }
}

// Each piece's count of every digit at `shift`; whether one digit holds every key (a pass to skip).
template <class K>
bool count_digits(const K* keys, std::int64_t n, int shift, std::vector<Counts>& counts) {
  const int parts = static_cast<int>(counts.size());
  for_parts(n, parts, [&](std::int64_t k, std::int64_t begin, std::int64_t end) {
    Counts& count = counts[static_cast<std::size_t>(k)];
    count.fill(0);
    for (std::int64_t i = begin; i < end; ++i) ++count[(keys[i] >> shift) & (kBuckets - 1)];
  });
  for (int digit = 0; digit < kBuckets; ++digit) {
    std::int64_t total = 0;
    for (const Counts& count : counts) total += count[static_cast<std::size_t>(digit)];
    if (total == n) return true;
    if (total != 0) return false;
  }
  return false;
}

// Turns the counts into each piece's first position for every digit: digits in order, and within
// a digit the pieces in order (what keeps the sort stable).
void counts_to_offsets(std::vector<Counts>& counts) {
  std::int64_t at = 0;
  for (int digit = 0; digit < kBuckets; ++digit) {
    for (Counts& count : counts) {
      const std::int64_t c = count[static_cast<std::size_t>(digit)];
      count[static_cast<std::size_t>(digit)] = at;
      at += c;
    }
  }
}

template <class K, class V>
void scatter(const RadixBuffers<K, V>& b, int from, std::int64_t n, int shift, std::vector<Counts>& offsets) {
  const int parts = static_cast<int>(offsets.size());
  const K* const keys = b.keys[from];
  K* const keys_out = b.keys[1 - from];
  for_parts(n, parts, [&](std::int64_t k, std::int64_t begin, std::int64_t end) {
    Counts& at = offsets[static_cast<std::size_t>(k)];
    for (std::int64_t i = begin; i < end; ++i) {
      const std::int64_t to = at[(keys[i] >> shift) & (kBuckets - 1)]++;
      keys_out[to] = keys[i];
      if constexpr (!std::is_void_v<V>) b.values[1 - from][to] = b.values[from][i];
    }
  });
}

}  // namespace

template <class K, class V>
int radix_sort(const RadixBuffers<K, V>& buffers, std::int64_t n, int parts) {
  if (n <= kInsertionLength) {
    insertion_sort(buffers.keys[0], buffers.values[0], n);
    return 0;
  }
  // Pieces of at least a few thousand keys: below that the pieces' counts cost more than they save.
  parts = static_cast<int>(std::clamp<std::int64_t>(n / 4096, 1, parts));
  std::vector<Counts> counts(static_cast<std::size_t>(parts));
  int from = 0;
  for (int shift = 0; shift < static_cast<int>(sizeof(K)) * 8; shift += kDigitBits) {
    if (count_digits(buffers.keys[from], n, shift, counts)) continue;
    counts_to_offsets(counts);
    scatter(buffers, from, n, shift, counts);
    from = 1 - from;
  }
  return from;
}

#define XP_RADIX_SORT(K, V) template int radix_sort<K, V>(const RadixBuffers<K, V>&, std::int64_t, int);
#define XP_RADIX_SORTS(K) XP_RADIX_SORT(K, void) XP_RADIX_SORT(K, std::uint32_t) XP_RADIX_SORT(K, std::uint64_t)
XP_RADIX_SORTS(std::uint8_t)
XP_RADIX_SORTS(std::uint16_t)
XP_RADIX_SORTS(std::uint32_t)
XP_RADIX_SORTS(std::uint64_t)
XP_RADIX_SORT(std::uint16_t, std::uint16_t)
#undef XP_RADIX_SORTS
#undef XP_RADIX_SORT

}  // namespace xp::detail
