#pragma once
/// \file
/// NumPy's type queries: `xp::finfo<T>` (a floating type's limits), `xp::iinfo<T>` (an integer type's)
/// and `xp::can_cast(from, to, casting)`. Constexpr, so they serve templates as well as run-time dtypes.
///   xp::finfo<xp::float16>.eps      // 0.0009765625 (NumPy's 0.000977)
///   xp::iinfo<std::int8_t>.min      // -128
///   xp::can_cast(xp::dtype::int16, xp::dtype::float16)   // false: 15 value bits, 11 significant
#include <cstdint>
#include <limits>
#include <type_traits>

#include "xp/dtype.hpp"
#include "xp/promotion.hpp"

namespace xp {

/// A floating type's limits, as NumPy's finfo names them (values as double, exact for every field but
/// `resolution`, which is 10^-precision).
struct FloatInfo {
  dtype type;  ///< the type's dtype
  int bits;  ///< its size in bits
  int nmant;  ///< stored significand bits
  int nexp;  ///< exponent bits
  int minexp;  ///< the exponent of the smallest normal number (tiny = 2^minexp)
  int maxexp;  ///< the first exponent that overflows (max < 2^maxexp)
  int machep;  ///< eps = 2^machep
  int negep;  ///< epsneg = 2^negep
  int precision;  ///< decimal digits: floor(nmant * log10(2))
  double eps;  ///< the gap between 1 and the next larger number
  double epsneg;  ///< the gap between 1 and the next smaller number
  double max;  ///< the largest finite number
  double min;  ///< -max
  double tiny;  ///< the smallest positive normal number (NumPy's tiny and smallest_normal)
  double smallest_normal;  ///< tiny
  double smallest_subnormal;  ///< the smallest positive number
  double resolution;  ///< 10^-precision
};

/// \cond DETAIL
namespace detail {
constexpr double power_of_two(int e) {
  double p = 1;
  for (; e > 0; --e) p *= 2;
  for (; e < 0; ++e) p /= 2;
  return p;
}

constexpr FloatInfo float_info(dtype type, int nmant, int nexp) {
  const int maxexp = 1 << (nexp - 1), minexp = 2 - maxexp;
  int precision = 0;  // floor(nmant * log10(2)): log10(2) = 0.30102999566...
  while ((precision + 1) * 100000000LL <= nmant * 30102999LL) ++precision;
  double resolution = 1;
  for (int k = 0; k < precision; ++k) resolution /= 10;
  const double max = (2 - power_of_two(-nmant)) * power_of_two(maxexp - 1);
  return {type,
          1 + nexp + nmant,
          nmant,
          nexp,
          minexp,
          maxexp,
          -nmant,
          -nmant - 1,
          precision,
          power_of_two(-nmant),
          power_of_two(-nmant - 1),
          max,
          -max,
          power_of_two(minexp),
          power_of_two(minexp),
          power_of_two(minexp - nmant),
          resolution};
}
}  // namespace detail
/// \endcond

/// The limits of floating type T (float16, bfloat16, float, double; a complex type's are its parts', as NumPy's).
template <class T>
  requires(std::is_floating_point_v<T> || std::is_same_v<T, float16> || std::is_same_v<T, bfloat16> ||
           std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>)
inline constexpr FloatInfo finfo = detail::float_info(dtype_of<T>,
                                                      std::is_same_v<T, float16>    ? 10
                                                      : std::is_same_v<T, bfloat16> ? 7
                                                      : std::is_same_v<T, float>    ? 23
                                                                                    : 52,
                                                      std::is_same_v<T, float16>  ? 5
                                                      : std::is_same_v<T, double> ? 11
                                                                                  : 8);
/// \cond DETAIL
template <class F>
inline constexpr FloatInfo finfo<std::complex<F>> = finfo<F>;
/// \endcond

/// An integer type's limits, as NumPy's iinfo names them.
template <class T>
struct IntegerInfo {
  dtype type;  ///< the type's dtype
  int bits;  ///< its size in bits
  T min;  ///< the smallest value
  T max;  ///< the largest value
};

/// The limits of integer type T (int8 ... uint64; not bool, as NumPy).
template <class T>
  requires(std::is_integral_v<T> && !std::is_same_v<T, bool> && element_type<T>)
inline constexpr IntegerInfo<T> iinfo{dtype_of<T>, 8 * static_cast<int>(sizeof(T)), std::numeric_limits<T>::min(),
                                      std::numeric_limits<T>::max()};

/// NumPy's casting rules: `no` and `equiv` allow only the same dtype, `safe` only casts that keep every
/// value, `same_kind` also those within a kind or to a later one (bool < unsigned < signed < floating),
/// `unsafe` any (bool < unsigned < signed < floating < complex).
enum class Casting : std::uint8_t { no, equiv, safe, same_kind, unsafe };

/// \cond DETAIL
namespace detail {
constexpr int significand_digits(dtype t) {
  return t == dtype::float16 ? 11 : t == dtype::bfloat16 ? 8 : t == dtype::float32 ? 24 : 53;
}
constexpr int exponent_bits(dtype t) { return t == dtype::float16 ? 5 : t == dtype::float64 ? 11 : 8; }
constexpr int value_bits(dtype t) { return is_unsigned_dtype(t) ? dtype_bits(t) : dtype_bits(t) - 1; }
constexpr int kind_of(dtype t) {  // bool < unsigned < signed < floating < complex
  return t == dtype::bool_ ? 0 : is_unsigned_dtype(t) ? 1 : is_float_dtype(t) ? 3 : is_complex(t) ? 4 : 2;
}

constexpr bool can_cast_safely(dtype from, dtype to) {
  if (from == to || from == dtype::bool_) return true;
  if (to == dtype::bool_) return false;
  // A complex type holds what its parts' real type holds; a complex value only goes into a complex type.
  if (is_complex(from)) return is_complex(to) && can_cast_safely(real_part_type(from), real_part_type(to));
  if (is_complex(to)) return can_cast_safely(from, real_part_type(to));
  if (is_float_dtype(from)) {
    return is_float_dtype(to) && significand_digits(to) >= significand_digits(from) &&
           exponent_bits(to) >= exponent_bits(from);
  }
  // Integers into floats: when the significand holds every value, and always into float64 (NumPy's
  // rule, though int64 has 63 value bits).
  if (is_float_dtype(to)) return to == dtype::float64 || significand_digits(to) >= value_bits(from);
  if (is_unsigned_dtype(to)) return is_unsigned_dtype(from) && dtype_bits(to) >= dtype_bits(from);
  return value_bits(to) >= value_bits(from);
}
}  // namespace detail
/// \endcond

/// Whether a `from` array may be cast to `to` under `casting` (NumPy's np.can_cast on dtypes; bfloat16
/// as ml_dtypes registers it, which does not count bfloat16 -> float16 as same_kind, and counts complex ->
/// bfloat16).
constexpr bool can_cast(dtype from, dtype to, Casting casting = Casting::safe) {
  using namespace detail;
  switch (casting) {
    case Casting::no:
    case Casting::equiv: return from == to;
    case Casting::safe: return can_cast_safely(from, to);
    case Casting::same_kind:
      if (from == dtype::bfloat16 && to == dtype::float16) return false;
      if (is_complex(from) && to == dtype::bfloat16) return true;  // ml_dtypes registers it so
      return can_cast_safely(from, to) || kind_of(from) <= kind_of(to);
    case Casting::unsafe: break;
  }
  return true;
}

}  // namespace xp
