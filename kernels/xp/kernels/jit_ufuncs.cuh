// NumPy's elementwise functions of one element, for run-time kernels: xp::floor_divide(x, y), xp::isnan(x),
// xp::arctan2(y, x), ... Each is one line over the functor the built-in loops call (arithmetic.hpp,
// float_functions.hpp, ...), so a kernel body computes what the array function computes, on every device.
// A generated source carries them, after the functors, when its code names xp:: (lib/core/kernel_source.cpp).
// Types, as the built-in loops compute them: 2-byte floats in float (the result is float, rounded where it
// is stored); NumPy's floating-point functions take integers and bool as double. Operands of different
// types meet in C's common type (the type of `c ? a : b`); NumPy's promotion of mixed kinds is the caller's
// cast. A function NumPy does not define for a type (gcd of floats) does not compile for it.
// frexp, modf and divmod return one result and store the other through a pointer, as C's frexp and modf.
// Exempt from clang-format, as the prelude is.
// clang-format off
#ifndef XP_KERNELS_JIT_UFUNCS_CUH
#define XP_KERNELS_JIT_UFUNCS_CUH
#ifndef XPJ_DEVICE  // included on its own (the header check): what generated sources put before it
#include "xp/kernels/element_types.hpp"
#include "xp/kernels/jit_std.cuh"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/bitwise.hpp"
#include "xp/kernels/divisors.hpp"
#include "xp/kernels/float_functions.hpp"
#include "xp/kernels/predicates.hpp"
#include "xp/kernels/real_float_functions.hpp"
#include "xp/kernels/selection.hpp"
#endif
namespace xpj_ufunc {
template <class T> struct same { typedef T type; };
template <> struct same<xp::float16> { typedef float type; };
template <> struct same<xp::bfloat16> { typedef float type; };
template <class T, bool = xpj_math::integer<T>::value> struct floating : same<T> {};
template <class T> struct floating<T, true> { typedef double type; };
template <class A, class B> struct common : same<decltype(true ? A() : B())> {};
}  // namespace xpj_ufunc

#define XPJ_UFUNC1(name, functor) \
  template <class T> XPJ_DEVICE auto name(T x) { return functor(typename xpj_ufunc::same<T>::type(x)); }
#define XPJ_FLOAT_UFUNC1(name, functor) \
  template <class T> XPJ_DEVICE auto name(T x) { return functor(typename xpj_ufunc::floating<T>::type(x)); }
#define XPJ_UFUNC2(name, functor)                                     \
  template <class A, class B> XPJ_DEVICE auto name(A a, B b) {        \
    typedef typename xpj_ufunc::common<A, B>::type C;                 \
    return functor(C(a), C(b));                                       \
  }
#define XPJ_FLOAT_UFUNC2(name, functor)                                                       \
  template <class A, class B> XPJ_DEVICE auto name(A a, B b) {                                \
    typedef typename xpj_ufunc::floating<typename xpj_ufunc::common<A, B>::type>::type C;     \
    return functor(C(a), C(b));                                                               \
  }

