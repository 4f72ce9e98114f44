#pragma once
/// \file
/// Creation routines. The device defaults to the calling thread's current device; the element type to
/// float (MXNet's default), except where it is deduced from a value.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "xp/device.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {
/// \cond DETAIL
namespace detail {
/// Untyped creation (lib/api). `value` points to one element of type `type`.
XP_API ArrayCore empty(const Shape& shape, xp::dtype type, Device device);
XP_API ArrayCore zeros(const Shape& shape, xp::dtype type, Device device);
XP_API ArrayCore full(const Shape& shape, xp::dtype type, const void* value, Device device);
XP_API ArrayCore arange(double start, double stop, double step, xp::dtype type, Device device);
XP_API ArrayCore linspace(double start, double stop, std::int64_t num, bool endpoint, xp::dtype type, Device device);
XP_API ArrayCore eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, xp::dtype type, Device device);
/// A C-order host buffer of numel(shape) elements, copied to `device`.
XP_API ArrayCore from_host(const void* data, const Shape& shape, xp::dtype type, Device device);

/// How deeply a braced list nests: 1 for {1, 2}, 2 for {{1, 2}, {3, 4}}.
template <class L>
inline constexpr int nesting_depth = 0;
template <class L>
inline constexpr int nesting_depth<std::initializer_list<L>> = 1 + nesting_depth<L>;

/// Appends the elements of a nested list to `flat` and records its shape; the first list met at each
/// depth fixes that extent, and a list of another length makes the input ragged (ValueError).
template <class T, class L>
void collect_nested(std::initializer_list<L> list, int depth, Shape& shape, std::vector<T>& flat) {
  const auto length = static_cast<std::int64_t>(list.size());
  if (depth == shape.ndim()) shape.push_back(length);
  XP_CHECK(shape[depth] == length, ValueError, "array: ragged nested lists (a list of length ", length, " where ",
           shape[depth], " was expected at depth ", depth, ")");
  if constexpr (std::is_same_v<L, T>) {
    flat.insert(flat.end(), list.begin(), list.end());
  } else {
    for (const auto& inner : list) collect_nested<T>(inner, depth + 1, shape, flat);
  }
}
}  // namespace detail
/// \endcond

/// Uninitialised memory, as NumPy's empty.
template <element_type T = float>
ndarray<T> empty(const Shape& shape, Device device = current_device()) {
  return ndarray<T>(detail::empty(shape, dtype_of<T>, device));
}
/// Zeros.
template <element_type T = float>
ndarray<T> zeros(const Shape& shape, Device device = current_device()) {
  return ndarray<T>(detail::zeros(shape, dtype_of<T>, device));
}
/// `value` everywhere.
template <element_type T = float>
ndarray<T> full(const Shape& shape, T value, Device device = current_device()) {
  return ndarray<T>(detail::full(shape, dtype_of<T>, &value, device));
}
/// Ones.
template <element_type T = float>
ndarray<T> ones(const Shape& shape, Device device = current_device()) {
  return full<T>(shape, T(1), device);
}
/// Run-time typed forms.
inline ndarray<> empty(const Shape& shape, xp::dtype type, Device device = current_device()) {
  return ndarray<>(detail::empty(shape, type, device));
}
/// Zeros of run-time dtype `type`.
inline ndarray<> zeros(const Shape& shape, xp::dtype type, Device device = current_device()) {
  return ndarray<>(detail::zeros(shape, type, device));
}

/// [start, stop) in steps of step. Integer types compute in int64 and need integral start and step.
template <element_type T = float>
ndarray<T> arange(double start, double stop, double step = 1, Device device = current_device()) {
  return ndarray<T>(detail::arange(start, stop, step, dtype_of<T>, device));
}
/// [0, stop) by 1.
template <element_type T = float>
ndarray<T> arange(double stop, Device device = current_device()) {
  return arange<T>(0, stop, 1, device);
}
/// num values from start to stop (included when endpoint), computed in double as NumPy does.
template <element_type T = float>
ndarray<T> linspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                    Device device = current_device()) {
  return ndarray<T>(detail::linspace(start, stop, num, endpoint, dtype_of<T>, device));
}
/// n x m (m defaults to n) with ones on diagonal k.
template <element_type T = float>
ndarray<T> eye(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
               Device device = current_device()) {
  return ndarray<T>(detail::eye(n, m, k, dtype_of<T>, device));
}

