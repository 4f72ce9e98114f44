#pragma once
// The 2-byte floating element types, read by the host compiler, nvcc and NVRTC alike (so a CPU test
// checks the bits a GPU computes): IEEE binary16 (xp::float16) and bfloat16 (xp::bfloat16), stored as
// their 16 bits and laid out as CUDA's __half and __nv_bfloat16. Conversions from float round to
// nearest, ties to even, as CUDA's __float2half_rn and __float2bfloat16_rn and NumPy's astype: on GPUs
// one cvt instruction, on hosts the same rounding in integer arithmetic. Arithmetic computes in float
// and rounds once per operation (float16(a + b)), as CuPy and PyTorch do. NaNs stay NaN (their
// payload bits may differ between the host and the GPU). Self-contained: the JIT embeds this text.
#ifndef XP_HOST_DEVICE
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define XP_HOST_DEVICE __host__ __device__
#else
#define XP_HOST_DEVICE
#endif
#endif

namespace xp {

namespace element_bits {

XP_HOST_DEVICE inline unsigned int of_float(float f) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  return __builtin_bit_cast(unsigned int, f);
#endif
}

XP_HOST_DEVICE inline float to_float(unsigned int bits) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(bits);
#else
  return __builtin_bit_cast(float, bits);
#endif
}

// value >> shift rounded to nearest, ties to even (shift in [1, 31]).
XP_HOST_DEVICE inline unsigned int shift_rounded(unsigned int value, int shift) {
  const unsigned int kept = value >> shift, rest = value & ((1u << shift) - 1), half = 1u << (shift - 1);
  return kept + ((rest > half || (rest == half && (kept & 1u))) ? 1u : 0u);
}

XP_HOST_DEVICE inline unsigned short half_of_float(float f) {
#if defined(__CUDA_ARCH__)
  unsigned short h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#else
  const unsigned int x = of_float(f), sign = (x >> 16) & 0x8000u, magnitude = x & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<unsigned short>(sign | 0x7e00u | ((magnitude >> 13) & 0x3ffu));
  if (magnitude >= 0x477ff000u) return static_cast<unsigned short>(sign | 0x7c00u);  // >= 65520: infinity
  if (magnitude >= 0x38800000u)  // a normal half: the exponent rebiased (127 -> 15), 13 bits rounded off
    return static_cast<unsigned short>(sign | shift_rounded(magnitude - 0x38000000u, 13));
  if (magnitude <= 0x33000000u) return static_cast<unsigned short>(sign);  // <= 2^-25: zero
  // A subnormal half: the significand (implicit bit included) in units of 2^-24.
  const int exponent = static_cast<int>(magnitude >> 23);
  const unsigned int significand = (magnitude & 0x7fffffu) | 0x800000u;
  return static_cast<unsigned short>(sign | shift_rounded(significand, 126 - exponent));
#endif
}

XP_HOST_DEVICE inline float float_of_half(unsigned short h) {
#if defined(__CUDA_ARCH__)
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#else
  const unsigned int sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0x1fu) return to_float(sign | 0x7f800000u | (mantissa << 13));
  if (exponent != 0) return to_float(sign | ((exponent + 112u) << 23) | (mantissa << 13));
  const float subnormal = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // exact: mantissa * 2^-24
  return sign ? -subnormal : subnormal;
#endif
}

XP_HOST_DEVICE inline unsigned short bfloat_of_float(float f) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  unsigned short b;
  asm("cvt.rn.bf16.f32 %0, %1;" : "=h"(b) : "f"(f));
  return b;
#else
  const unsigned int x = of_float(f);
  if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<unsigned short>((x >> 16) | 0x40u);  // quiet NaN
  return static_cast<unsigned short>(shift_rounded(x, 16));  // a carry into the exponent is right
#endif
}

XP_HOST_DEVICE inline float float_of_bfloat(unsigned short b) { return to_float(static_cast<unsigned int>(b) << 16); }

