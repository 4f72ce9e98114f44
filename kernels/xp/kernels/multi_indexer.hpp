#pragma once
// The offsets of N operands at one C-order position of a loop over a shared shape: the position is
// split into coordinates once, then dotted with each operand's strides. Index is int32 where the
// plan allows it (cheaper division on GPUs), else int64.
#include "xp/host_device.hpp"
#include "xp/ndim.hpp"

namespace xp::kernels {

template <int N, class Index>
struct MultiIndexer {
  int ndim = 0;
  Index extents[kMaxNdim] = {};
  Index strides[N][kMaxNdim] = {};

  XP_HOST_DEVICE void offsets(Index linear, Index (&result)[N]) const {
    for (int k = 0; k < N; ++k) result[k] = 0;
    for (int axis = ndim - 1; axis >= 0; --axis) {
      const Index extent = extents[axis];
      const Index coordinate = linear % extent;
      linear /= extent;
      for (int k = 0; k < N; ++k) result[k] += coordinate * strides[k][axis];
    }
  }
};

}  // namespace xp::kernels
