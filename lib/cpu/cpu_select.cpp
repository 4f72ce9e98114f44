// The positions of true flags on host devices.
#include <algorithm>
#include <vector>

#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"

namespace xp::detail {

// Two passes over the same pieces: each piece's count, then its positions from the counts before it.
// The second pass writes without a branch (every position is written, the cursor advances past the
// true ones: half-true random flags would mispredict every other branch), up to the piece's last true
// flag, so that no write lands in the next piece's positions.
std::int64_t cpu_select(const SelectCall& call, const Exec&) {
  const int parts = call.length >= 2 * kParallelGrain ? cpu_threads() : 1;
  std::vector<std::int64_t> counts(static_cast<std::size_t>(parts) + 1, 0);
  for_parts(call.length, parts, [&](std::int64_t k, std::int64_t begin, std::int64_t end) {
    counts[static_cast<std::size_t>(k) + 1] = std::count(call.flags + begin, call.flags + end, true);
  });
  for (int k = 0; k < parts; ++k) counts[k + 1] += counts[k];
  for_parts(call.length, parts, [&](std::int64_t k, std::int64_t begin, std::int64_t end) {
    std::int64_t at = counts[static_cast<std::size_t>(k)];
    std::int64_t last = end;
    while (last > begin && !call.flags[last - 1]) --last;
    for (std::int64_t i = begin; i < last; ++i) {
      call.positions[at] = i;
      at += call.flags[i];
    }
  });
  return counts.back();
}

}  // namespace xp::detail
