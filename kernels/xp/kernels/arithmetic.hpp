#pragma once
// Arithmetic functors, shared by the CPU loops and the CUDA kernels. Integers wrap around on
// overflow, as in NumPy (computed in unsigned arithmetic, where C++ defines it); division by zero
// of integers gives 0 instead of trapping.
#ifndef __CUDACC_RTC__
#include <cmath>
#include <type_traits>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/rounding.hpp"

namespace xp::kernels {

// The unsigned type integer T wraps around in (at least as wide as unsigned int, so that products of
// small types do not overflow int); T itself for bool and floats.
template <class T, bool = std::is_integral_v<T> && !std::is_same_v<T, bool>>
struct wrap_type {
  using type = T;
};
template <class T>
struct wrap_type<T, true> {
  using type = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
};
template <class T>
using wrap_t = typename wrap_type<T>::type;

struct Add {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(static_cast<wrap_t<T>>(a) + static_cast<wrap_t<T>>(b));
  }
};

struct Subtract {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    return static_cast<T>(static_cast<wrap_t<T>>(a) - static_cast<wrap_t<T>>(b));
  }
};

struct Multiply {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return complex_multiply(a, b);
    else return static_cast<T>(static_cast<wrap_t<T>>(a) * static_cast<wrap_t<T>>(b));
  }
};

struct Divide {  // true division; computed in floating point
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return complex_divide(a, b);
    else return a / b;
  }
};

// The remainder with the sign of the divisor (Python's and NumPy's %).
struct Mod {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      T r = std::fmod(a, b);
      if (r != 0 && ((r < 0) != (b < 0))) r += b;
      return r == 0 ? std::copysign(T(0), b) : r;
    } else if constexpr (std::is_unsigned_v<T>) {
      return b == 0 ? T(0) : static_cast<T>(a % b);
    } else {
      if (b == 0 || b == -1) return T(0);  // -1: also avoids the overflow of min % -1
      T r = static_cast<T>(a % b);
      if (r != 0 && ((r < 0) != (b < 0))) r = static_cast<T>(r + b);
      return r;
    }
  }
};

// Python's and NumPy's //: the quotient rounded toward minus infinity. Floats as NumPy's npy_divmod:
// (a - fmod(a, b)) / b, less one where the remainder's sign differs from b's, then rounded to the nearest
// whole number (the quotient of exact values is whole, its rounding may not be); a / b where b is 0.
// Integers divided by 0 give 0 (NumPy warns), min // -1 wraps to min.
struct FloorDivide {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (b == 0) return a / b;
      const T remainder = std::fmod(a, b);
      T quotient = (a - remainder) / b;
      if (remainder != 0 && ((b < 0) != (remainder < 0))) quotient -= T(1);
      if (quotient == 0) return std::copysign(T(0), a / b);
      T whole = std::floor(quotient);
      if (quotient - whole > T(0.5)) whole += T(1);
      return whole;
    } else if constexpr (std::is_unsigned_v<T>) {
      return b == 0 ? T(0) : static_cast<T>(a / b);
    } else {
      if (b == 0) return T(0);
      if (b == -1) return Subtract{}(T(0), a);
      const T quotient = static_cast<T>(a / b);
      return (a % b != 0 && ((a < 0) != (b < 0))) ? static_cast<T>(quotient - 1) : quotient;
    }
  }
};

// C's remainder of truncated division, with the sign of the dividend (NumPy's fmod); integers by 0 give 0.
struct Fmod {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) return std::fmod(a, b);
    else if constexpr (std::is_unsigned_v<T>) return b == 0 ? T(0) : static_cast<T>(a % b);
    else return (b == 0 || b == -1) ? T(0) : static_cast<T>(a % b);  // -1: min % -1 overflows
  }
};

// Complex numbers as NumPy (complex_power). Integers by repeated squaring (wrapping); a negative integer exponent gives
// 1 / a^-b truncated: 1 for a = 1, +-1 for a = -1, else 0.
struct Power {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) {
      return complex_power(a, b);
    } else if constexpr (std::is_floating_point_v<T>) {
      return std::pow(a, b);
    } else {
      if constexpr (std::is_signed_v<T>) {
        if (b < 0) return a == 1 ? T(1) : a == -1 ? ((b & 1) ? T(-1) : T(1)) : T(0);
      }
      wrap_t<T> result = 1, base = static_cast<wrap_t<T>>(a);
      for (auto e = static_cast<wrap_t<T>>(b); e != 0; e >>= 1) {
        if (e & 1) result *= base;
        base *= base;
      }
      return static_cast<T>(result);
    }
  }
};

// NaN wins, as in NumPy's maximum and minimum; complex numbers in NumPy's order (complex_math.hpp).
struct Maximum {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return (is_nan(a) || less_equal(b, a)) ? a : b;
    else return (a != a || a > b) ? a : b;
  }
};

