#pragma once
// Index math shared by the CPU loop drivers and the CUDA kernels: the offset of the element at a
// C-order linear position in a strided array.
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/ndim.hpp"

namespace xp::kernels {

struct StridedIndexer {
  int ndim = 0;
  std::int64_t extents[kMaxNdim] = {};
  std::int64_t strides[kMaxNdim] = {};  // in elements

  XP_HOST_DEVICE std::int64_t offset(std::int64_t linear) const {
    std::int64_t result = 0;
    for (int axis = ndim - 1; axis >= 0; --axis) {
      const std::int64_t extent = extents[axis];
      result += (linear % extent) * strides[axis];
      linear /= extent;
    }
    return result;
  }
};

}  // namespace xp::kernels
