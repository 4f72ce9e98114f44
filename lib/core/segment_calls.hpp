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
// bytes, from rows of `source_length`; every index in [0, source_length) (the callers' sorts and
// selections made them).
struct GatherCall {
  std::size_t itemsize = 0;
  const void* input = nullptr;
  const std::int64_t* indices = nullptr;
  void* output = nullptr;
  std::int64_t segments = 0, length = 0, source_length = 0;
};

// For each of `count` queries, the position in `length` sorted elements (NumPy's order) where it
// would go: before the elements equal to it (left) or after them (right). Queries and sorted elements
// are both of `type`.
struct SearchCall {
  xp::dtype type = xp::dtype::float32;
  const void* sorted = nullptr;
  std::int64_t length = 0;
  const void* queries = nullptr;
  std::int64_t count = 0;
  bool right = false;
  std::int64_t* positions = nullptr;
};

// The positions of the `length` flags that are true, in order, into `positions` (room for length).
struct SelectCall {
  const bool* flags = nullptr;
  std::int64_t length = 0;
  std::int64_t* positions = nullptr;
  MemoryPool* scratch = nullptr;
};

// The number of `length` bin numbers (each in [0, bins)) in each bin, int64; or, with weights
// (float64), the sum of the weights in each bin, float64.
struct BincountCall {
  const std::int64_t* bin_of = nullptr;
  const double* weights = nullptr;
  std::int64_t length = 0;
  void* out = nullptr;
  std::int64_t bins = 0;
  MemoryPool* scratch = nullptr;
};

}  // namespace xp::detail
