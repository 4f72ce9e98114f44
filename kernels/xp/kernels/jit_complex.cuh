// The complex element types of run-time kernels, under NVRTC and under the host compiler:
// xp::complex64 and xp::complex128, laid out as the library's arrays hold them (real part, then
// imaginary part), with NumPy's product and quotient (complex_arithmetic.hpp, which comes first) and
// the functions a body reaches for. Follows the prelude, whose math functions it calls. Exempt from
// clang-format, as the prelude is.
// clang-format off
#ifndef XP_KERNELS_JIT_COMPLEX_CUH
#define XP_KERNELS_JIT_COMPLEX_CUH
#ifndef XPJ_DEVICE  // included on its own (the header check): what generated sources put before it
#include "xp/kernels/complex_arithmetic.hpp"
#include "xp/kernels/jit_prelude.cuh"
#endif
namespace xpj {

// Operators are hidden friends, so a real operand of any arithmetic type converts: x * 2, 1.0 - x.
template <class T>
struct alignas(2 * sizeof(T)) complex {
  T re, im;
  XPJ_DEVICE complex(T r = T(), T i = T()) : re(r), im(i) {}
  template <class U> XPJ_DEVICE explicit complex(const complex<U>& z) : re(T(z.re)), im(T(z.im)) {}
  XPJ_DEVICE T real() const { return re; }
  XPJ_DEVICE T imag() const { return im; }
  XPJ_DEVICE friend complex operator+(const complex& a, const complex& b) { return complex(a.re + b.re, a.im + b.im); }
  XPJ_DEVICE friend complex operator-(const complex& a, const complex& b) { return complex(a.re - b.re, a.im - b.im); }
  XPJ_DEVICE friend complex operator*(const complex& a, const complex& b) { return xp::kernels::complex_multiply(a, b); }
  XPJ_DEVICE friend complex operator/(const complex& a, const complex& b) { return xp::kernels::complex_divide(a, b); }
  XPJ_DEVICE friend complex operator-(const complex& a) { return complex(-a.re, -a.im); }
  XPJ_DEVICE friend complex operator+(const complex& a) { return a; }
  XPJ_DEVICE friend bool operator==(const complex& a, const complex& b) { return a.re == b.re && a.im == b.im; }
  XPJ_DEVICE friend bool operator!=(const complex& a, const complex& b) { return !(a == b); }
  XPJ_DEVICE complex& operator+=(const complex& b) { return *this = *this + b; }
  XPJ_DEVICE complex& operator-=(const complex& b) { return *this = *this - b; }
  XPJ_DEVICE complex& operator*=(const complex& b) { return *this = *this * b; }
  XPJ_DEVICE complex& operator/=(const complex& b) { return *this = *this / b; }
};

template <class T> XPJ_DEVICE T real(const complex<T>& z) { return z.re; }
template <class T> XPJ_DEVICE T imag(const complex<T>& z) { return z.im; }
template <class T> XPJ_DEVICE complex<T> conj(const complex<T>& z) { return complex<T>(z.re, -z.im); }
template <class T> XPJ_DEVICE T abs(const complex<T>& z) { return ::hypot(z.re, z.im); }
template <class T> XPJ_DEVICE T norm(const complex<T>& z) { return z.re * z.re + z.im * z.im; }
template <class T> XPJ_DEVICE T arg(const complex<T>& z) { return ::atan2(z.im, z.re); }
template <class T> XPJ_DEVICE complex<T> polar(T r, T theta) { return complex<T>(r * ::cos(theta), r * ::sin(theta)); }
// exp of a real number keeps its imaginary zero (its sign included).
template <class T> XPJ_DEVICE complex<T> exp(const complex<T>& z) {
  return z.im == T(0) ? complex<T>(::exp(z.re), z.im) : polar(::exp(z.re), z.im);
}
// log|z| near |z| = 1 as log1p((a - 1)(a + 1) + b^2), a >= b the parts' magnitudes: log(hypot) keeps
// little more than its rounding error there (the built-in log also sums the products' errors, by fma).
template <class T> XPJ_DEVICE complex<T> log(const complex<T>& z) {
  T a = ::fabs(z.re), b = ::fabs(z.im);
  if (a < b) { const T larger = b; b = a; a = larger; }
  const bool near_one = a >= T(0.71) && a <= T(1.41);
  return complex<T>(near_one ? T(0.5) * ::log1p((a - T(1)) * (a + T(1)) + b * b) : ::log(::hypot(a, b)), arg(z));
}
// The principal root, without cancellation: from the larger of the root's parts.
template <class T> XPJ_DEVICE complex<T> sqrt(const complex<T>& z) {
  if (z.re == T(0) && z.im == T(0)) return complex<T>(T(0), z.im);
  const T t = ::sqrt((::fabs(z.re) + abs(z)) / T(2));
  if (z.re >= T(0)) return complex<T>(t, z.im / (T(2) * t));
  return complex<T>(::fabs(z.im) / (T(2) * t), ::copysign(t, z.im));
}
template <class T> XPJ_DEVICE complex<T> pow(const complex<T>& a, const complex<T>& b) {
  if (b.re == T(0) && b.im == T(0)) return complex<T>(T(1), T(0));
  if (a.re == T(0) && a.im == T(0)) return b.re > T(0) ? complex<T>() : complex<T>(T(0) / T(0), T(0) / T(0));
  return exp(b * log(a));
}
// Of a real infinity or NaN: NaN, with the imaginary zero (sin) or +0 (cos), as glibc's (C's Annex G).
template <class T> XPJ_DEVICE complex<T> sin(const complex<T>& z) {
  if (z.im == T(0) && !(z.re - z.re == T(0))) return complex<T>(z.re - z.re, z.im);
  return complex<T>(::sin(z.re) * ::cosh(z.im), ::cos(z.re) * ::sinh(z.im));
}
template <class T> XPJ_DEVICE complex<T> cos(const complex<T>& z) {
  if (z.im == T(0) && !(z.re - z.re == T(0))) return complex<T>(z.re - z.re, T(0));
  return complex<T>(::cos(z.re) * ::cosh(z.im), -(::sin(z.re) * ::sinh(z.im)));
}
template <class T> XPJ_DEVICE bool isnan(const complex<T>& z) { return z.re != z.re || z.im != z.im; }
// The inverse and hyperbolic functions (but tanh), by the libraries the array functions use: libcu++'s
// under NVRTC (<cuda/std/complex>, which a source includes only where its code names them, defining
// XPJ_CUDA_STD_COMPLEX), C's on the host (glibc's casin ..., which libstdc++'s std::asin ... call).
#if defined(XPJ_CUDA_STD_COMPLEX)
#define XPJ_LIBRARY_COMPLEX(name, c_name)                                                     \
  template <class T> XPJ_DEVICE complex<T> name(const complex<T>& z) {                        \
    const cuda::std::complex<T> r = cuda::std::name(cuda::std::complex<T>(z.re, z.im));       \
    return complex<T>(r.real(), r.imag());                                                    \
  }
#elif !defined(__CUDACC__)
#define XPJ_LIBRARY_COMPLEX(name, c_name)                                                     \
  XPJ_DEVICE complex<float> name(const complex<float>& z) {                                   \
    __complex__ float c; __real__ c = z.re; __imag__ c = z.im; c = __builtin_##c_name##f(c);  \
    return complex<float>(__real__ c, __imag__ c);                                            \
  }                                                                                           \
  XPJ_DEVICE complex<double> name(const complex<double>& z) {                                 \
    __complex__ double c; __real__ c = z.re; __imag__ c = z.im; c = __builtin_##c_name(c);    \
    return complex<double>(__real__ c, __imag__ c);                                           \
  }
#endif
#ifdef XPJ_LIBRARY_COMPLEX
XPJ_LIBRARY_COMPLEX(asin, casin) XPJ_LIBRARY_COMPLEX(acos, cacos) XPJ_LIBRARY_COMPLEX(atan, catan)
XPJ_LIBRARY_COMPLEX(sinh, csinh) XPJ_LIBRARY_COMPLEX(cosh, ccosh) XPJ_LIBRARY_COMPLEX(asinh, casinh)
XPJ_LIBRARY_COMPLEX(acosh, cacosh) XPJ_LIBRARY_COMPLEX(atanh, catanh)
#undef XPJ_LIBRARY_COMPLEX
#endif

}  // namespace xpj

namespace xp {
typedef xpj::complex<float> complex64;
typedef xpj::complex<double> complex128;
}  // namespace xp
#endif  // XP_KERNELS_JIT_COMPLEX_CUH