struct Minimum {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return (is_nan(a) || less_equal(a, b)) ? a : b;
    else return (a != a || a < b) ? a : b;
  }
};

// fmax and fmin: NaN loses (the other operand is the result; NaN when both are), complex numbers in
// NumPy's order.
struct Fmax {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return (is_nan(b) || less_equal(b, a)) ? a : b;
    else return (b != b || a >= b) ? a : b;
  }
};

struct Fmin {
  template <class T>
  XP_HOST_DEVICE T operator()(T a, T b) const {
    if constexpr (is_complex_v<T>) return (is_nan(b) || less_equal(a, b)) ? a : b;
    else return (b != b || a <= b) ? a : b;
  }
};

struct Negative {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_floating_point_v<T> || is_complex_v<T>) return -a;  // -(0.0) is -0.0, as NumPy
    else return static_cast<T>(wrap_t<T>(0) - static_cast<wrap_t<T>>(a));
  }
};

// A complex number's magnitude is real: hypot(re, im), as NumPy.
struct Abs {
  template <class T>
  XP_HOST_DEVICE auto operator()(T a) const {
    if constexpr (is_complex_v<T>) return std::hypot(a.real(), a.imag());
    else if constexpr (std::is_floating_point_v<T>) return std::fabs(a);
    else if constexpr (std::is_signed_v<T>) return a < 0 ? Negative{}(a) : a;
    else return a;
  }
};

// conj, real, imag: the conjugate, and the parts (real numbers are their own real part, with imaginary part 0).
struct Conj {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (is_complex_v<T>) return T(a.real(), -a.imag());
    else return a;
  }
};

struct RealPart {
  template <class T>
  XP_HOST_DEVICE auto operator()(T a) const {
    if constexpr (is_complex_v<T>) return a.real();
    else return a;
  }
};

struct ImagPart {
  template <class T>
  XP_HOST_DEVICE auto operator()(T a) const {
    if constexpr (is_complex_v<T>) return a.imag();
    else return T(0);
  }
};

// floor, ceil and trunc: which one is read at run time, so one loop per type serves the three (integers
// and bool are their own value, as NumPy's loops for them).
template <RoundingKind kind>
struct Rounding {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (std::is_floating_point_v<T>) return rounded<kind>(a);
    else return a;
  }
};
// Integers are their own floor, ceil and trunc: one loop, the floor's, serves the three.
template <class T, RoundingKind kind>
using RoundingOf = Rounding<std::is_integral_v<T> ? RoundingKind::floor : kind>;

struct Square {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    return Multiply{}(a, a);
  }
};

// 1 / a in a's type: integers divide as C does (1 / 0 gives 0 here, where NumPy's loop divides by zero);
// complex numbers by Smith's quotient, as NumPy's reciprocal (1 / 0 is NaN there, unlike divide's).
struct Reciprocal {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      using R = decltype(a.real());
      const R re = a.real(), im = a.imag();
      if (std::fabs(im) <= std::fabs(re)) {
        const R ratio = im / re, denominator = re + im * ratio;
        return T(R(1) / denominator, -ratio / denominator);
      }
      const R ratio = re / im, denominator = re * ratio + im;
      return T(ratio / denominator, R(-1) / denominator);
    } else if constexpr (std::is_floating_point_v<T>) {
      return T(1) / a;
    } else {
      return a == T(0) ? T(0) : static_cast<T>(T(1) / a);
    }
  }
};

// -1, 0 or 1 (NaN for NaN); of a complex number z / |z| (0 at 0), as NumPy 2.
struct Sign {
  template <class T>
  XP_HOST_DEVICE T operator()(T a) const {
    if constexpr (is_complex_v<T>) {
      // One infinite part points the way, whatever the other (NaN too), as NumPy's; two make NaN below.
      const bool real_infinite = std::isinf(a.real()), imag_infinite = std::isinf(a.imag());
      using R = decltype(a.real());
      if (real_infinite && !imag_infinite) return T(std::copysign(R(1), a.real()), R(0));
      if (imag_infinite && !real_infinite) return T(R(0), std::copysign(R(1), a.imag()));
      const auto magnitude = Abs{}(a);
      if (magnitude == 0) return T(0);
      if (magnitude != magnitude) return T(magnitude, magnitude);
      return T(a.real() / magnitude, a.imag() / magnitude);
    } else if constexpr (std::is_floating_point_v<T>) {
      return a > T(0) ? T(1) : a < T(0) ? T(-1) : a == T(0) ? T(0) : a;  // -0 gives 0, NaN NaN
    } else if constexpr (std::is_signed_v<T>) {
      return static_cast<T>((a > T(0)) - (a < T(0)));
    } else {
      return static_cast<T>(a > T(0));
    }
  }
};

}  // namespace xp::kernels
