#pragma once
// Host-side construction of a StridedIndexer from a shape and strides (not for NVRTC sources).
#include "xp/kernels/indexer.hpp"
#include "xp/shape.hpp"

namespace xp::kernels {

// An indexer over the first `ndim` axes (all of them by default).
inline StridedIndexer make_indexer(const Shape& shape, const Strides& strides, int ndim = -1) {
  StridedIndexer indexer;
  indexer.ndim = ndim < 0 ? shape.ndim() : ndim;
  for (int axis = 0; axis < indexer.ndim; ++axis) {
    indexer.extents[axis] = shape[axis];
    indexer.strides[axis] = strides[axis];
  }
  return indexer;
}

}  // namespace xp::kernels
