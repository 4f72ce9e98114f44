#pragma once
/// \file
/// MXNet's gluon.utils for arrays across devices (namespace xp::utils, in libxparray):
/// \code{.cpp}
///   auto parts = xp::utils::split_and_load(batch, {xp::gpu(0), xp::gpu(1)});  // one slice per device
///   float norm = xp::utils::clip_global_norm(gradients, 1.0f);                // rescales in place
/// \endcode
#include <initializer_list>
#include <span>
#include <type_traits>
#include <vector>

#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp::utils {

/// \cond DETAIL
namespace detail {
XP_API std::vector<xp::detail::ArrayCore> split_data(const xp::detail::ArrayCore& data, int num_slice, int batch_axis,
                                                     bool even_split);
XP_API std::vector<xp::detail::ArrayCore> split_and_load(const xp::detail::ArrayCore& data,
                                                         std::span<const Device> devices, int batch_axis,
                                                         bool even_split);
/// The global 2-norm of the arrays; scales them in place (each on its device) when it exceeds max_norm.
XP_API double clip_global_norm(std::span<const xp::detail::ArrayCore> arrays, double max_norm, bool check_isfinite);
}  // namespace detail
/// \endcond

/// num_slice slices along batch_axis (negative counts from the end), views of data, as MXNet 1.9:
/// even_split: every slice the same size, else ValueError with MXNet's text; otherwise the first
/// size % num_slice slices take one more row (10 into 4: 3, 3, 2, 2), and an axis shorter than num_slice
/// leaves the trailing slices empty (5 into 7: five of 1, two of 0). Always num_slice slices.
template <class T>
std::vector<ndarray<T>> split_data(const ndarray<T>& data, int num_slice, int batch_axis = 0, bool even_split = true) {
  std::vector<ndarray<T>> slices;
  for (auto& s : detail::split_data(data, num_slice, batch_axis, even_split)) slices.emplace_back(s);
  return slices;
}

/// split_data into devices.size() slices, slice k copied straight to devices[k] (one already there is
/// not copied: as_in_context): one slice per device, empty ones included.
template <class T>
std::vector<ndarray<T>> split_and_load(const ndarray<T>& data, std::span<const Device> devices, int batch_axis = 0,
                                       bool even_split = true) {
  std::vector<ndarray<T>> slices;
  for (auto& s : detail::split_and_load(data, devices, batch_axis, even_split)) slices.emplace_back(s);
  return slices;
}
/// The same with braces: split_and_load(x, {cpu(0), cpu(1)}).
template <class T>
std::vector<ndarray<T>> split_and_load(const ndarray<T>& data, std::initializer_list<Device> devices,
                                       int batch_axis = 0, bool even_split = true) {
  return split_and_load(data, std::span<const Device>(devices.begin(), devices.size()), batch_axis, even_split);
}

/// Rescales the arrays (in place, each on its own device) so that their global 2-norm
/// sqrt(sum of squared 2-norms) is at most max_norm: scale = min(max_norm / (norm + 1e-8), 1). Returns
/// the norm. With check_isfinite, a NaN or infinite norm leaves the arrays untouched and is reported
/// through the warning handler (and the returned value).
template <class T>
T clip_global_norm(std::vector<ndarray<T>>& arrays, T max_norm, bool check_isfinite = true) {
  static_assert(std::is_floating_point_v<T>, "clip_global_norm: arrays of float or double");
  const std::vector<xp::detail::ArrayCore> cores(arrays.begin(), arrays.end());
  return static_cast<T>(detail::clip_global_norm(cores, max_norm, check_isfinite));
}

}  // namespace xp::utils
