// What the shared functors (arithmetic.hpp, float_functions.hpp, ...) take from std, for run-time kernels,
// which have no standard library: NVRTC has none, and the host compiler's <cmath> and <type_traits>
// were most of a small kernel's compile. A namespace xp::kernels::std, which the functors' `std::`
// finds before ::std: type traits over the element types, the math functions of the prelude (CUDA's
// under NVRTC), numeric_limits of float and double, and std::complex as the run-time kernels' complex.
// Follows the prelude and the complex types (jit_complex.cuh). Exempt from clang-format, as they are.
// clang-format off
#ifndef XP_KERNELS_JIT_STD_CUH
#define XP_KERNELS_JIT_STD_CUH
#ifndef XPJ_DEVICE  // included on its own (the header check): what generated sources put before it
#include "xp/kernels/complex_arithmetic.hpp"
#include "xp/kernels/jit_prelude.cuh"
#include "xp/kernels/jit_complex.cuh"
#endif
namespace xp { namespace kernels { namespace std {

template <bool B, class T, class F> struct conditional { typedef T type; };
template <class T, class F> struct conditional<false, T, F> { typedef F type; };
template <bool B, class T, class F> using conditional_t = typename conditional<B, T, F>::type;
template <class T, class U> inline constexpr bool is_same_v = false;
template <class T> inline constexpr bool is_same_v<T, T> = true;
template <class T> inline constexpr bool is_integral_v = xpj_math::integer<T>::value;  // bool too
template <class T> inline constexpr bool is_floating_point_v = is_same_v<T, float> || is_same_v<T, double>;
template <class T, bool = is_integral_v<T>> struct signedness { static constexpr bool is_signed = is_floating_point_v<T>, is_unsigned = false; };
template <class T> struct signedness<T, true> { static constexpr bool is_signed = T(-1) < T(0), is_unsigned = T(0) < T(-1); };
template <class T> inline constexpr bool is_signed_v = signedness<T>::is_signed;
template <class T> inline constexpr bool is_unsigned_v = signedness<T>::is_unsigned;
template <class T> struct make_unsigned;
template <> struct make_unsigned<char> { typedef unsigned char type; };
template <> struct make_unsigned<signed char> { typedef unsigned char type; };
template <> struct make_unsigned<unsigned char> { typedef unsigned char type; };
template <> struct make_unsigned<short> { typedef unsigned short type; };
template <> struct make_unsigned<unsigned short> { typedef unsigned short type; };
template <> struct make_unsigned<int> { typedef unsigned type; };
template <> struct make_unsigned<unsigned> { typedef unsigned type; };
template <> struct make_unsigned<long> { typedef unsigned long type; };
template <> struct make_unsigned<unsigned long> { typedef unsigned long type; };
template <> struct make_unsigned<long long> { typedef unsigned long long type; };
template <> struct make_unsigned<unsigned long long> { typedef unsigned long long type; };
template <class T> using make_unsigned_t = typename make_unsigned<T>::type;

// No builtin names infinity under NVRTC: its bits do, as element_types.hpp reads floats.
template <class T> struct numeric_limits;
template <> struct numeric_limits<float> {
  XP_HOST_DEVICE static constexpr float epsilon() { return 0x1p-23f; }
  XP_HOST_DEVICE static constexpr float min() { return 0x1p-126f; }
  XP_HOST_DEVICE static constexpr float max() { return 0x1.fffffep127f; }
#if defined(__CUDA_ARCH__)
  XP_HOST_DEVICE static float infinity() { return __int_as_float(0x7f800000); }
#else
  XP_HOST_DEVICE static constexpr float infinity() { return __builtin_huge_valf(); }
#endif
};
template <> struct numeric_limits<double> {
  XP_HOST_DEVICE static constexpr double epsilon() { return 0x1p-52; }
  XP_HOST_DEVICE static constexpr double min() { return 0x1p-1022; }
  XP_HOST_DEVICE static constexpr double max() { return 0x1.fffffffffffffp1023; }
#if defined(__CUDA_ARCH__)
  XP_HOST_DEVICE static double infinity() { return __longlong_as_double(0x7ff0000000000000LL); }
#else
  XP_HOST_DEVICE static constexpr double infinity() { return __builtin_huge_val(); }
#endif
};

template <class T> XP_HOST_DEVICE void swap(T& a, T& b) { T t = a; a = b; b = t; }
template <class T> using complex = ::xpj::complex<T>;

using ::acos; using ::acosh; using ::asin; using ::asinh; using ::atan; using ::atanh; using ::cbrt; using ::ceil;
using ::cos; using ::cosh; using ::exp; using ::exp2; using ::expm1; using ::fabs; using ::floor; using ::log;
using ::log10; using ::log1p; using ::log2; using ::rint; using ::sin; using ::sinh; using ::sqrt; using ::tan;
using ::tanh; using ::trunc; using ::atan2; using ::copysign; using ::fmod; using ::hypot; using ::nextafter;
using ::pow; using ::frexp; using ::ldexp; using ::modf; using ::fma; using ::isnan; using ::isinf;
using ::isfinite; using ::signbit;

}  // namespace std
}  // namespace kernels
}  // namespace xp
#endif  // XP_KERNELS_JIT_STD_CUH