/// From values in C order with the given shape.
template <element_type T>
ndarray<T> array(const std::vector<T>& values, const Shape& shape, Device device = current_device()) {
  XP_CHECK(numel(shape) == static_cast<std::int64_t>(values.size()), ValueError, "array: ", values.size(),
           " values cannot have shape ", shape);
  if constexpr (std::is_same_v<T, bool>) {
    const std::unique_ptr<bool[]> host(new bool[values.size()]);
    std::copy(values.begin(), values.end(), host.get());
    return ndarray<T>(detail::from_host(host.get(), shape, dtype_of<T>, device));
  } else {
    return ndarray<T>(detail::from_host(values.data(), shape, dtype_of<T>, device));
  }
}
/// From values, one dimension.
template <element_type T>
ndarray<T> array(const std::vector<T>& values, Device device = current_device()) {
  return xp::array<T>(values, Shape(values.size()), device);
}
/// \cond DETAIL
namespace detail {
template <element_type T, class L>
ndarray<T> array_from_nested(std::initializer_list<L> values, Device device) {
  Shape shape;
  std::vector<T> flat;
  collect_nested<T>(values, 0, shape, flat);
  while (shape.ndim() < nesting_depth<std::initializer_list<L>>) shape.push_back(0);
  return xp::array<T>(flat, shape, device);
}
}  // namespace detail
/// \endcond

/// From nested lists: `array<float>`({1, 2, 3}), `array<float>`({{1, 2}, {3, 4}}), up to 3 levels.
template <element_type T = float>
ndarray<T> array(std::initializer_list<T> values, Device device = current_device()) {
  return xp::array<T>(std::vector<T>(values), device);
}
/// From a list of lists (a matrix).
template <element_type T = float>
ndarray<T> array(std::initializer_list<std::initializer_list<T>> values, Device device = current_device()) {
  return detail::array_from_nested<T>(values, device);
}
/// From a list of lists of lists.
template <element_type T = float>
ndarray<T> array(std::initializer_list<std::initializer_list<std::initializer_list<T>>> values,
                 Device device = current_device()) {
  return detail::array_from_nested<T>(values, device);
}

/// Same shape, dtype and device as `a`.
template <class T>
ndarray<T> empty_like(const ndarray<T>& a) {
  return ndarray<T>(detail::empty(a.shape(), a.dtype(), a.device()));
}
/// Zeros with the shape, dtype and device of `a`.
template <class T>
ndarray<T> zeros_like(const ndarray<T>& a) {
  return ndarray<T>(detail::zeros(a.shape(), a.dtype(), a.device()));
}
/// `value` with the shape, dtype and device of `a`.
template <element_type T>
ndarray<T> full_like(const ndarray<T>& a, T value) {
  return full<T>(a.shape(), value, a.device());
}
/// Ones with the shape, dtype and device of `a`.
template <element_type T>
ndarray<T> ones_like(const ndarray<T>& a) {
  return full<T>(a.shape(), T(1), a.device());
}

/// NumPy's dtype and shape arguments: on a's device, of dtype `type` and shape `shape` (a's where
/// std::nullopt): zeros_like(a, xp::dtype::float64), ones_like(a, std::nullopt, {2, 3}). full_like
/// converts the value as NumPy's (unsafe casting: 2.7 in an integer type is 2).
template <class T>
ndarray<> empty_like(const ndarray<T>& a, std::optional<xp::dtype> type, std::optional<Shape> shape = std::nullopt) {
  return xp::empty(shape.value_or(a.shape()), type.value_or(a.dtype()), a.device());
}
/// Zeros as `a`, of another dtype or shape.
template <class T>
ndarray<> zeros_like(const ndarray<T>& a, std::optional<xp::dtype> type, std::optional<Shape> shape = std::nullopt) {
  return xp::zeros(shape.value_or(a.shape()), type.value_or(a.dtype()), a.device());
}
/// `value` as `a`, of another dtype or shape.
template <class T, detail::scalar_operand S>
ndarray<> full_like(const ndarray<T>& a, S value, std::optional<xp::dtype> type,
                    std::optional<Shape> shape = std::nullopt) {
  ndarray<> result = empty_like(a, type, std::move(shape));
  const detail::Operand filler = detail::to_operand(value);
  detail::recorded::assign_selection(result, {}, filler);
  return result;
}
/// Ones as `a`, of another dtype or shape.
template <class T>
ndarray<> ones_like(const ndarray<T>& a, std::optional<xp::dtype> type, std::optional<Shape> shape = std::nullopt) {
  return full_like(a, 1, type, std::move(shape));
}

}  // namespace xp
