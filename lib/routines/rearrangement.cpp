// NumPy's routines that reorder or repeat elements: flip, fliplr, flipud, rot90 (views), roll, tile and
// repeat (copies), made of slices, transpose, broadcast_to, concatenate and take.
#include <algorithm>
#include <numeric>

#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/indexing.hpp"
#include "xp/manipulation.hpp"
#include "xp/shape_functions.hpp"

namespace xp {

namespace {

// The view of a with one slice along `axis` (':' before it).
ndarray<> slice_along(const ndarray<>& a, int axis, slice s) {
  std::vector<Index> indices(static_cast<std::size_t>(axis), Index(slice()));
  indices.emplace_back(s);
  return a(std::span<const Index>(indices));
}

// `result`, or a copy of it where it still views a's memory: NumPy's tile, repeat and roll always copy.
ndarray<> copied_from(const ndarray<>& a, const ndarray<>& result) {
  return result.shares_buffer_with(a) ? result.copyto(result.device()) : result;
}

// The view of a with an axis of extent `count` after `axis`, every element along it the same.
ndarray<> spread_after(const ndarray<>& a, int axis, std::int64_t count) {
  Shape kept, spread;
  for (int k = 0; k < a.ndim(); ++k) {
    kept.push_back(a.shape()[k]);
    spread.push_back(a.shape()[k]);
    if (k == axis) {
      kept.push_back(1);
      spread.push_back(count);
    }
  }
  return a.reshape(kept).broadcast_to(spread);
}

}  // namespace

ndarray<> flip(const ndarray<>& a, const Axes& axes) {
  std::vector<bool> reversed(static_cast<std::size_t>(a.ndim()), axes.all());
  for (int axis : axes.list()) {
    const auto k = static_cast<std::size_t>(detail::normalize_axis(axis, a.ndim(), "flip"));
    XP_CHECK(!reversed[k], ValueError, "flip: repeated axis ", axis);
    reversed[k] = true;
  }
  std::vector<Index> indices;
  for (bool r : reversed) indices.emplace_back(r ? slice(none, none, -1) : slice());
  return a(std::span<const Index>(indices));
}

ndarray<> fliplr(const ndarray<>& a) {
  XP_CHECK(a.ndim() >= 2, ValueError, "fliplr: the array must be at least 2-D, not ", a.ndim(), "-D");
  return flip(a, 1);
}

ndarray<> flipud(const ndarray<>& a) {
  XP_CHECK(a.ndim() >= 1, ValueError, "flipud: the array must be at least 1-D, not 0-D");
  return flip(a, 0);
}

ndarray<> roll(const ndarray<>& a, const std::vector<std::int64_t>& shifts, const Axes& axes) {
  XP_CHECK(!shifts.empty(), ValueError, "roll: no shift given");
  if (axes.all()) {
    const std::int64_t total = std::accumulate(shifts.begin(), shifts.end(), std::int64_t{0});
    return roll(ravel(a), std::vector<std::int64_t>{total}, 0).reshape(a.shape());
  }
  const std::size_t n = std::max(shifts.size(), axes.list().size());
  XP_CHECK((shifts.size() == 1 || shifts.size() == n) && (axes.list().size() == 1 || axes.list().size() == n),
           ValueError, "roll: ", shifts.size(), " shifts and ", axes.list().size(),
           " axes: give one of each, or as many of one as of the other");
  std::vector<std::int64_t> by_axis(static_cast<std::size_t>(a.ndim()), 0);
  for (std::size_t k = 0; k < n; ++k) {
    const int axis = detail::normalize_axis(axes.list()[axes.list().size() == 1 ? 0 : k], a.ndim(), "roll");
    by_axis[static_cast<std::size_t>(axis)] += shifts[shifts.size() == 1 ? 0 : k];
  }
  ndarray<> result = a;
  for (int axis = 0; axis < a.ndim(); ++axis) {
    const std::int64_t extent = a.shape()[axis];
    const std::int64_t split =
        extent == 0 ? 0 : extent - ((by_axis[static_cast<std::size_t>(axis)] % extent) + extent) % extent;
    if (split == 0 || split == extent) continue;
    result = concatenate({slice_along(result, axis, slice(split, none)), slice_along(result, axis, slice(none, split))},
                         axis);
  }
  return copied_from(a, result);
}

ndarray<> rot90(const ndarray<>& a, int k, std::array<int, 2> axes) {
  XP_CHECK(a.ndim() >= 2, ValueError, "rot90: the array must be at least 2-D, not ", a.ndim(), "-D");
  const int first = detail::normalize_axis(axes[0], a.ndim(), "rot90");
  const int second = detail::normalize_axis(axes[1], a.ndim(), "rot90");
  XP_CHECK(first != second, ValueError, "rot90: the axes must be different, not ", axes[0], " and ", axes[1]);
  std::vector<int> swapped(static_cast<std::size_t>(a.ndim()));
  std::iota(swapped.begin(), swapped.end(), 0);
  std::swap(swapped[static_cast<std::size_t>(first)], swapped[static_cast<std::size_t>(second)]);
  switch (((k % 4) + 4) % 4) {
    case 0: return a(slice());
    case 1: return transpose(flip(a, second), swapped);
    case 2: return flip(a, {first, second});
    default: return flip(transpose(a, swapped), second);
  }
}

ndarray<> tile(const ndarray<>& a, const std::vector<std::int64_t>& reps) {
  for (std::int64_t r : reps) XP_CHECK(r >= 0, ValueError, "tile: negative repetitions (", r, ") are not allowed");
  const int ndim = std::max(a.ndim(), static_cast<int>(reps.size()));
  Shape interleaved, spread, result;
  for (int axis = 0; axis < ndim; ++axis) {
    const int from_a = axis - (ndim - a.ndim()), from_reps = axis - (ndim - static_cast<int>(reps.size()));
    const std::int64_t extent = from_a >= 0 ? a.shape()[from_a] : 1;
    const std::int64_t count = from_reps >= 0 ? reps[static_cast<std::size_t>(from_reps)] : 1;
    interleaved.push_back(1);
    interleaved.push_back(extent);
    spread.push_back(count);
    spread.push_back(extent);
    result.push_back(count * extent);
  }
  return copied_from(a, a.reshape(interleaved).broadcast_to(spread).reshape(result));
}

ndarray<> repeat(const ndarray<>& a, std::int64_t repeats, std::optional<int> axis) {
  XP_CHECK(repeats >= 0, ValueError, "repeat: negative repetitions (", repeats, ") are not allowed");
  if (!axis || a.ndim() == 0) return repeat(ravel(a), repeats, axis.value_or(0));  // 0-d: 1-D, as NumPy's
  const int along = detail::normalize_axis(*axis, a.ndim(), "repeat");
  Shape result = a.shape();
  result[along] *= repeats;
  return copied_from(a, spread_after(a, along, repeats).reshape(result));
}

ndarray<> repeat(const ndarray<>& a, const std::vector<std::int64_t>& repeats, std::optional<int> axis) {
  if (repeats.size() == 1) return repeat(a, repeats[0], axis);
  if (!axis || a.ndim() == 0) return repeat(ravel(a), repeats, axis.value_or(0));
  const int along = detail::normalize_axis(*axis, a.ndim(), "repeat");
  XP_CHECK(static_cast<std::int64_t>(repeats.size()) == a.shape()[along], ValueError, "repeat: ", repeats.size(),
           " counts for an axis of extent ", a.shape()[along]);
  std::vector<std::int64_t> positions;
  for (std::size_t k = 0; k < repeats.size(); ++k) {
    XP_CHECK(repeats[k] >= 0, ValueError, "repeat: negative repetitions (", repeats[k], ") are not allowed");
    positions.insert(positions.end(), static_cast<std::size_t>(repeats[k]), static_cast<std::int64_t>(k));
  }
  const Shape count{static_cast<std::int64_t>(positions.size())};
  return take(a, array<std::int64_t>(positions, count, a.device()), along);
}

}  // namespace xp
