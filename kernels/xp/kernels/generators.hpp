#pragma once
// Functors of creation routines, run by the elementwise loop drivers: a fill takes no input, arange
// the element's position (PositionIn).
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/cast.hpp"

namespace xp::kernels {

// Every element set to one value; fills use the unsigned type of the element's size, so one
// instantiation per size serves all dtypes.
template <class T>
struct Fill {
  T value;
  XP_HOST_DEVICE T operator()() const { return value; }
};

// start + i * step computed in Acc (int64 for integer arange, double otherwise), converted to T.
template <class T, class Acc>
struct Iota {
  Acc start;
  Acc step;
  XP_HOST_DEVICE T operator()(long long i) const { return cast<T>(start + static_cast<Acc>(i) * step); }
};

}  // namespace xp::kernels
