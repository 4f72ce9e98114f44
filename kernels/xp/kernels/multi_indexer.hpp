#pragma once
// The offsets of N operands at one C-order position of a loop over a shared shape: the position is
// split into coordinates once, then dotted with each operand's strides. Index is int32 on GPUs
// (cheaper division; larger plans run in pieces that fit in it) and int64 on CPUs.
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
    add_offsets(linear, result);
  }

  // Adds the offsets of position `linear` to result's. linear < the extents' product: what is left of
  // it at axis 0 is that axis' coordinate, without a division (the only one of 2-D loops). Summed in
  // registers: stores and reloads of result's slots stalled CPUs' store forwarding.
  XP_HOST_DEVICE void add_offsets(Index linear, Index (&result)[N]) const {
    Index sum[N];
    for (int k = 0; k < N; ++k) sum[k] = result[k];
    for (int axis = ndim - 1; axis > 0; --axis) {
      const Index extent = extents[axis];
      const Index coordinate = linear % extent;
      linear /= extent;
      for (int k = 0; k < N; ++k) sum[k] += coordinate * strides[k][axis];
    }
    if (ndim > 0)
      for (int k = 0; k < N; ++k) sum[k] += linear * strides[k][0];
    for (int k = 0; k < N; ++k) result[k] = sum[k];
  }
};

}  // namespace xp::kernels
