#pragma once
// How a scatter combines the element already there with a value (np.add.at, np.maximum.at,
// np.minimum.at), shared by the CPU loop and the GPU's atomic loops: in the compute type (float for
// the 2-byte floats, rounded once per combination, as NumPy's ufunc.at does).
#include "xp/host_device.hpp"
#include "xp/kernels/arithmetic.hpp"

namespace xp::kernels {

template <class Op>
struct Combine {
  template <class T>
  XP_HOST_DEVICE T operator()(T old, T value) const {
    if constexpr (is_complex_v<T> || sizeof(T) != 2 || std::is_integral_v<T>) return Op{}(old, value);
    else return T(Op{}(static_cast<float>(old), static_cast<float>(value)));
  }
};

}  // namespace xp::kernels
