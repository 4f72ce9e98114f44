#pragma once
// Complex products and quotients as NumPy computes them (so that GPUs and hosts agree with it on
// infinities and NaNs, where C99's Annex G recovers infinities instead): the textbook product, and
// Smith's quotient, which scales by the divisor's larger part; a zero divisor gives a / |0| part by
// part (inf or NaN). For any complex type T with real(), imag() and T(re, im): the built-in
// functors' and run-time kernels' alike. Self-contained (no includes): the JIT embeds this text.
#ifndef XP_HOST_DEVICE
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define XP_HOST_DEVICE __host__ __device__
#else
#define XP_HOST_DEVICE
#endif
#endif

namespace xp {
namespace kernels {

template <class T>
XP_HOST_DEVICE inline T complex_multiply(T a, T b) {
  return T(a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real());
}

// |x| without <cmath>; -0 becomes +0 (x + 0), as fabs gives.
template <class R>
XP_HOST_DEVICE inline R magnitude_of(R x) {
  return x < R(0) ? -x : x + R(0);
}

template <class T>
XP_HOST_DEVICE inline T complex_divide(T a, T b) {
  typedef decltype(a.real()) R;
  const R c = b.real(), d = b.imag();
  const R c_abs = magnitude_of(c), d_abs = magnitude_of(d);
  if (c_abs >= d_abs) {
    if (c_abs == R(0) && d_abs == R(0)) return T(a.real() / c_abs, a.imag() / c_abs);
    const R ratio = d / c, scale = R(1) / (c + d * ratio);
    return T((a.real() + a.imag() * ratio) * scale, (a.imag() - a.real() * ratio) * scale);
  }
  const R ratio = c / d, scale = R(1) / (d + c * ratio);
  return T((a.real() * ratio + a.imag()) * scale, (a.imag() * ratio - a.real()) * scale);
}

}  // namespace kernels
}  // namespace xp
