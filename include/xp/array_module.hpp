#pragma once
/// \file
/// get_array_module (Chainer's, CuPy's): generic code asks its operands where they live and gets a
/// module bound to that device, whose creation routines make arrays there:
///
/// \code{.cpp}
///   auto m = xp::get_array_module(x, y);    // DeviceMismatchError if x and y are on two devices
///   auto z = m.zeros<float>({3});           // on x's device
///   auto w = m.exp(x) + z;
///   if (m.is_gpu()) ...
/// \endcode
///
/// Its math functions are xp's, after checking that their array operands are on the module's device.
#include <array>
#include <string_view>

#include "xp/creation.hpp"
#include "xp/diagonal.hpp"
#include "xp/export.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"
#include "xp/matrices.hpp"
#include "xp/random.hpp"
#include "xp/reduction_routines.hpp"
#include "xp/reductions.hpp"

namespace xp {

/// A device bound to creation routines and math functions (get_array_module's result); its functions add, subtract,
/// multiply, divide, power, maximum, minimum, where, clip, abs, exp, log, log1p, expm1, sqrt, sin, cos, tanh, sigmoid,
/// conj, real, imag, angle, the rounding, trigonometric, hyperbolic and classifying functions (floor ... signbit),
/// mod and remainder, floor_divide, fmod, divmod, fmax, fmin, logical_xor, gcd, lcm, arctan2, hypot, copysign,
/// nextafter, heaviside, ldexp, frexp, modf, around, the manipulation routines of one array (ravel ... array_split),
/// tril, triu, diagonal, trace, diag, sum, mean, max, min, argmax, the nan-reductions (nansum ... nanstd), average
/// and ptp are xp's after a device check.
class XP_API ArrayModule {
 public:
  /// The module of `device`.
  explicit ArrayModule(Device device) : device_(device) {}

  Device device() const noexcept { return device_; }  ///< the device arrays are made on
  bool is_gpu() const noexcept { return device_.is_gpu(); }  ///< the device is a GPU

