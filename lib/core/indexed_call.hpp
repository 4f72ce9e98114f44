#pragma once
// What the device kernels' gathers and scatters through index arrays take (planned by
// lib/api/ops/indexing.cpp from core/index_plan.hpp): a strided view, its (outer, index, inner) layout
// (xp/kernels/indexed_access.hpp), and a C-contiguous dense side on the call's device.
#include <cstdint>

#include "xp/dtype.hpp"
#include "xp/kernels/indexed_access.hpp"
#include "xp/memory_pool.hpp"

namespace xp::detail {

// What a scatter does with each value: writes it (of repeated positions the last in C order wins, as
// in NumPy), or adds it, or keeps the larger or the smaller (NumPy's maximum and minimum: NaN wins).
enum class ScatterOp : std::uint8_t { assign, add, max, min };

struct IndexedCall {
  xp::dtype type = xp::dtype::float32;
  void* view = nullptr;  // the view's first element: a gather's source, a scatter's destination
  kernels::IndexedLayout layout;
  // A gather's output (null: only check the positions), or a scatter's values: layout.size()
  // elements in C order, or, when one_value, one element for all of them.
  void* dense = nullptr;
  bool one_value = false;
  ScatterOp op = ScatterOp::assign;
  MemoryPool* scratch = nullptr;  // the device's pool: a GPU's fault flag and scatter winners
};

// A position outside its axis that mode raise met: which index array, and the position as given.
struct IndexFault {
  bool found = false;
  int array = 0;
  std::int64_t position = 0;
};

}  // namespace xp::detail
