#pragma once
/// \file
/// Element types. xp::dtype names them at run time (printed as NumPy does: "float32"); `dtype_of<T>`
/// maps a C++ element type to its dtype, and visit_dtype turns a run-time dtype back into a type.
#include <complex>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string_view>
#include <type_traits>
#include <utility>

#include "xp/export.hpp"
#include "xp/kernels/element_types.hpp"

namespace xp {

// GCC's -Wshadow takes the scoped enumerators float16 and bfloat16 (always written dtype::float16) for
// the types xp::float16 and xp::bfloat16.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
/// The element types, NumPy's names (bool_ for bool; bfloat16 as ml_dtypes names it; complex64 holds
/// std::complex<float>, complex128 std::complex<double>).
enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float32,
  float64,
  float16,
  bfloat16,
  complex64,
  complex128
};
#pragma GCC diagnostic pop

inline constexpr int kNumDtypes = 15;  ///< how many dtypes there are

/// The C++ types an array may hold.
template <class T>
concept element_type =
    std::is_same_v<T, bool> || std::is_same_v<T, std::int8_t> || std::is_same_v<T, std::int16_t> ||
    std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::uint8_t> ||
    std::is_same_v<T, std::uint16_t> || std::is_same_v<T, std::uint32_t> || std::is_same_v<T, std::uint64_t> ||
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, float16> ||
    std::is_same_v<T, bfloat16> || std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;

/// The dtype of C++ element type T.
template <element_type T>
inline constexpr dtype dtype_of = [] {
  if constexpr (std::is_same_v<T, bool>) return dtype::bool_;
  else if constexpr (std::is_same_v<T, std::int8_t>) return dtype::int8;
  else if constexpr (std::is_same_v<T, std::int16_t>) return dtype::int16;
  else if constexpr (std::is_same_v<T, std::int32_t>) return dtype::int32;
  else if constexpr (std::is_same_v<T, std::int64_t>) return dtype::int64;
  else if constexpr (std::is_same_v<T, std::uint8_t>) return dtype::uint8;
  else if constexpr (std::is_same_v<T, std::uint16_t>) return dtype::uint16;
  else if constexpr (std::is_same_v<T, std::uint32_t>) return dtype::uint32;
  else if constexpr (std::is_same_v<T, std::uint64_t>) return dtype::uint64;
  else if constexpr (std::is_same_v<T, float>) return dtype::float32;
  else if constexpr (std::is_same_v<T, float16>) return dtype::float16;
  else if constexpr (std::is_same_v<T, bfloat16>) return dtype::bfloat16;
  else if constexpr (std::is_same_v<T, std::complex<float>>) return dtype::complex64;
  else if constexpr (std::is_same_v<T, std::complex<double>>) return dtype::complex128;
  else return dtype::float64;
}();

XP_API std::size_t itemsize(dtype t) noexcept;  ///< bytes per element
XP_API std::string_view dtype_name(dtype t) noexcept;  ///< "bool", "int8", ..., "float64"
XP_API std::ostream& operator<<(std::ostream& out, dtype t);  ///< writes dtype_name(t)
XP_API bool is_floating(dtype t) noexcept;  ///< float16, bfloat16, float32 or float64
/// complex64 or complex128.
constexpr bool is_complex(dtype t) noexcept { return t == dtype::complex64 || t == dtype::complex128; }
/// float16 or bfloat16: stored in 2 bytes, computed in float32 and rounded once per operation.
constexpr bool is_two_byte_float(dtype t) noexcept { return t == dtype::float16 || t == dtype::bfloat16; }

/// \cond DETAIL
namespace detail {
template <class... Types>
struct type_list {};

// The element types the device kernels compute in: all but the 2-byte floats, which compute in float32.
using compute_element_types =
    type_list<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t, std::uint16_t, std::uint32_t,
              std::uint64_t, float, double, std::complex<float>, std::complex<double>>;

// Calls f(std::type_identity<T>{}) for the T among Types whose dtype is t (the last when none is).
template <class T, class... Rest, class F>
decltype(auto) visit_among(dtype t, F&& f) {
  if constexpr (sizeof...(Rest) > 0)
    if (t != dtype_of<T>) return visit_among<Rest...>(t, std::forward<F>(f));
  return f(std::type_identity<T>{});
}

template <class... Types, class F>
decltype(auto) visit_list(type_list<Types...>, dtype t, F&& f) {
  return visit_among<Types...>(t, std::forward<F>(f));
}
}  // namespace detail
/// \endcond

/// Calls f(`std::type_identity<T>`{}) with the C++ type of t.
template <class F>
decltype(auto) visit_dtype(dtype t, F&& f) {
  if (t == dtype::float16) return f(std::type_identity<float16>{});
  if (t == dtype::bfloat16) return f(std::type_identity<bfloat16>{});
  return detail::visit_list(detail::compute_element_types{}, t, std::forward<F>(f));
}

}  // namespace xp
