#include "xp/slicing.hpp"

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <numeric>

#include "xp/error.hpp"

namespace xp {

std::vector<BatchSlice> split_input_slice(std::int64_t batch_size, std::span<const double> work_load) {
  XP_CHECK(batch_size > 0, ValueError, "split_input_slice: the batch size must be positive, not ", batch_size);
  XP_CHECK(!work_load.empty(), ValueError, "split_input_slice: the work load list is empty");
  for (std::size_t i = 0; i < work_load.size(); ++i)
    XP_CHECK(std::isfinite(work_load[i]) && work_load[i] > 0, ValueError, "split_input_slice: work load ", i, " is ",
             work_load[i], "; every work load must be positive");
  const double total = std::accumulate(work_load.begin(), work_load.end(), 0.0);
  std::vector<std::int64_t> sizes;
  sizes.reserve(work_load.size());
  // nearbyint rounds as the current mode says; the default mode is to nearest, ties to even, which
  // is Python 3's round().
  XP_ASSERT(std::fegetround() == FE_TONEAREST);
  for (const double w : work_load)
    sizes.push_back(static_cast<std::int64_t>(std::nearbyint(w * static_cast<double>(batch_size) / total)));
  const std::int64_t assigned = std::accumulate(sizes.begin(), sizes.end(), std::int64_t{0});
  if (assigned < batch_size) sizes.back() += batch_size - assigned;
  std::vector<BatchSlice> slices;
  slices.reserve(sizes.size());
  std::int64_t end = 0;
  for (const std::int64_t n : sizes) {
    const std::int64_t begin = std::min(end, batch_size);
    end = std::min(begin + n, batch_size);
    XP_CHECK(begin < end, ValueError, "Too many slices. Some splits are empty.");
    slices.push_back({begin, end});
  }
  return slices;
}

}  // namespace xp
