#pragma once
// NumPy's floating-point functions of real numbers alone: of two inputs (arctan2, hypot, copysign,
// nextafter, heaviside, ldexp) and frexp's and modf's parts. 2-byte floats compute in float (exact:
// their values are floats), nextafter alone in the storage type's own steps (NextafterIn).
#ifndef __CUDACC_RTC__
#include <cmath>
#include <type_traits>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/element_types.hpp"

namespace xp::kernels {

// C's functions of two real numbers.
#define XP_REAL_FUNCTION2(Name, function)         \
  struct Name {                                   \
    template <class T>                            \
    XP_HOST_DEVICE T operator()(T x, T y) const { \
      return std::function(x, y);                 \
    }                                             \
  }
XP_REAL_FUNCTION2(Arctan2, atan2);
XP_REAL_FUNCTION2(Hypot, hypot);
XP_REAL_FUNCTION2(Copysign, copysign);
XP_REAL_FUNCTION2(Nextafter, nextafter);
#undef XP_REAL_FUNCTION2

// nextafter among the values of a 2-byte float S (float16: 2^-24 above 0, not float's 2^-149), its
// operands and result read and written as float. Of equal operands (0 and -0), float16's gives the first
// (NumPy's npy_half_nextafter), bfloat16's the second (ml_dtypes', as C's nextafter).
template <class S>
struct NextafterIn {
  XP_HOST_DEVICE float operator()(float from, float toward) const {
    if (from != from || toward != toward) return from + toward;  // NaN
    if (from == toward) return std::is_same_v<S, float16> ? from : toward;
    if (from == 0.0f) return float(S::from_bits(toward > 0.0f ? 0x0001 : 0x8001));  // the least subnormal
    const unsigned short bits = S(from).bits;
    const bool away_from_zero = (from < toward) == (from > 0.0f);
    return float(S::from_bits(static_cast<unsigned short>(away_from_zero ? bits + 1 : bits - 1)));
  }
};

// 0 below 0, 1 above, `at_zero` at 0 (either sign), NaN for NaN.
struct Heaviside {
  template <class T>
  XP_HOST_DEVICE T operator()(T x, T at_zero) const {
    if (x < T(0)) return T(0);
    if (x > T(0)) return T(1);
    return x == T(0) ? at_zero : x;
  }
};

// x * 2^e, e an integer carried in a double (exact to 2^53): clamped to a range past every finite
// result, so that the conversion to int cannot overflow (the result is already 0 or infinite beyond it).
struct Ldexp {
  template <class T>
  XP_HOST_DEVICE T operator()(T x, double e) const {
    const double bounded = e < -4096.0 ? -4096.0 : e > 4096.0 ? 4096.0 : e;
    return std::ldexp(x, static_cast<int>(bounded));
  }
};

// frexp's mantissa, in [0.5, 1) in magnitude (x itself for 0, infinities and NaN) and its exponent
// (0 for those, as glibc's: CUDA leaves a NaN's unspecified).
struct FrexpMantissa {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    int exponent = 0;
    return std::frexp(x, &exponent);
  }
};

struct FrexpExponent {
  template <class T>
  XP_HOST_DEVICE int operator()(T x) const {
    if (!(x - x == T(0))) return 0;  // infinite or NaN
    int exponent = 0;
    std::frexp(x, &exponent);
    return exponent;
  }
};

// modf's fractional part: x - trunc(x) with x's sign (+-0 for infinities).
struct ModfFraction {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    T whole;
    return std::modf(x, &whole);
  }
};

}  // namespace xp::kernels
