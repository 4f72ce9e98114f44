#pragma once
/// \file
/// Random arrays (MXNet's nd.random, CuPy's cupy.random) from a counter-based generator
/// (Philox4x32-10): the numbers depend only on the seed and on how many numbers were drawn before,
/// never on the device or the number of threads. Uniform numbers are the same bits everywhere;
/// normal ones go through log, sqrt and cos, whose last bits may differ between CPU and GPU math
/// libraries. Until seed() is called the seed is 0.
#include <concepts>
#include <cstdint>

#include "xp/detail/random_call.hpp"
#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::random {

/// Restarts the sequence from `value` (thread-safe; draws are numbered in the order they happen).
XP_API void seed(std::uint64_t value);

/// \cond DETAIL
namespace detail {
XP_API xp::detail::ArrayCore draw(xp::detail::RandomCall::Distribution distribution, double a, double b,
                                  const Shape& shape, xp::dtype type, Device device);
}  // namespace detail
/// \endcond

/// Uniform in [low, high).
template <std::floating_point T = float>
ndarray<T> uniform(T low = 0, T high = 1, const Shape& shape = {}, Device device = current_device()) {
  return ndarray<T>(detail::draw(xp::detail::RandomCall::uniform, low, high, shape, dtype_of<T>, device));
}

/// Normal with the given mean and standard deviation.
template <std::floating_point T = float>
ndarray<T> normal(T mean = 0, T std_dev = 1, const Shape& shape = {}, Device device = current_device()) {
  return ndarray<T>(detail::draw(xp::detail::RandomCall::normal, mean, std_dev, shape, dtype_of<T>, device));
}

/// Uniform in [low, high) as float16 or bfloat16 (`uniform<xp::float16>(0, 1, {n})`): drawn in float32,
/// the same numbers as `uniform<float>`, each rounded once.
template <class T>
  requires(is_two_byte_float(dtype_of<T>))
ndarray<T> uniform(double low = 0, double high = 1, const Shape& shape = {}, Device device = current_device()) {
  return ndarray<T>(detail::draw(xp::detail::RandomCall::uniform, low, high, shape, dtype_of<T>, device));
}

/// Normal as float16 or bfloat16, drawn as `uniform`'s 2-byte form is.
template <class T>
  requires(is_two_byte_float(dtype_of<T>))
ndarray<T> normal(double mean = 0, double std_dev = 1, const Shape& shape = {}, Device device = current_device()) {
  return ndarray<T>(detail::draw(xp::detail::RandomCall::normal, mean, std_dev, shape, dtype_of<T>, device));
}

}  // namespace xp::random
