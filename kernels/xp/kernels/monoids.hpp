#pragma once
// Pieces of reductions shared by the CPU driver and the CUDA kernels: the map step (which may take
// the element's position in its reduction), and the value-with-position pairs of arg reductions.
// Sums, products and extrema combine with the arithmetic functors (Add, Multiply, Maximum, Minimum).
#ifndef __CUDACC_RTC__
#include <cstdint>
#include <type_traits>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::kernels {

// map(value), or map(value, position) when map takes the position.
template <class Map, class T>
XP_HOST_DEVICE auto apply_map(const Map& map, T value, long long position) {
  if constexpr (std::is_invocable_v<const Map&, T, long long>) return map(value, position);
  else return map(value);
}

struct Identity {
  template <class T>
  XP_HOST_DEVICE T operator()(T value) const {
    return value;
  }
};

template <class T>
struct ValueIndex {
  T value;
  long long index;
};

struct WithIndex {
  template <class T>
  XP_HOST_DEVICE ValueIndex<T> operator()(T value, long long index) const {
    return {value, index};
  }
};

struct IndexOf {
  template <class T>
  XP_HOST_DEVICE long long operator()(const ValueIndex<T>& v) const {
    return v.index;
  }
};

// NumPy's argmax and argmin: the first position of the extremum, and NaN beats every number. The
// result does not depend on the order pairs are combined in. Complex numbers in NumPy's order.
template <bool largest>
struct ArgExtremum {
  template <class T>
  XP_HOST_DEVICE ValueIndex<T> operator()(const ValueIndex<T>& a, const ValueIndex<T>& b) const {
    const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
    if (a_nan != b_nan) return a_nan ? a : b;
    if (!a_nan && !(a.value == b.value)) return (largest ? less(b.value, a.value) : less(a.value, b.value)) ? a : b;
    return a.index < b.index ? a : b;
  }
};
using ArgMax = ArgExtremum<true>;
using ArgMin = ArgExtremum<false>;

}  // namespace xp::kernels
