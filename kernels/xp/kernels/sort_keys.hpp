#pragma once
// Sort keys: every element type's bits mapped to an unsigned integer of the same width whose unsigned
// order is NumPy's sort order, so that one radix sort (CUB's on GPUs, lib/cpu's on CPUs) sorts every
// dtype. Equal values get equal keys, which a stable sort keeps in input order: -0.0 and +0.0 share
// the key of zero, and every NaN (any sign or payload) gets the largest key, after +inf. The map is
// therefore not invertible for floats: sorts of float values carry the elements' own bits beside the
// keys. Complex numbers sort on the real part's key, then the imaginary part's (NumPy's lexicographic
// order, NaNs last in each part): two stable passes, the imaginary part's first.
#include <cstdint>

#include "xp/dtype.hpp"
#include "xp/host_device.hpp"

namespace xp::kernels {

// How an element's bits encode its value.
enum class KeyFormat : unsigned char { unsigned_int, signed_int, binary16, bfloat16, binary32, binary64 };

template <KeyFormat F>
struct FloatBits;  // the exponent and significand fields of a floating format
template <>
struct FloatBits<KeyFormat::binary16> {
  static constexpr unsigned long long exponent = 0x7C00, significand = 0x03FF;
};
template <>
struct FloatBits<KeyFormat::bfloat16> {
  static constexpr unsigned long long exponent = 0x7F80, significand = 0x007F;
};
template <>
struct FloatBits<KeyFormat::binary32> {
  static constexpr unsigned long long exponent = 0x7F800000, significand = 0x007FFFFF;
};
template <>
struct FloatBits<KeyFormat::binary64> {
  static constexpr unsigned long long exponent = 0x7FF0000000000000ull, significand = 0x000FFFFFFFFFFFFFull;
};

// The key of an element of format F whose bits are `bits` (U: the unsigned type of its width).
template <KeyFormat F, class U>
XP_HOST_DEVICE inline U sort_key(U bits) {
  constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  if constexpr (F == KeyFormat::unsigned_int) {
    return bits;
  } else if constexpr (F == KeyFormat::signed_int) {
    return static_cast<U>(bits ^ sign);
  } else {
    constexpr U exponent = static_cast<U>(FloatBits<F>::exponent);
    constexpr U significand = static_cast<U>(FloatBits<F>::significand);
    if ((bits & exponent) == exponent && (bits & significand) != 0) return static_cast<U>(~U(0));  // NaN
    if ((bits & static_cast<U>(~sign)) == 0) return sign;  // both zeros: the key of +0.0
    return (bits & sign) ? static_cast<U>(~bits) : static_cast<U>(bits | sign);
  }
}

// The element whose key is `key`, for the formats whose keys are one-to-one (the integers).
template <KeyFormat F, class U>
XP_HOST_DEVICE inline U element_of_key(U key) {
  static_assert(F == KeyFormat::unsigned_int || F == KeyFormat::signed_int, "float keys are not invertible");
  constexpr U sign = static_cast<U>(U(1) << (sizeof(U) * 8 - 1));
  if constexpr (F == KeyFormat::unsigned_int) return key;
  else return static_cast<U>(key ^ sign);
}

template <KeyFormat F>
inline constexpr bool invertible_keys = F == KeyFormat::unsigned_int || F == KeyFormat::signed_int;

// Calls f.template operator()<F, U>() with the key format F of `type` and its key type U: bool and
// unsigned integers are unsigned_int; complex types give the format of their parts.
template <class F>
decltype(auto) with_key_format(xp::dtype type, F&& f) {
  switch (type) {
    case xp::dtype::bool_:
    case xp::dtype::uint8: return f.template operator()<KeyFormat::unsigned_int, std::uint8_t>();
    case xp::dtype::uint16: return f.template operator()<KeyFormat::unsigned_int, std::uint16_t>();
    case xp::dtype::uint32: return f.template operator()<KeyFormat::unsigned_int, std::uint32_t>();
    case xp::dtype::uint64: return f.template operator()<KeyFormat::unsigned_int, std::uint64_t>();
    case xp::dtype::int8: return f.template operator()<KeyFormat::signed_int, std::uint8_t>();
    case xp::dtype::int16: return f.template operator()<KeyFormat::signed_int, std::uint16_t>();
    case xp::dtype::int32: return f.template operator()<KeyFormat::signed_int, std::uint32_t>();
    case xp::dtype::int64: return f.template operator()<KeyFormat::signed_int, std::uint64_t>();
    case xp::dtype::float16: return f.template operator()<KeyFormat::binary16, std::uint16_t>();
    case xp::dtype::bfloat16: return f.template operator()<KeyFormat::bfloat16, std::uint16_t>();
    case xp::dtype::float32:
    case xp::dtype::complex64: return f.template operator()<KeyFormat::binary32, std::uint32_t>();
    case xp::dtype::float64:
    case xp::dtype::complex128: break;
  }
  return f.template operator()<KeyFormat::binary64, std::uint64_t>();
}

}  // namespace xp::kernels