  /// An uninitialized array on the module's device.
  template <element_type T = float>
  ndarray<T> empty(const Shape& shape) const {
    return xp::empty<T>(shape, device_);
  }
  /// Zeros on the module's device.
  template <element_type T = float>
  ndarray<T> zeros(const Shape& shape) const {
    return xp::zeros<T>(shape, device_);
  }
  /// Ones on the module's device.
  template <element_type T = float>
  ndarray<T> ones(const Shape& shape) const {
    return xp::ones<T>(shape, device_);
  }
  /// `value` everywhere, on the module's device.
  template <element_type T = float>
  ndarray<T> full(const Shape& shape, T value) const {
    return xp::full<T>(shape, value, device_);
  }
  /// [start, stop) by step, on the module's device.
  template <element_type T = float>
  ndarray<T> arange(double start, double stop, double step = 1) const {
    return xp::arange<T>(start, stop, step, device_);
  }
  /// The values, on the module's device.
  template <element_type T = float>
  ndarray<T> array(std::initializer_list<T> values) const {
    return xp::array<T>(values, device_);
  }
  /// The values in `shape`, on the module's device.
  template <element_type T = float>
  ndarray<T> array(const std::vector<T>& values, const Shape& shape) const {
    return xp::array<T>(values, shape, device_);
  }
  /// Uniform random numbers in [low, high), on the module's device.
  template <class T = float>
  ndarray<T> uniform(T low, T high, const Shape& shape) const {
    return random::uniform<T>(low, high, shape, device_);
  }
  /// Normal random numbers, on the module's device.
  template <class T = float>
  ndarray<T> normal(T mean, T std_dev, const Shape& shape) const {
    return random::normal<T>(mean, std_dev, shape, device_);
  }

/// Stamps out a member that checks its array operands' device, then calls xp's function.
#define XP_MODULE_FUNCTION(name)          \
  template <class... A>                   \
  auto name(const A&... operands) const { \
    check(#name, operands...);            \
    return xp::name(operands...);         \
  }
  XP_MODULE_FUNCTION(add)
  XP_MODULE_FUNCTION(subtract)
  XP_MODULE_FUNCTION(multiply)
  XP_MODULE_FUNCTION(divide)
  XP_MODULE_FUNCTION(power)
  XP_MODULE_FUNCTION(maximum)
  XP_MODULE_FUNCTION(minimum)
  XP_MODULE_FUNCTION(where)
  XP_MODULE_FUNCTION(clip)
  XP_MODULE_FUNCTION(abs)
  XP_MODULE_FUNCTION(exp)
  XP_MODULE_FUNCTION(log)
  XP_MODULE_FUNCTION(log1p)
  XP_MODULE_FUNCTION(expm1)
  XP_MODULE_FUNCTION(sqrt)
  XP_MODULE_FUNCTION(sin)
  XP_MODULE_FUNCTION(cos)
  XP_MODULE_FUNCTION(tanh)
  XP_MODULE_FUNCTION(sigmoid)
  XP_MODULE_FUNCTION(conj)
  XP_MODULE_FUNCTION(real)
  XP_MODULE_FUNCTION(imag)
  XP_MODULE_FUNCTION(angle)
  XP_MODULE_FUNCTION(floor)
  XP_MODULE_FUNCTION(ceil)
  XP_MODULE_FUNCTION(trunc)
  XP_MODULE_FUNCTION(rint)
  XP_MODULE_FUNCTION(square)
  XP_MODULE_FUNCTION(reciprocal)
  XP_MODULE_FUNCTION(sign)
  XP_MODULE_FUNCTION(exp2)
  XP_MODULE_FUNCTION(log2)
  XP_MODULE_FUNCTION(log10)
  XP_MODULE_FUNCTION(cbrt)
  XP_MODULE_FUNCTION(arcsin)
  XP_MODULE_FUNCTION(arccos)
  XP_MODULE_FUNCTION(arctan)
  XP_MODULE_FUNCTION(sinh)
  XP_MODULE_FUNCTION(cosh)
  XP_MODULE_FUNCTION(arcsinh)
  XP_MODULE_FUNCTION(arccosh)
  XP_MODULE_FUNCTION(arctanh)
  XP_MODULE_FUNCTION(deg2rad)
  XP_MODULE_FUNCTION(rad2deg)
  XP_MODULE_FUNCTION(isnan)
  XP_MODULE_FUNCTION(isinf)
  XP_MODULE_FUNCTION(isfinite)
  XP_MODULE_FUNCTION(signbit)
  XP_MODULE_FUNCTION(mod)
  XP_MODULE_FUNCTION(remainder)
  XP_MODULE_FUNCTION(floor_divide)
  XP_MODULE_FUNCTION(fmod)
  XP_MODULE_FUNCTION(divmod)
  XP_MODULE_FUNCTION(fmax)
  XP_MODULE_FUNCTION(fmin)
  XP_MODULE_FUNCTION(logical_xor)
  XP_MODULE_FUNCTION(gcd)
  XP_MODULE_FUNCTION(lcm)
  XP_MODULE_FUNCTION(arctan2)
  XP_MODULE_FUNCTION(hypot)
  XP_MODULE_FUNCTION(copysign)
  XP_MODULE_FUNCTION(nextafter)
  XP_MODULE_FUNCTION(heaviside)
  XP_MODULE_FUNCTION(ldexp)
  XP_MODULE_FUNCTION(frexp)
  XP_MODULE_FUNCTION(modf)
  XP_MODULE_FUNCTION(around)
  XP_MODULE_FUNCTION(ravel)
  XP_MODULE_FUNCTION(flatten)
  XP_MODULE_FUNCTION(ascontiguousarray)
  XP_MODULE_FUNCTION(swapaxes)
  XP_MODULE_FUNCTION(moveaxis)
  XP_MODULE_FUNCTION(flip)
  XP_MODULE_FUNCTION(fliplr)
  XP_MODULE_FUNCTION(flipud)
  XP_MODULE_FUNCTION(roll)
  XP_MODULE_FUNCTION(rot90)
  XP_MODULE_FUNCTION(tile)
  XP_MODULE_FUNCTION(repeat)
  XP_MODULE_FUNCTION(pad)
  XP_MODULE_FUNCTION(array_split)
  XP_MODULE_FUNCTION(tril)
  XP_MODULE_FUNCTION(triu)
  XP_MODULE_FUNCTION(sum)
  XP_MODULE_FUNCTION(mean)
  XP_MODULE_FUNCTION(max)
  XP_MODULE_FUNCTION(min)
  XP_MODULE_FUNCTION(argmax)
  XP_MODULE_FUNCTION(diagonal)
  XP_MODULE_FUNCTION(trace)
  XP_MODULE_FUNCTION(diag)
  XP_MODULE_FUNCTION(nansum)
  XP_MODULE_FUNCTION(nanprod)
  XP_MODULE_FUNCTION(nanmean)
  XP_MODULE_FUNCTION(nanmax)
  XP_MODULE_FUNCTION(nanmin)
  XP_MODULE_FUNCTION(nanargmax)
  XP_MODULE_FUNCTION(nanargmin)
  XP_MODULE_FUNCTION(nanvar)
  XP_MODULE_FUNCTION(nanstd)
  XP_MODULE_FUNCTION(average)
  XP_MODULE_FUNCTION(ptp)
#undef XP_MODULE_FUNCTION

 private:
  template <class... A>
  void check(std::string_view name, const A&... operands) const {
    int position = 0;
    const auto one = [&](const auto& operand) {
      if constexpr (detail::array_face<std::decay_t<decltype(operand)>>)
        XP_CHECK(operand.device() == device_, DeviceMismatchError, name, ": argument ", position, " is on ",
                 operand.device(), " but the module is bound to ", device_);
      ++position;
    };
    (one(operands), ...);
  }

  Device device_;
};

/// The module of the arguments' arrays: their common device (DeviceMismatchError when they are on
/// several), cpu(0) when none is an array.
template <class... A>
ArrayModule get_array_module(const A&... arguments) {
  std::array<const detail::ArrayCore*, sizeof...(A)> arrays{};
  std::array<int, sizeof...(A)> positions{};
  std::size_t n = 0;
  int position = 0;
  [[maybe_unused]] const auto collect = [&](const auto& argument) {
    if constexpr (detail::array_face<std::decay_t<decltype(argument)>>) {
      arrays[n] = &argument;
      positions[n++] = position;
    }
    ++position;
  };
  (collect(arguments), ...);
  if (n == 0) return ArrayModule(cpu(0));
  return ArrayModule(
      detail::common_device("get_array_module", std::span(arrays.data(), n), std::span(positions.data(), n)));
}

}  // namespace xp
