#pragma once
// Complex element types in the shared functors. Arrays hold std::complex<float> and std::complex<double>;
// code nvcc compiles computes in libcu++'s cuda::std::complex instead (std::complex is not device code),
// which has the same layout (and a stricter alignment for complex128: 16 bytes), so a kernel reads the
// same bytes. The helpers below are what the functors
// need beyond C++'s operators: NumPy's products and quotients, NumPy's ordering of complex numbers (lexicographic, real
// part first), NaN tests, the functions C++ has no complex overload for (log1p, expm1), and sqrt, log, tan,
// tanh and pow computed here on every device: libcu++'s cancel where glibc's (NumPy's) do not (sqrt of a
// negative real number 1.2e-16+2j, log near |z| = 1 and tan near a pole off in their leading digits).
// Special values are C's Annex G as glibc returns them.
#ifndef __CUDACC_RTC__
#include <cmath>
#include <complex>
#include <limits>
#include <type_traits>
#include <utility>
#endif
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)  // nvcc; run-time kernels compute in xpj::complex
#include <cuda/std/complex>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/complex_arithmetic.hpp"

namespace xp::kernels {

template <class T>
struct complex_traits {
  static constexpr bool is_complex = false;
  using device_type = T;
};
template <class F>
struct complex_traits<std::complex<F>> {
  static constexpr bool is_complex = true;
  using real_type = F;
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
  using device_type = cuda::std::complex<F>;
  // libcu++ aligns complex<double> to 16 bytes, std::complex<double> to 8: arrays the library allocates
  // are aligned far more, and DLPack refuses a GPU complex128 tensor that is not.
  static_assert(sizeof(cuda::std::complex<F>) == sizeof(std::complex<F>) &&
                alignof(cuda::std::complex<F>) % alignof(std::complex<F>) == 0);
#else
  using device_type = std::complex<F>;
#endif
};
#if defined(__CUDACC__) && !defined(__CUDACC_RTC__)
template <class F>
struct complex_traits<cuda::std::complex<F>> {
  static constexpr bool is_complex = true;
  using real_type = F;
  using device_type = cuda::std::complex<F>;
};
#endif

template <class T>
inline constexpr bool is_complex_v = complex_traits<T>::is_complex;

// The type kernels compute element type T in: T, but libcu++'s complex in code nvcc compiles.
template <class T>
using kernel_value_t = typename complex_traits<T>::device_type;

template <class T>
XP_HOST_DEVICE inline bool is_nan(T x) {
  if constexpr (is_complex_v<T>) return x.real() != x.real() || x.imag() != x.imag();
  else return x != x;
}

// a < b and a <= b as NumPy orders complex numbers: by real part, then imaginary part; a NaN in
// either part makes the comparison false, as it does for real numbers.
template <class T>
XP_HOST_DEVICE inline bool less(T a, T b) {
  if constexpr (is_complex_v<T>)
    return (a.real() < b.real() && !is_nan(a.imag()) && !is_nan(b.imag())) ||
           (a.real() == b.real() && a.imag() < b.imag());
  else return a < b;
}

template <class T>
XP_HOST_DEVICE inline bool less_equal(T a, T b) {
  if constexpr (is_complex_v<T>)
    return (a.real() < b.real() && !is_nan(a.imag()) && !is_nan(b.imag())) ||
           (a.real() == b.real() && a.imag() <= b.imag());
  else return a <= b;
}

// The principal root from the larger of its parts, t = sqrt((|x| + |z|) / 2) and |y| / 2t, so that
// neither cancels; x and y are scaled by a power of 4 where |x| + |z| would overflow or lose bits.
template <class T>
XP_HOST_DEVICE inline T complex_sqrt(T z) {
  using R = decltype(z.real());
  using limits = std::numeric_limits<R>;
  const R x = z.real(), y = z.imag();
  if (std::isinf(y)) return T(limits::infinity(), y);
  if (std::isinf(x)) {
    if (x > R(0)) return T(x, std::isnan(y) ? y : std::copysign(R(0), y));
    return T(std::isnan(y) ? y : R(0), std::copysign(limits::infinity(), y));
  }
  if (std::isnan(x) || std::isnan(y)) return T(x + y, x + y);
  if (x == R(0) && y == R(0)) return T(R(0), y);
  R ax = std::fabs(x), ay = std::fabs(y), root_scale = R(1);
  if (ax > limits::max() / R(4) || ay > limits::max() / R(4)) {
    ax /= R(4), ay /= R(4), root_scale = R(2);
  } else if (ax < limits::min() / limits::epsilon() && ay < limits::min() / limits::epsilon()) {
    const R up = R(1) / (limits::epsilon() * limits::epsilon());  // an even power of 2: its root is exact
    ax *= up, ay *= up, root_scale = limits::epsilon();
  }
  const R t = std::sqrt((ax + std::hypot(ax, ay)) / R(2));
  const R large = t * root_scale, small = ay / (R(2) * t) * root_scale;
  return x >= R(0) ? T(large, std::copysign(small, y)) : T(small, std::copysign(large, y));
}

// log|z| + i arg z. Where |z|^2 is within a factor 2 of 1, log|z| is log1p(|z|^2 - 1) / 2 with
// |z|^2 - 1 summed from the exact products (fma gives each one's rounding error): log(hypot) would
// leave only its rounding error there.
template <class T>
XP_HOST_DEVICE inline T complex_log(T z) {
  using R = decltype(z.real());
  R large = std::fabs(z.real()), small = std::fabs(z.imag());
  if (large < small) std::swap(large, small);
  R magnitude;
  if (large >= R(0.71) && large <= R(1.41)) {  // large^2 - 1 is exact: large^2 is in [0.5, 2]
    const R large_sq = large * large, small_sq = small * small;
    const R errors = std::fma(large, large, -large_sq) + std::fma(small, small, -small_sq);
    magnitude = R(0.5) * std::log1p((large_sq - R(1)) + small_sq + errors);
  } else {
    magnitude = std::log(std::hypot(large, small));
  }
  return T(magnitude, std::atan2(z.imag(), z.real()));
}

// Kahan's tanh: with t = tan y, s = sinh x, tanh z = (s sqrt(1 + s^2)(1 + t^2) + i t) / (1 + (1 + t^2) s^2),
// which does not cancel where cosh 2x + cos 2y does (tan near its poles); beyond |x| where tanh x
// rounds to +-1, the imaginary part is 4 sin y cos y e^-2|x|.
template <class T>
XP_HOST_DEVICE inline T complex_tanh(T z) {
  using R = decltype(z.real());
  const R x = z.real(), y = z.imag();
  if (std::isnan(x)) return T(x, y == R(0) ? y : x * y);
  if (std::isinf(x))
    return T(std::copysign(R(1), x),
             std::copysign(R(0), std::isfinite(y) && std::fabs(y) > R(1) ? std::sin(y) * std::cos(y) : y));
  if (!std::isfinite(y)) return T(x == R(0) ? x : y - y, y - y);
  if (std::fabs(x) >= R(sizeof(R) == 4 ? 9 : 22)) {
    const R decay = std::exp(-std::fabs(x));
    return T(std::copysign(R(1), x), R(4) * std::sin(y) * std::cos(y) * decay * decay);
  }
  const R t = std::tan(y), s = std::sinh(x);
  const R beta = R(1) + t * t, denominator = R(1) + beta * s * s;
  return T(beta * std::sqrt(R(1) + s * s) * s / denominator, t / denominator);
}

// tan z = -i tanh(iz).
template <class T>
XP_HOST_DEVICE inline T complex_tan(T z) {
  const T w = complex_tanh(T(-z.imag(), z.real()));
  return T(w.imag(), -w.real());
}

// a^b for complex numbers as NumPy computes it: a^0 = 1; 0^b = 0 for b of positive real part (whatever
// its imaginary part), else NaN;
// integer exponents below 100 in magnitude by repeated squaring (exact where products are: (1+1j)^2 is
// 2j, not 1.2e-16+2j); other exponents as exp(b log a), as glibc's cpow.
template <class T>
XP_HOST_DEVICE inline T complex_power(T a, T b) {
  using R = decltype(a.real());
  if (b.real() == R(0) && b.imag() == R(0)) return T(R(1), R(0));
  if (a.real() == R(0) && a.imag() == R(0)) {
    if (b.real() > R(0)) return T(R(0), R(0));
    const R nan = R(0) / R(0);
    return T(nan, nan);
  }
  const long long n = static_cast<long long>(b.real());
  if (b.imag() == R(0) && b.real() > R(-100) && b.real() < R(100) && static_cast<R>(n) == b.real()) {
    // NumPy unrolls 1, 2 and 3 (infinities come out otherwise than from a product with 1 + 0j).
    if (n == 1) return a;
    if (n == 2) return complex_multiply(a, a);
    if (n == 3) return complex_multiply(a, complex_multiply(a, a));
    T result(R(1), R(0)), base = a;
    for (long long e = n < 0 ? -n : n; e != 0; e >>= 1) {
      if (e & 1) result = complex_multiply(result, base);
      if (e > 1) base = complex_multiply(base, base);
    }
    return n < 0 ? complex_divide(T(R(1), R(0)), result) : result;
  }
  using std::exp;
  return exp(b * complex_log(a));  // C's product (Annex G keeps infinities), as cpow's
}

// log(1 + z) and exp(z) - 1 for complex z. log1p's real part is log|1 + z|, near z = 0 as
// log1p(2x + x^2 + y^2) / 2 (NumPy's log(hypot(1 + x, y)) cancels there: ~eps for |z| ~ 1e-7).
template <class T>
XP_HOST_DEVICE inline T complex_log1p(T z) {
  using R = decltype(z.real());
  const R x = z.real(), y = z.imag(), re = x + R(1);
  const R magnitude = std::fabs(x) < R(0.5) && std::fabs(y) < R(0.5) ? R(0.5) * std::log1p(x * (R(2) + x) + y * y)
                                                                     : std::log(std::hypot(re, y));
  return T(magnitude, std::atan2(y, re));
}

template <class T>
XP_HOST_DEVICE inline T complex_expm1(T z) {
  using R = decltype(z.real());
  const R half_sine = std::sin(z.imag() / R(2));
  return T(std::expm1(z.real()) * std::cos(z.imag()) - R(2) * half_sine * half_sine,
           std::exp(z.real()) * std::sin(z.imag()));
}

// 2^z = exp(z ln 2); log2 and log10 scale complex_log, as NumPy's complex loops do.
template <class T>
XP_HOST_DEVICE inline T complex_exp2(T z) {
  using R = decltype(z.real());
  using std::exp;
  const R ln2 = R(0.693147180559945309417232121458176568);
  return exp(T(z.real() * ln2, z.imag() * ln2));
}

// log z times a real factor (1 / ln 2, 1 / ln 10).
template <class T, class R>
XP_HOST_DEVICE inline T scaled_complex_log(T z, R factor) {
  const T w = complex_log(z);
  return T(w.real() * factor, w.imag() * factor);
}

template <class T>
XP_HOST_DEVICE inline T complex_log2(T z) {
  using R = decltype(z.real());
  return scaled_complex_log(z, R(1.442695040888963407359924681001892137));
}

template <class T>
XP_HOST_DEVICE inline T complex_log10(T z) {
  using R = decltype(z.real());
  return scaled_complex_log(z, R(0.434294481903251827651128918916605082));
}

// Each part rounded to the nearest integer, halves to even.
template <class T>
XP_HOST_DEVICE inline T complex_rint(T z) {
  return T(std::rint(z.real()), std::rint(z.imag()));
}

}  // namespace xp::kernels
