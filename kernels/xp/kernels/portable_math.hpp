#pragma once
// log, exp and log1p of doubles from + - * / and bit operations only, for random numbers that must
// be the same bits on every device: those operations round the same way on CPUs and GPUs (IEEE
// round-to-nearest), while each device's math library has its own last bits. The callers are
// compiled without contraction into fused multiply-adds (-ffp-contract=off, nvcc --fmad=false), so
// every product and sum rounds as written. Accuracy: within 2 ulp, which random numbers need less
// than they need agreement.
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"

namespace xp::kernels {

XP_HOST_DEVICE inline std::uint64_t bits_of(double x) { return __builtin_bit_cast(std::uint64_t, x); }
XP_HOST_DEVICE inline double double_of(std::uint64_t bits) { return __builtin_bit_cast(double, bits); }

inline constexpr double kLn2High = 0x1.62e42fefa3800p-1;  // ln 2 with its last 11 bits zero: n * kLn2High is exact
inline constexpr double kLn2Low = 0x1.ef35793c76730p-45;  // ln 2 - kLn2High

// 2^n for n in [-1022, 1023].
XP_HOST_DEVICE inline double power_of_two(int n) { return double_of(static_cast<std::uint64_t>(n + 1023) << 52); }

// Natural logarithm: x = 2^e (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)); log(1 + f) = 2 atanh(s),
// s = f / (2 + f), |s| < 0.172, whose odd series needs terms to s^23 for double precision. Written as
// f - f^2/2 + s (f^2/2 + R) so that f's bits enter the sum exactly.
XP_HOST_DEVICE inline double portable_log(double x) {
  if (!(x > 0)) return x == 0 ? -__builtin_huge_val() : __builtin_nan("");
  if (x == __builtin_huge_val()) return x;
  int exponent = 0;
  if (x < 0x1p-1022) {  // subnormal: scaled into the normal range first
    x *= 0x1p54;
    exponent = -54;
  }
  const std::uint64_t bits = bits_of(x);
  exponent += static_cast<int>(bits >> 52) - 1023;
  double m = double_of((bits & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  if (m > 1.4142135623730951) {
    m *= 0.5;
    ++exponent;
  }
  const double f = m - 1;  // exact
  const double s = f / (2 + f), z = s * s;
  // R = 2 (z/3 + z^2/5 + ... + z^11/23), by Estrin's scheme: four dependent steps instead of Horner's
  // ten (the terms are all positive, so it rounds as well).
  const double z2 = z * z, z4 = z2 * z2, z8 = z4 * z4;
  const double low = (2.0 / 3 + z * (2.0 / 5)) + z2 * (2.0 / 7 + z * (2.0 / 9));
  const double middle = (2.0 / 11 + z * (2.0 / 13)) + z2 * (2.0 / 15 + z * (2.0 / 17));
  const double high = (2.0 / 19 + z * (2.0 / 21)) + z2 * (2.0 / 23);
  const double r = z * ((low + z4 * middle) + z8 * high);
  const double e = exponent, half_square = 0.5 * f * f;
  return e * kLn2High + ((f - (half_square - s * (half_square + r))) + e * kLn2Low);
}

// e^x: x = n ln 2 + r with |r| <= ln 2 / 2 (Cody and Waite's split of ln 2), e^r by its Taylor series
// to r^13, scaled by 2^n in two steps where the result is subnormal, so that it rounds once.
XP_HOST_DEVICE inline double portable_exp(double x) {
  if (x != x) return x;
  if (x > 709.782712893384) return __builtin_huge_val();
  if (x < -745.1332191019412) return 0;
  const double n = __builtin_floor(x * 1.4426950408889634 + 0.5);
  const double r = (x - n * kLn2High) - n * kLn2Low;
  double factorial = 6227020800.0;  // 13!, exact, as are all k! below it
  double series = 1 / factorial;
  for (int k = 13; k >= 1; --k) {
    factorial /= k;  // exact
    series = series * r + 1 / factorial;
  }
  const int k = static_cast<int>(n);
  if (k < -1021) return series * power_of_two(k + 54) * 0x1p-54;
  if (k > 1023) return series * 2 * power_of_two(k - 1);
  return series * power_of_two(k);
}

// log(1 + x), accurate near 0: log(u) for u = 1 + x rounded, corrected by the rounding error
// (x - (u - 1)) / u.
XP_HOST_DEVICE inline double portable_log1p(double x) {
  const double u = 1 + x;
  if (u == 1) return x;
  if (u == __builtin_huge_val() || !(u > 0)) return portable_log(u);
  return portable_log(u) + (x - (u - 1)) / u;
}

// log(k!) for integral k >= 0: the logarithm of the exact product below 16, Stirling's series above
// (to its n^-7 term: the next, 1/(1188 n^9), is under 1e-14 there, an ulp of log 16!).
XP_HOST_DEVICE inline double log_factorial(double k) {
  if (k < 16) {
    double product = 1;
    for (double j = 2; j <= k; j += 1) product *= j;  // exact up to 16!
    return portable_log(product);
  }
  const double n = k + 1, inverse = 1 / n, inverse_square = inverse * inverse;
  const double correction =
      inverse * (1.0 / 12 - inverse_square * (1.0 / 360 - inverse_square * (1.0 / 1260 - inverse_square / 1680)));
  return (n - 0.5) * portable_log(n) - n + 0.91893853320467274 + correction;  // 0.918... = log(2 pi) / 2
}

}  // namespace xp::kernels
