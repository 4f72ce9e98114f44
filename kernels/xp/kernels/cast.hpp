#pragma once
// The one conversion between element types, used wherever values change type (astype, copies
// between dtypes, generators). NumPy's rules: to bool is `!= 0`, from bool is 0 or 1, float to
// integer truncates toward zero.
#include "xp/host_device.hpp"

namespace xp::kernels {

template <class To, class From>
XP_HOST_DEVICE inline To cast(From value) {
  return static_cast<To>(value);
}

}  // namespace xp::kernels
