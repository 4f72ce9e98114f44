#pragma once
// Functions computed in floating point (integer inputs are converted before the loop).
#ifndef __CUDACC_RTC__
#include <cmath>
#endif

#include "xp/host_device.hpp"

namespace xp::kernels {

#define XP_FLOAT_FUNCTION(Name, expression)  \
  struct Name {                              \
    template <class T>                       \
    XP_HOST_DEVICE T operator()(T x) const { \
      return expression;                     \
    }                                        \
  }

XP_FLOAT_FUNCTION(Exp, std::exp(x));
XP_FLOAT_FUNCTION(Log, std::log(x));
XP_FLOAT_FUNCTION(Log1p, std::log1p(x));
XP_FLOAT_FUNCTION(Expm1, std::expm1(x));
XP_FLOAT_FUNCTION(Sqrt, std::sqrt(x));
XP_FLOAT_FUNCTION(Sin, std::sin(x));
XP_FLOAT_FUNCTION(Cos, std::cos(x));
XP_FLOAT_FUNCTION(Tan, std::tan(x));
XP_FLOAT_FUNCTION(Tanh, std::tanh(x));
XP_FLOAT_FUNCTION(Sigmoid, T(1) / (T(1) + std::exp(-x)));
#undef XP_FLOAT_FUNCTION

}  // namespace xp::kernels
