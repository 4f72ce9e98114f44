#pragma once
// Complex products and quotients as NumPy computes them (so that GPUs and hosts agree with it on
// infinities and NaNs, where C99's Annex G recovers infinities instead): the textbook product, and
// Smith's quotient, which scales by the divisor's larger part; a zero divisor gives a / |0| part by
// part (inf or NaN). For any complex type T with real(), imag() and T(re, im): the built-in
// functors' and run-time kernels' alike. The JIT embeds this text after its prelude (which defines
// XP_HOST_DEVICE there).
#ifndef XPJ_DEVICE
#include "xp/host_device.hpp"
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
