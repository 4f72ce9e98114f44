#pragma once
// The one conversion between element types, used wherever values change type (astype, copies
// between dtypes, generators). NumPy's rules: to bool is `!= 0`, from bool is 0 or 1, float to
// integer truncates toward zero; a complex number to a real type keeps its real part (NumPy warns,
// the library says so in astype), to bool tests both parts; a real number becomes (value, 0).
#include "xp/host_device.hpp"
#include "xp/kernels/complex_math.hpp"

namespace xp::kernels {

template <class To, class From>
XP_HOST_DEVICE inline To cast(From value) {
  if constexpr (is_complex_v<To>) {
    using R = typename complex_traits<To>::real_type;
    if constexpr (is_complex_v<From>) return To(static_cast<R>(value.real()), static_cast<R>(value.imag()));
    else return To(cast<R>(value), R(0));
  } else if constexpr (is_complex_v<From>) {
    if constexpr (std::is_same_v<To, bool>) return value.real() != 0 || value.imag() != 0;
    else return cast<To>(value.real());
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace xp::kernels
