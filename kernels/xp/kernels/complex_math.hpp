#pragma once
// Complex element types in the shared functors. Arrays hold std::complex<float> and std::complex<double>;
// code nvcc compiles computes in libcu++'s cuda::std::complex instead (std::complex is not device code),
// which has the same layout (and a stricter alignment for complex128: 16 bytes), so a kernel reads the
// same bytes. The helpers below are what the functors
// need beyond C++'s operators: NumPy's products and quotients, NumPy's ordering of complex numbers (lexicographic, real
// part first), NaN tests, and the functions C++ has no complex overload for (log1p, expm1).
#ifndef __CUDACC_RTC__
#include <cmath>
#include <complex>
#include <type_traits>
#endif
#if defined(__CUDACC__)
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
#if defined(__CUDACC__)
  using device_type = cuda::std::complex<F>;
  // libcu++ aligns complex<double> to 16 bytes, std::complex<double> to 8: arrays the library allocates
  // are aligned far more, and DLPack refuses a GPU complex128 tensor that is not.
  static_assert(sizeof(cuda::std::complex<F>) == sizeof(std::complex<F>) &&
                alignof(cuda::std::complex<F>) % alignof(std::complex<F>) == 0);
#else
  using device_type = std::complex<F>;
#endif
};
#if defined(__CUDACC__)
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

// a^b for complex numbers as NumPy computes it: a^0 = 1; 0^b = 0 for b of positive real part (whatever
// its imaginary part), else NaN;
// integer exponents below 100 in magnitude by repeated squaring (exact where products are: (1+1j)^2 is
// 2j, not 1.2e-16+2j); other exponents through pow.
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
  using std::pow;
  return pow(a, b);
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

}  // namespace xp::kernels