// float nearest to d rounded to odd: truncated, then its last bit set if that was inexact. Rounding
// that to fewer than 22 significand bits (half, bfloat16) gives d correctly rounded, as NumPy's
// float64 -> float16 does, where rounding twice to nearest could be off by one unit.
XP_HOST_DEVICE inline float float_of_double_to_odd(double d) {
  const float nearest = static_cast<float>(d);
  if (static_cast<double>(nearest) == d || d != d) return nearest;
  unsigned int bits = of_float(nearest);
  const bool away = (nearest < 0 ? -static_cast<double>(nearest) : static_cast<double>(nearest)) > (d < 0 ? -d : d);
  if (away) --bits;  // one unit toward zero: the truncation
  return to_float(bits | 1u);
}

// The float a 2-byte type rounds to nearest from: a float itself; a double or an integer through
// float_of_double_to_odd.
XP_HOST_DEVICE inline float nearest_float_of(float f) { return f; }
XP_HOST_DEVICE inline float nearest_float_of(double d) { return float_of_double_to_odd(d); }
template <class A>
XP_HOST_DEVICE float nearest_float_of(A a) {
  return float_of_double_to_odd(static_cast<double>(a));
}

struct half_format {
  XP_HOST_DEVICE static unsigned short encode(float f) { return half_of_float(f); }
  XP_HOST_DEVICE static float decode(unsigned short h) { return float_of_half(h); }
};

struct bfloat_format {
  XP_HOST_DEVICE static unsigned short encode(float f) { return bfloat_of_float(f); }
  XP_HOST_DEVICE static float decode(unsigned short b) { return float_of_bfloat(b); }
};

}  // namespace element_bits

/// A 2-byte floating type: 16 bits in Format's encoding, computed as float. Made explicitly from any
/// arithmetic value, rounded once to nearest (float16(0.5f), T(1), float16(1e-5)); reads as a float implicitly, so
/// mixed expressions (h * 2.0f) compute in float, and an operation of two of them rounds its float result once.
template <class Format>
struct alignas(2) two_byte_float {
  unsigned short bits;

  two_byte_float() = default;
  template <class A>
  XP_HOST_DEVICE explicit two_byte_float(A value) : bits(Format::encode(element_bits::nearest_float_of(value))) {}
  XP_HOST_DEVICE operator float() const { return Format::decode(bits); }  // NOLINT: as __half's
  // Assignment from any arithmetic value rounds as construction does: `h = x * 2.0f` (kernel code).
  template <class A>
  XP_HOST_DEVICE two_byte_float& operator=(A value) {
    bits = Format::encode(element_bits::nearest_float_of(value));
    return *this;
  }
  XP_HOST_DEVICE static two_byte_float from_bits(unsigned short b) {
    two_byte_float value;
    value.bits = b;
    return value;
  }

  XP_HOST_DEVICE friend two_byte_float operator+(two_byte_float a, two_byte_float b) {
    return two_byte_float(float(a) + float(b));
  }
  XP_HOST_DEVICE friend two_byte_float operator-(two_byte_float a, two_byte_float b) {
    return two_byte_float(float(a) - float(b));
  }
  XP_HOST_DEVICE friend two_byte_float operator*(two_byte_float a, two_byte_float b) {
    return two_byte_float(float(a) * float(b));
  }
  XP_HOST_DEVICE friend two_byte_float operator/(two_byte_float a, two_byte_float b) {
    return two_byte_float(float(a) / float(b));
  }
  XP_HOST_DEVICE friend two_byte_float operator-(two_byte_float a) {
    return from_bits(static_cast<unsigned short>(a.bits ^ 0x8000u));
  }
  XP_HOST_DEVICE two_byte_float& operator+=(two_byte_float o) { return *this = *this + o; }
  XP_HOST_DEVICE two_byte_float& operator-=(two_byte_float o) { return *this = *this - o; }
  XP_HOST_DEVICE two_byte_float& operator*=(two_byte_float o) { return *this = *this * o; }
  XP_HOST_DEVICE two_byte_float& operator/=(two_byte_float o) { return *this = *this / o; }
};

/// IEEE 754 binary16: 1 sign, 5 exponent and 10 significand bits (NumPy's float16, CUDA's __half).
using float16 = two_byte_float<element_bits::half_format>;
/// bfloat16: float's sign and 8 exponent bits, 7 significand bits (ml_dtypes', CUDA's __nv_bfloat16).
using bfloat16 = two_byte_float<element_bits::bfloat_format>;

}  // namespace xp
