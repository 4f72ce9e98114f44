#pragma once
// Bitwise functors on integers and bool, shared by the CPU loops and the CUDA kernels. Shifts follow
// NumPy: a shift by the type's width or more (a negative count is one) gives 0, or -1 for a negative
// number shifted right, where C++ leaves it undefined.
#ifndef __CUDACC_RTC__
#include <type_traits>
#endif

#include "xp/host_device.hpp"

namespace xp::kernels {

struct BitwiseAnd {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a & b);
  }
};

struct BitwiseOr {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a | b);
  }
};

struct BitwiseXor {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(a ^ b);
  }
};

// ~a; for bool, not a (NumPy's invert of a bool array).
struct Invert {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_same_v<T, bool>) return !a;
    else return static_cast<T>(~a);
  }
};

template <class T>
XP_HOST_DEVICE bool shift_in_range(T count) {
  return static_cast<std::make_unsigned_t<T>>(count) < sizeof(T) * 8;
}

struct LeftShift {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T count) const {
    using U = std::make_unsigned_t<T>;
    // Shifted as unsigned (at least int's width): what falls off the top is lost, as NumPy's.
    using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
    return shift_in_range(count) ? static_cast<T>(static_cast<U>(static_cast<Wide>(static_cast<U>(a)) << count)) : T(0);
  }
};

struct RightShift {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T count) const {
    if (shift_in_range(count)) return static_cast<T>(a >> count);  // arithmetic for signed T (C++20)
    if constexpr (std::is_signed_v<T>) return a < 0 ? T(-1) : T(0);
    else return T(0);
  }
};

}  // namespace xp::kernels