namespace xp {
XPJ_UFUNC1(negative, kernels::Negative())
XPJ_UFUNC1(absolute, kernels::Abs())
XPJ_UFUNC1(abs, kernels::Abs())
XPJ_UFUNC1(square, kernels::Square())
XPJ_UFUNC1(reciprocal, kernels::Reciprocal())
XPJ_UFUNC1(sign, kernels::Sign())
XPJ_UFUNC1(conj, kernels::Conj())
XPJ_UFUNC1(real, kernels::RealPart())
XPJ_UFUNC1(imag, kernels::ImagPart())
XPJ_UFUNC1(invert, kernels::Invert())
XPJ_UFUNC1(floor, kernels::Rounding<kernels::RoundingKind::floor>())
XPJ_UFUNC1(ceil, kernels::Rounding<kernels::RoundingKind::ceil>())
XPJ_UFUNC1(trunc, kernels::Rounding<kernels::RoundingKind::trunc>())
XPJ_UFUNC1(isnan, kernels::Classify<kernels::ClassKind::nan>())
XPJ_UFUNC1(isinf, kernels::Classify<kernels::ClassKind::inf>())
XPJ_UFUNC1(isfinite, kernels::Classify<kernels::ClassKind::finite>())
XPJ_UFUNC1(logical_not, kernels::LogicalNot())
XPJ_FLOAT_UFUNC1(signbit, kernels::SignBit())
XPJ_FLOAT_UFUNC1(exp, kernels::Exp())
XPJ_FLOAT_UFUNC1(log, kernels::Log())
XPJ_FLOAT_UFUNC1(sqrt, kernels::Sqrt())
XPJ_FLOAT_UFUNC1(sin, kernels::Sin())
XPJ_FLOAT_UFUNC1(cos, kernels::Cos())
XPJ_FLOAT_UFUNC1(tan, kernels::Tan())
XPJ_FLOAT_UFUNC1(tanh, kernels::Tanh())
XPJ_FLOAT_UFUNC1(exp2, kernels::Exp2())
XPJ_FLOAT_UFUNC1(log2, kernels::Log2())
XPJ_FLOAT_UFUNC1(log10, kernels::Log10())
XPJ_FLOAT_UFUNC1(log1p, kernels::Log1p())
XPJ_FLOAT_UFUNC1(expm1, kernels::Expm1())
XPJ_FLOAT_UFUNC1(arcsin, kernels::Arcsin())
XPJ_FLOAT_UFUNC1(arccos, kernels::Arccos())
XPJ_FLOAT_UFUNC1(arctan, kernels::Arctan())
XPJ_FLOAT_UFUNC1(sinh, kernels::Sinh())
XPJ_FLOAT_UFUNC1(cosh, kernels::Cosh())
XPJ_FLOAT_UFUNC1(arcsinh, kernels::Arcsinh())
XPJ_FLOAT_UFUNC1(arccosh, kernels::Arccosh())
XPJ_FLOAT_UFUNC1(arctanh, kernels::Arctanh())
XPJ_FLOAT_UFUNC1(cbrt, kernels::Cbrt())
XPJ_FLOAT_UFUNC1(deg2rad, kernels::Deg2rad())
XPJ_FLOAT_UFUNC1(rad2deg, kernels::Rad2deg())
XPJ_FLOAT_UFUNC1(rint, kernels::Rint())
XPJ_FLOAT_UFUNC1(angle, kernels::Angle())
XPJ_FLOAT_UFUNC1(sigmoid, kernels::Sigmoid())
XPJ_UFUNC2(add, kernels::Add())
XPJ_UFUNC2(subtract, kernels::Subtract())
XPJ_UFUNC2(multiply, kernels::Multiply())
XPJ_UFUNC2(power, kernels::Power())
XPJ_UFUNC2(floor_divide, kernels::FloorDivide())
XPJ_UFUNC2(remainder, kernels::Mod())
XPJ_UFUNC2(mod, kernels::Mod())
XPJ_UFUNC2(fmod, kernels::Fmod())
XPJ_UFUNC2(maximum, kernels::Maximum())
XPJ_UFUNC2(minimum, kernels::Minimum())
XPJ_UFUNC2(fmax, kernels::Fmax())
XPJ_UFUNC2(fmin, kernels::Fmin())
XPJ_UFUNC2(bitwise_and, kernels::BitwiseAnd())
XPJ_UFUNC2(bitwise_or, kernels::BitwiseOr())
XPJ_UFUNC2(bitwise_xor, kernels::BitwiseXor())
XPJ_UFUNC2(left_shift, kernels::LeftShift())
XPJ_UFUNC2(right_shift, kernels::RightShift())
XPJ_UFUNC2(gcd, kernels::Gcd())
XPJ_UFUNC2(lcm, kernels::Lcm())
XPJ_UFUNC2(logical_and, kernels::Logical{kernels::Logical::both})
XPJ_UFUNC2(logical_or, kernels::Logical{kernels::Logical::either})
XPJ_UFUNC2(logical_xor, kernels::Logical{kernels::Logical::exactly_one})
XPJ_UFUNC2(equal, kernels::Compare{kernels::Compare::equal})
XPJ_UFUNC2(not_equal, kernels::Compare{kernels::Compare::not_equal})
XPJ_UFUNC2(less, kernels::Compare{kernels::Compare::less})
XPJ_UFUNC2(less_equal, kernels::Compare{kernels::Compare::less_equal})
XPJ_UFUNC2(greater, kernels::Compare{kernels::Compare::greater})
XPJ_UFUNC2(greater_equal, kernels::Compare{kernels::Compare::greater_equal})
XPJ_FLOAT_UFUNC2(divide, kernels::Divide())
XPJ_FLOAT_UFUNC2(arctan2, kernels::Arctan2())
XPJ_FLOAT_UFUNC2(hypot, kernels::Hypot())
XPJ_FLOAT_UFUNC2(copysign, kernels::Copysign())
XPJ_FLOAT_UFUNC2(nextafter, kernels::Nextafter())
XPJ_FLOAT_UFUNC2(heaviside, kernels::Heaviside())

// nextafter of 2-byte floats steps through their own values, as the array function's.
XPJ_DEVICE float nextafter(float16 a, float16 b) { return kernels::NextafterIn<float16>()(float(a), float(b)); }
XPJ_DEVICE float nextafter(bfloat16 a, bfloat16 b) { return kernels::NextafterIn<bfloat16>()(float(a), float(b)); }

template <class T, class I> XPJ_DEVICE auto ldexp(T x, I e) {
  return kernels::Ldexp()(typename xpj_ufunc::floating<T>::type(x), double(e));
}
template <class T> XPJ_DEVICE auto frexp(T x, int* exponent) {
  const typename xpj_ufunc::floating<T>::type f(x);
  *exponent = kernels::FrexpExponent()(f);
  return kernels::FrexpMantissa()(f);
}
template <class T, class W> XPJ_DEVICE auto modf(T x, W* whole) {
  const typename xpj_ufunc::floating<T>::type f(x);
  *whole = W(kernels::Rounding<kernels::RoundingKind::trunc>()(f));
  return kernels::ModfFraction()(f);
}
template <class A, class B, class R> XPJ_DEVICE auto divmod(A a, B b, R* remainder) {
  typedef typename xpj_ufunc::common<A, B>::type C;
  *remainder = R(kernels::Mod()(C(a), C(b)));
  return kernels::FloorDivide()(C(a), C(b));
}
template <class A, class B> XPJ_DEVICE auto where(bool condition, A x, B y) {
  typedef typename xpj_ufunc::common<A, B>::type C;
  return kernels::Where()(condition, C(x), C(y));
}
template <class A, class L, class H> XPJ_DEVICE auto clip(A x, L low, H high) {
  typedef typename xpj_ufunc::common<typename xpj_ufunc::common<A, L>::type, H>::type C;
  return kernels::Clip()(C(x), C(low), C(high));
}
}  // namespace xp
#undef XPJ_UFUNC1
#undef XPJ_FLOAT_UFUNC1
#undef XPJ_UFUNC2
#undef XPJ_FLOAT_UFUNC2
#endif  // XP_KERNELS_JIT_UFUNCS_CUH
