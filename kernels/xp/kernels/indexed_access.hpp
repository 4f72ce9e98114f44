#pragma once
// The element offsets of an advanced index (core/index_plan.hpp), shared by the CPU loops and the CUDA
// kernels of gathers and scatters: element [o, b, i] of the C-ordered (outer, index, inner) block is
// the view's element at outer.offset(o) + the index arrays' offset at b + inner.offset(i).
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/indexer.hpp"
#include "xp/ndim.hpp"

namespace xp::kernels {

// What a position outside [0, extent) means: an error, taken modulo the extent, or clamped to it.
enum class IndexMode : std::uint8_t { raise, wrap, clip };

// The index arrays: `count` of them, each `size` int64 positions in C order over the broadcast index
// shape. Array g reads dims[g] axes whose extents and strides follow those of the arrays before it;
// a position of an array that reads several axes (a mask's) is a C-order position over them.
struct IndexArrays {
  int count = 0;
  std::int64_t size = 0;
  IndexMode mode = IndexMode::raise;
  const std::int64_t* positions[kMaxNdim] = {};
  int dims[kMaxNdim] = {};
  std::int64_t extents[kMaxNdim] = {};
  std::int64_t strides[kMaxNdim] = {};
};

struct IndexedLayout {
  StridedIndexer outer, inner;
  std::int64_t inner_size = 1;  // the product of inner's extents
  IndexArrays arrays;

  // Elements of the (outer, index, inner) block.
  XP_HOST_DEVICE std::int64_t size() const {
    std::int64_t outer_size = 1;
    for (int axis = 0; axis < outer.ndim; ++axis) outer_size *= outer.extents[axis];
    return outer_size * arrays.size * inner_size;
  }
};

// A position taken by `mode` into [0, extent); false when mode is raise and it is outside (extent > 0
// for wrap and clip: the callers refuse an empty axis).
XP_HOST_DEVICE inline bool resolve_position(std::int64_t& position, std::int64_t extent, IndexMode mode) {
  if (mode == IndexMode::clip) {
    position = position < 0 ? 0 : position >= extent ? extent - 1 : position;
    return true;
  }
  if (mode == IndexMode::wrap) {
    position %= extent;
    if (position < 0) position += extent;
    return true;
  }
  if (position < 0) position += extent;
  return position >= 0 && position < extent;
}

// The offset the index arrays give at broadcast position b. On a position outside its axis (mode
// raise) returns false with *bad_array and *bad_position naming it.
XP_HOST_DEVICE inline bool index_offset(const IndexArrays& arrays, std::int64_t b, std::int64_t& offset, int& bad_array,
                                        std::int64_t& bad_position) {
  offset = 0;
  int axis = 0;
  for (int g = 0; g < arrays.count; ++g) {
    std::int64_t position = arrays.positions[g][b];
    if (arrays.dims[g] == 1) {
      const std::int64_t given = position;
      if (!resolve_position(position, arrays.extents[axis], arrays.mode)) {
        bad_array = g;
        bad_position = given;
        return false;
      }
      offset += position * arrays.strides[axis];
    } else {  // a mask's position: always inside
      for (int k = axis + arrays.dims[g] - 1; k >= axis; --k) {
        offset += (position % arrays.extents[k]) * arrays.strides[k];
        position /= arrays.extents[k];
      }
    }
    axis += arrays.dims[g];
  }
  return true;
}

}  // namespace xp::kernels
