// fftfreq, rfftfreq (NumPy's values, float64, on the device asked for), fftshift and ifftshift (rolls by
// half of each axis).
#include <vector>

#include "xp/fft.hpp"
#include "xp/foreign_memory.hpp"
#include "xp/manipulation.hpp"

namespace xp::fft {

namespace {

void check_points(std::string_view op, std::int64_t n, double d) {
  XP_CHECK(n >= 1, ValueError, op, ": n must be at least 1, not ", n);
  XP_CHECK(d != 0, ValueError, op, ": the sample spacing d must not be 0");
}

// The shift of each of `axes` by half its extent, rounded down (forward) or up (inverse), as NumPy's.
ndarray<> shifted(const ndarray<>& x, const Axes& axes, bool inverse) {
  std::vector<int> chosen;
  if (axes.all()) {
    for (int axis = 0; axis < x.ndim(); ++axis) chosen.push_back(axis);
  } else {
    chosen.assign(axes.list().begin(), axes.list().end());
  }
  std::vector<std::int64_t> shifts;
  for (const int axis : chosen) {
    XP_CHECK(axis >= -x.ndim() && axis < x.ndim(), ValueError, inverse ? "ifftshift" : "fftshift", ": axis ", axis,
             " is out of bounds for array of dimension ", x.ndim());
    const std::int64_t extent = x.shape()[axis < 0 ? axis + x.ndim() : axis];
    shifts.push_back(inverse ? -(extent / 2) : extent / 2);
  }
  if (chosen.empty()) return x;
  return roll(x, shifts, chosen);
}

}  // namespace

ndarray<> fftfreq(std::int64_t n, double d, Device device) {
  check_points("fftfreq", n, d);
  std::vector<double> values(static_cast<std::size_t>(n));
  const std::int64_t positive = (n - 1) / 2 + 1;
  for (std::int64_t i = 0; i < n; ++i)
    values[static_cast<std::size_t>(i)] = static_cast<double>(i < positive ? i : i - n) / (static_cast<double>(n) * d);
  return from_host(values.data(), Shape{n}, device);
}

ndarray<> rfftfreq(std::int64_t n, double d, Device device) {
  check_points("rfftfreq", n, d);
  std::vector<double> values(static_cast<std::size_t>(n / 2 + 1));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<double>(i) / (static_cast<double>(n) * d);
  return from_host(values.data(), Shape{static_cast<std::int64_t>(values.size())}, device);
}

ndarray<> fftshift(const ndarray<>& x, const Axes& axes) { return shifted(x, axes, false); }

ndarray<> ifftshift(const ndarray<>& x, const Axes& axes) { return shifted(x, axes, true); }

}  // namespace xp::fft
