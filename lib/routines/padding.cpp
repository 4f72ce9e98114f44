// NumPy's pad: "constant" by concatenating blocks of the value, the other modes by gathering each
// axis's source positions (take), so that any width works, periodically past the extent, and autograd
// sums the gradients of repeated elements.
#include <algorithm>

#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/indexing.hpp"
#include "xp/manipulation.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

PadWidths::PadWidths(std::initializer_list<std::int64_t> before_after) {
  XP_CHECK(before_after.size() == 2, ValueError, "pad: a pair of widths is {before, after}, not ", before_after.size(),
           " numbers");
  pairs_.push_back({*before_after.begin(), *(before_after.begin() + 1)});
}

std::vector<std::array<std::int64_t, 2>> PadWidths::for_axes(int ndim) const {
  XP_CHECK(pairs_.size() == 1 || static_cast<int>(pairs_.size()) == ndim, ValueError, "pad: ", pairs_.size(),
           " pairs of widths for an array of dimension ", ndim);
  for (const auto& [before, after] : pairs_)
    XP_CHECK(before >= 0 && after >= 0, ValueError, "pad: widths must not be negative, not (", before, ", ", after,
             ")");
  return pairs_.size() == 1 ? std::vector(static_cast<std::size_t>(ndim), pairs_[0]) : pairs_;
}

namespace {

// Where output position `i` of an axis of extent n padded by `before` reads from, by mode.
std::int64_t source_position(std::string_view mode, std::int64_t i, std::int64_t before, std::int64_t n) {
  const std::int64_t at = i - before;
  const auto periodic = [](std::int64_t x, std::int64_t period) { return ((x % period) + period) % period; };
  if (mode == "edge" || (mode == "reflect" && n == 1)) return std::clamp<std::int64_t>(at, 0, n - 1);
  if (mode == "wrap") return periodic(at, n);
  if (mode == "reflect") {
    const std::int64_t j = periodic(at, 2 * (n - 1));
    return j < n ? j : 2 * (n - 1) - j;
  }
  const std::int64_t j = periodic(at, 2 * n);  // symmetric
  return j < n ? j : 2 * n - 1 - j;
}

ndarray<> pad_axis_by_gather(const ndarray<>& a, int axis, std::int64_t before, std::int64_t after,
                             std::string_view mode) {
  const std::int64_t n = a.shape()[axis];
  XP_CHECK(n > 0, ValueError, "pad: cannot extend the empty axis ", axis, " in mode \"", mode,
           "\" (only \"constant\" can)");
  std::vector<std::int64_t> positions(static_cast<std::size_t>(before + n + after));
  for (std::size_t i = 0; i < positions.size(); ++i)
    positions[i] = source_position(mode, static_cast<std::int64_t>(i), before, n);
  const Shape count{static_cast<std::int64_t>(positions.size())};
  return take(a, array<std::int64_t>(positions, count, a.device()), axis);
}

ndarray<> pad_axis_with_value(const ndarray<>& a, int axis, std::int64_t before, std::int64_t after, double value) {
  const auto block = [&](std::int64_t width) {
    Shape shape = a.shape();
    shape[axis] = width;
    return ndarray<>(full<double>(shape, value, a.device())).astype(a.dtype());
  };
  return concatenate(std::vector<ndarray<>>{block(before), a, block(after)}, axis);
}

}  // namespace

ndarray<> pad(const ndarray<>& a, const PadWidths& widths, std::string_view mode, double constant_value) {
  XP_CHECK(mode == "constant" || mode == "edge" || mode == "reflect" || mode == "symmetric" || mode == "wrap",
           ValueError, "pad: mode \"", mode, "\" is not supported (constant, edge, reflect, symmetric, wrap)");
  const std::vector<std::array<std::int64_t, 2>> pairs = widths.for_axes(a.ndim());
  ndarray<> result = a;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    const auto [before, after] = pairs[static_cast<std::size_t>(axis)];
    if (before == 0 && after == 0) continue;
    result = mode == "constant" ? pad_axis_with_value(result, axis, before, after, constant_value)
                                : pad_axis_by_gather(result, axis, before, after, mode);
  }
  return result.shares_buffer_with(a) ? result.copyto(a.device()) : result;
}

}  // namespace xp
