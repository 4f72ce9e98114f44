#pragma once
// What the device kernels' operations along an axis take (core/segment_plan.hpp says which axes
// become segments): C-contiguous buffers on the call's device, planned by lib/api/ops.
#include <cstddef>
#include <cstdint>

#include "xp/dtype.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// A stable sort of each of `segments` rows of `length` elements, in NumPy's order
// (xp/kernels/sort_keys.hpp). Writes the sorted elements, their positions in the row, or both.
struct SortCall {
  xp::dtype type = xp::dtype::float32;
  const void* keys = nullptr;
  void* sorted = nullptr;  // null: not wanted
  std::int64_t* indices = nullptr;  // null: not wanted
  std::int64_t segments = 0, length = 0;
  MemoryPool* scratch = nullptr;  // the device's pool, for temporary storage on the call's stream
};

enum class ScanOp : std::uint8_t { sum, prod };

// Inclusive scans along the middle axis of a C-contiguous (outer, length, inner) block:
// output[o][j][i] = input[o][0][i] op ... op input[o][j][i]. type: int64, uint64, float32, float64,
// complex64 or complex128 (the accumulation types of NumPy's cumsum and cumprod).
struct ScanCall {
  ScanOp op = ScanOp::sum;
  xp::dtype type = xp::dtype::float64;
  const void* input = nullptr;
  void* output = nullptr;
  std::int64_t outer = 0, length = 0, inner = 1;
  MemoryPool* scratch = nullptr;  // the device's pool, for temporary storage on the call's stream
};

// output[s][j] = input[s][indices[s][j]] for `segments` rows of `length` elements of `itemsize`
// bytes; every index in [0, length) (the callers' sorts made them).
struct GatherCall {
  std::size_t itemsize = 0;
  const void* input = nullptr;
  const std::int64_t* indices = nullptr;
  void* output = nullptr;
  std::int64_t segments = 0, length = 0;
};

}  // namespace xp::detail
