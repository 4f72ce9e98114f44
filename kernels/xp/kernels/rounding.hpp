#pragma once
// floor, ceil, trunc and rint of real numbers, the same bits on every device. GPUs have an instruction for
// each. On CPUs without SSE4.1's roundps (the x86-64 baseline the library is built for) std's functions
// are a libm call per element, which no loop vectorises: a quarter of a copy's speed. There they are
// computed from |x| rounded to the nearest integer by adding and subtracting 2^(digits - 1) (the sum's
// last bit is worth 1, so the sum rounds there, ties to even, in the default rounding mode), then stepped
// to the integer below or above, and given x's sign (which each function keeps, also on a zero result).
// Every float from 2^(digits - 1) on is an integer, and NaN and the infinities are their own results.
#ifndef __CUDACC_RTC__
#include <cmath>
#include <limits>
#endif

#include "xp/host_device.hpp"

namespace xp::kernels {

enum class RoundingKind : unsigned char { floor, ceil, trunc, nearest };

template <RoundingKind kind, class T>
XP_HOST_DEVICE inline T rounded(T x) {
#if defined(__CUDA_ARCH__)
  if constexpr (kind == RoundingKind::floor) return std::floor(x);
  else if constexpr (kind == RoundingKind::ceil) return std::ceil(x);
  else if constexpr (kind == RoundingKind::trunc) return std::trunc(x);
  else return std::rint(x);
#else
  constexpr T integral_from = T(1) / std::numeric_limits<T>::epsilon();  // 2^(digits - 1)
  const T magnitude = std::fabs(x);
  const T nearest = (magnitude + integral_from) - integral_from;
  const T signed_nearest = std::copysign(nearest, x);
  T result = signed_nearest;
  // Selects between values, which the CPU loops (compiled without trapping math) compute for every lane.
  if constexpr (kind == RoundingKind::floor) result = signed_nearest > x ? signed_nearest - T(1) : signed_nearest;
  else if constexpr (kind == RoundingKind::ceil) result = signed_nearest < x ? signed_nearest + T(1) : signed_nearest;
  else if constexpr (kind == RoundingKind::trunc) result = nearest > magnitude ? nearest - T(1) : nearest;
  return magnitude < integral_from ? std::copysign(result, x) : x;
#endif
}

}  // namespace xp::kernels
