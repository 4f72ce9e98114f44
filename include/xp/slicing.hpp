#pragma once
/// \file
/// How a batch is split over devices by work load (MXNet 1.x executor_manager._split_input_slice):
/// slice i gets round(w_i * B / sum(w)) rows with Python 3's rounding (half to even); a shortfall goes
/// to the last slice, an excess truncates the tail, and an empty slice is an error. So B = 5 over [1, 1]
/// is [2, 3] and B = 7 is [4, 3]; B = 6 over four devices leaves the last one empty and is refused.
#include <cstdint>
#include <span>
#include <vector>

#include "xp/export.hpp"

namespace xp {

/// Rows [begin, end) of a batch.
struct XP_API BatchSlice {
  std::int64_t begin = 0;  ///< the first row
  std::int64_t end = 0;  ///< past the last row
  std::int64_t size() const noexcept { return end - begin; }  ///< the number of rows
  /// The same rows.
  friend bool operator==(const BatchSlice&, const BatchSlice&) = default;
};

/// ValueError for a batch size below 1, a weight that is not positive and finite, or an empty slice
/// ("Too many slices. Some splits are empty.").
XP_API std::vector<BatchSlice> split_input_slice(std::int64_t batch_size, std::span<const double> work_load);

}  // namespace xp
