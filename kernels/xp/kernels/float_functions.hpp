#pragma once
// Functions computed in floating point (integer inputs are converted before the loop) or complex: the
// name is looked up among std's overloads and, for libcu++'s complex on GPUs, its own (ADL).
#ifndef __CUDACC_RTC__
#include <cmath>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"
#include "xp/kernels/rounding.hpp"

namespace xp::kernels {

#define XP_FLOAT_FUNCTION(Name, function, complex_function)      \
  struct Name {                                                  \
    template <class T>                                           \
    XP_HOST_DEVICE T operator()(T x) const {                     \
      using std::function;                                       \
      if constexpr (is_complex_v<T>) return complex_function(x); \
      else return function(x);                                   \
    }                                                            \
  }

// std's and libcu++'s complex exp, sin and cos are as accurate as glibc's; the others are complex_math.hpp's.
XP_FLOAT_FUNCTION(Exp, exp, exp);
XP_FLOAT_FUNCTION(Log, log, complex_log);
XP_FLOAT_FUNCTION(Sqrt, sqrt, complex_sqrt);
XP_FLOAT_FUNCTION(Sin, sin, sin);
XP_FLOAT_FUNCTION(Cos, cos, cos);
XP_FLOAT_FUNCTION(Tan, tan, complex_tan);
XP_FLOAT_FUNCTION(Tanh, tanh, complex_tanh);
XP_FLOAT_FUNCTION(Exp2, exp2, complex_exp2);
XP_FLOAT_FUNCTION(Log2, log2, complex_log2);
XP_FLOAT_FUNCTION(Log10, log10, complex_log10);
XP_FLOAT_FUNCTION(Arcsin, asin, asin);
XP_FLOAT_FUNCTION(Arccos, acos, acos);
XP_FLOAT_FUNCTION(Arctan, atan, atan);
XP_FLOAT_FUNCTION(Sinh, sinh, sinh);
XP_FLOAT_FUNCTION(Cosh, cosh, cosh);
XP_FLOAT_FUNCTION(Arcsinh, asinh, asinh);
XP_FLOAT_FUNCTION(Arccosh, acosh, acosh);
XP_FLOAT_FUNCTION(Arctanh, atanh, atanh);
#undef XP_FLOAT_FUNCTION

// To the nearest integer, ties to even; complex numbers part by part.
struct Rint {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    if constexpr (is_complex_v<T>) return complex_rint(x);
    else return rounded<RoundingKind::nearest>(x);
  }
};

// Real numbers alone (NumPy has no complex loops for them).
struct Cbrt {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    return std::cbrt(x);
  }
};

// Degrees and radians: a product with the factor rounded to T, as NumPy's loops compute them.
struct Deg2rad {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    return x * T(3.14159265358979323846 / 180.0);
  }
};

struct Rad2deg {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    return x * T(180.0 / 3.14159265358979323846);
  }
};

struct Log1p {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    if constexpr (is_complex_v<T>) return complex_log1p(x);
    else return std::log1p(x);
  }
};

struct Expm1 {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    if constexpr (is_complex_v<T>) return complex_expm1(x);
    else return std::expm1(x);
  }
};

struct Sigmoid {
  template <class T>
  XP_HOST_DEVICE T operator()(T x) const {
    using std::exp;
    return T(1) / (T(1) + exp(-x));
  }
};

// The argument of a complex number, atan2(im, re); of a real number, 0 or pi (atan2(0, x)), as NumPy.
struct Angle {
  template <class T>
  XP_HOST_DEVICE auto operator()(T x) const {
    if constexpr (is_complex_v<T>) return std::atan2(x.imag(), x.real());
    else return std::atan2(T(0), x);
  }
};

}  // namespace xp::kernels
