#pragma once
/// \file
/// NumPy's numerical ranges and grids beyond arange and linspace:
/// \code{.cpp}
///   xp::logspace<double>(0, 3, 4)          // 1, 10, 100, 1000: base^linspace(start, stop)
///   xp::geomspace<float>(1, 1000, 4)       // 1, 10, 100, 1000: from the values themselves
///   auto grids = xp::meshgrid({x, y});      // "xy" (Cartesian) or xp::meshgrid({x, y}, "ij") (matrix)
///   xp::indices({2, 3})                     // (2, 2, 3): each axis's positions
/// \endcode
/// logspace and geomspace compute in double on the host as NumPy's formulas do (geomspace's first and
/// last values are start and stop exactly) and convert once to T. meshgrid's arrays are copies, as
/// NumPy's default (copy=True), made of reshape, broadcast_to and copy, so autograd records them.
#include <cstdint>
#include <initializer_list>
#include <string_view>
#include <vector>

#include "xp/creation.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// base to the num values of linspace(start, stop, num, endpoint), as `type` (as T: logspace<T>(...)).
///@{
XP_API ndarray<> logspace(double start, double stop, std::int64_t num, bool endpoint, double base, xp::dtype type,
                          Device device);
template <element_type T = float>
ndarray<T> logspace(double start, double stop, std::int64_t num = 50, bool endpoint = true, double base = 10.0,
                    Device device = current_device()) {
  return logspace(start, stop, num, endpoint, base, dtype_of<T>, device).template as<T>();
}
///@}
/// num values from start to stop, each a constant factor from the last; start and stop not 0 (ValueError),
/// both negative allowed (the sequence is then negative).
///@{
XP_API ndarray<> geomspace(double start, double stop, std::int64_t num, bool endpoint, xp::dtype type, Device device);
template <element_type T = float>
ndarray<T> geomspace(double start, double stop, std::int64_t num = 50, bool endpoint = true,
                     Device device = current_device()) {
  return geomspace(start, stop, num, endpoint, dtype_of<T>, device).template as<T>();
}
///@}
/// Coordinate arrays of the 1-D (flattened) arrays xi: each of the shape (len(x1), len(x0), len(x2)...)
/// for "xy" indexing, (len(x0), len(x1), ...) for "ij".
///@{
XP_API std::vector<ndarray<>> meshgrid(const std::vector<ndarray<>>& xi, std::string_view indexing = "xy");
template <class T>
std::vector<ndarray<T>> meshgrid(const std::vector<ndarray<T>>& xi, std::string_view indexing = "xy") {
  std::vector<ndarray<T>> typed;
  for (const ndarray<>& mesh : meshgrid(std::vector<ndarray<>>(xi.begin(), xi.end()), indexing))
    typed.push_back(mesh.as<T>());
  return typed;
}
template <class T>
std::vector<ndarray<T>> meshgrid(std::initializer_list<ndarray<T>> xi, std::string_view indexing = "xy") {
  return meshgrid(std::vector<ndarray<T>>(xi), indexing);
}
///@}
/// An array of shape (ndim, *dimensions) whose [k] holds each element's position along axis k.
XP_API ndarray<> indices(const Shape& dimensions, xp::dtype type = dtype::int64, Device device = current_device());

}  // namespace xp
