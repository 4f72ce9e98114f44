#pragma once
// The greatest common divisor and least common multiple of integers, as NumPy's gcd and lcm: of the
// magnitudes, in the unsigned type of T (gcd(0, 0) is 0, lcm with 0 is 0), the result cast back to T,
// so that min's magnitude and a multiple past T's range wrap as NumPy's do.
#ifndef __CUDACC_RTC__
#include <type_traits>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/arithmetic.hpp"

namespace xp::kernels {

// |a| in T's wrapping unsigned type (min's magnitude included).
template <class T>
XP_HOST_DEVICE wrap_t<T> magnitude(T a) {
  using U = wrap_t<T>;
  if constexpr (std::is_signed_v<T>) return a < 0 ? static_cast<U>(U(0) - static_cast<U>(a)) : static_cast<U>(a);
  else return static_cast<U>(a);
}

template <class U>
XP_HOST_DEVICE U unsigned_gcd(U x, U y) {
  while (y != 0) {
    const U r = static_cast<U>(x % y);
    x = y;
    y = r;
  }
  return x;
}

struct Gcd {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(unsigned_gcd(magnitude(a), magnitude(b)));
  }
};

struct Lcm {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    using U = wrap_t<T>;
    const U x = magnitude(a), y = magnitude(b), divisor = unsigned_gcd(x, y);
    return divisor == 0 ? T(0) : static_cast<T>(static_cast<U>(x / divisor * y));
  }
};

}  // namespace xp::kernels
