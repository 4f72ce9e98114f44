// logspace and geomspace by NumPy's formulas in double on the host; meshgrid and indices from reshape,
// broadcast_to and copies.
#include "xp/ranges.hpp"

#include <cmath>

#include "xp/manipulation.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

namespace {

// NumPy's linspace values: start + k * step, the last one stop itself when endpoint.
std::vector<double> linspace_values(double start, double stop, std::int64_t num, bool endpoint) {
  XP_CHECK(num >= 0, ValueError, "the number of samples must be non-negative, not ", num);
  const std::int64_t divisions = endpoint ? num - 1 : num;
  const double step = divisions > 0 ? (stop - start) / static_cast<double>(divisions) : 0.0;
  std::vector<double> values(static_cast<std::size_t>(num));
  for (std::int64_t k = 0; k < num; ++k) values[static_cast<std::size_t>(k)] = static_cast<double>(k) * step + start;
  if (endpoint && num > 1) values.back() = stop;
  return values;
}

ndarray<> from_values(const std::vector<double>& values, xp::dtype type, Device device) {
  return ndarray<>(array<double>(values, Shape{static_cast<std::int64_t>(values.size())}, device)).astype(type);
}

}  // namespace

ndarray<> logspace(double start, double stop, std::int64_t num, bool endpoint, double base, xp::dtype type,
                   Device device) {
  std::vector<double> values = linspace_values(start, stop, num, endpoint);
  for (double& v : values) v = std::pow(base, v);
  return from_values(values, type, device);
}

ndarray<> geomspace(double start, double stop, std::int64_t num, bool endpoint, xp::dtype type, Device device) {
  XP_CHECK(start != 0 && stop != 0, ValueError, "geomspace: a geometric sequence cannot include 0 (start ", start,
           ", stop ", stop, ")");
  const double sign = start < 0 && stop < 0 ? -1.0 : 1.0;  // mixed signs: NaN between, as NumPy's real result
  std::vector<double> values = linspace_values(std::log10(sign * start), std::log10(sign * stop), num, endpoint);
  for (double& v : values) v = sign * std::pow(10.0, v);
  if (num > 0) values.front() = start;
  if (num > 1 && endpoint) values.back() = stop;
  return from_values(values, type, device);
}

std::vector<ndarray<>> meshgrid(const std::vector<ndarray<>>& xi, std::string_view indexing) {
  XP_CHECK(indexing == "xy" || indexing == "ij", ValueError, "meshgrid: indexing must be \"xy\" or \"ij\", not \"",
           indexing, "\"");
  const int ndim = static_cast<int>(xi.size());
  Shape common;
  for (const ndarray<>& x : xi) common.push_back(static_cast<std::int64_t>(x.size()));
  if (indexing == "xy" && ndim > 1) std::swap(common[0], common[1]);
  std::vector<ndarray<>> grids;
  for (int k = 0; k < ndim; ++k) {
    const int axis = indexing == "xy" && ndim > 1 && k < 2 ? 1 - k : k;
    Shape along;
    for (int j = 0; j < ndim; ++j) along.push_back(j == axis ? -1 : 1);
    const ndarray<> view = ravel(xi[static_cast<std::size_t>(k)]).reshape(along).broadcast_to(common);
    grids.push_back(view.copyto(view.device()));
  }
  return grids;
}

ndarray<> indices(const Shape& dimensions, xp::dtype type, Device device) {
  std::vector<ndarray<>> axes;
  for (std::int64_t extent : dimensions)
    axes.push_back(arange<std::int64_t>(0, static_cast<double>(extent), 1, device));
  if (axes.empty()) return xp::empty(Shape{0}, type, device);
  return stack(meshgrid(axes, "ij"), 0).astype(type);
}

}  // namespace xp
