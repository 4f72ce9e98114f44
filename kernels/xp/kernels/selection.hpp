#pragma once
// Functors that pick among their inputs.
#include "xp/host_device.hpp"
#include "xp/kernels/arithmetic.hpp"

namespace xp::kernels {

struct Where {
  template <class T>
  XP_HOST_DEVICE T operator()(bool condition, T x, T y) const {
    return condition ? x : y;
  }
};

// NaN stays NaN, as in NumPy's clip.
struct Clip {
  template <class T>
  XP_HOST_DEVICE T operator()(T x, T low, T high) const {
    return Minimum{}(Maximum{}(x, low), high);
  }
};

}  // namespace xp::kernels
