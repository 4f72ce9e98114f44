// searchsorted and digitize (a binary search per query on the device), partition's checks, and
// lexsort (stable sorts by each key in turn, the last key last).
#include <array>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/axis_ops.hpp"
#include "core/layout.hpp"
#include "core/stream_capture.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

ArrayCore as_type(const ArrayCore& a, xp::dtype type) { return a.dtype() == type ? a : astype(a, type); }

// The 1-d `sorted` ordered by `sorter`: NumPy's checks, then a gather (the range check reads the
// sorter's extremes back).
ArrayCore sorted_by(const ArrayCore& sorted, const ArrayCore& sorter) {
  XP_CHECK(sorter.ndim() == 1 && sorter.size() == sorted.size(), ValueError,
           "searchsorted: sorter.size must equal a.size (", sorter.size(), " and ", sorted.size(), ")");
  XP_CHECK(!is_inexact_dtype(sorter.dtype()) && sorter.dtype() != xp::dtype::bool_, TypeError,
           "searchsorted: sorter must be of an integer dtype, not ", sorter.dtype());
  const ArrayCore positions = as_type(sorter, xp::dtype::int64);
  if (positions.size() > 0) {
    check_no_wait_in_capture(sorter.device(), "searchsorted with a sorter");
    std::int64_t low = 0, high = 0;
    item_as(reduce(Reduction::min, positions, std::nullopt, false, 0), xp::dtype::int64, &low);
    item_as(reduce(Reduction::max, positions, std::nullopt, false, 0), xp::dtype::int64, &high);
    XP_CHECK(low >= 0 && high < static_cast<std::int64_t>(sorted.size()), ValueError,
             "searchsorted: sorter index out of range: ", low < 0 ? low : high, " for ", sorted.size(), " elements");
  }
  return take_positions(sorted, positions, 0);
}

}  // namespace

ArrayCore searchsorted(const ArrayCore& sorted, const ArrayCore& v, std::string_view side, const ArrayCore* sorter) {
  const profile_range profiled("searchsorted");
  XP_CHECK(side == "left" || side == "right", ValueError, "searchsorted: side must be \"left\" or \"right\", not \"",
           side, "\"");
  XP_CHECK(sorted.ndim() == 1, ValueError, "searchsorted: the sorted array must be 1-d, not ", sorted.ndim(), "-d");
  const ArrayCore* const arrays[] = {&sorted, &v, sorter ? sorter : &v};
  const Exec exec = exec_on(common_device("searchsorted", arrays));
  const xp::dtype type = promote_types(sorted.dtype(), v.dtype());
  const ArrayCore keys = contiguous(as_type(sorter ? sorted_by(sorted, *sorter) : sorted, type), exec);
  const ArrayCore queries = contiguous(as_type(v, type), exec);
  const ArrayCore out = new_array(v.shape(), xp::dtype::int64, exec);
  order_access(exec, {&keys, &queries, &out});
  const SearchCall call{type,
                        keys.raw_data(),
                        static_cast<std::int64_t>(keys.size()),
                        queries.raw_data(),
                        static_cast<std::int64_t>(queries.size()),
                        side == "right",
                        static_cast<std::int64_t*>(out.raw_data())};
  kernels_for(exec.device).search(call, exec);
  return out;
}

ArrayCore digitize(const ArrayCore& x, const ArrayCore& bins, bool right) {
  XP_CHECK(!is_complex(x.dtype()), TypeError, "digitize: x may not be complex");
  XP_CHECK(bins.ndim() == 1, ValueError, "digitize: bins must be 1-d, not ", bins.ndim(), "-d");
  std::vector<double> edges(bins.size());
  if (!edges.empty()) copy_to_host(as_type(bins, xp::dtype::float64), edges.data(), "digitize");
  bool increasing = true, decreasing = true;
  for (std::size_t i = 1; i < edges.size(); ++i) {
    increasing = increasing && edges[i - 1] <= edges[i];
    decreasing = decreasing && edges[i - 1] >= edges[i];
  }
  XP_CHECK(increasing || decreasing, ValueError, "digitize: bins must be monotonically increasing or decreasing");
  const std::string_view side = right ? "left" : "right";
  if (increasing) return searchsorted(bins, x, side, nullptr);
  const Index reversed[] = {slice(std::nullopt, std::nullopt, -1)};
  const ArrayCore positions = searchsorted(index(bins, reversed), x, side, nullptr);
  const std::array<Operand, 2> operands{Operand{nullptr, scalar_value(static_cast<std::int64_t>(bins.size()))},
                                        Operand{&positions, {}}};
  return elementwise(ElementwiseOp::subtract, operands);
}

void check_kth(std::string_view op, const ArrayCore& a, std::span<const std::int64_t> kth, int axis) {
  XP_CHECK(a.ndim() > 0, ValueError, op, ": axis ", axis, " is out of bounds for array of dimension 0");
  const std::int64_t extent = a.shape()[normalize_axis(axis, a.ndim(), op)];
  for (const std::int64_t k : kth)
    XP_CHECK(k >= -extent && k < extent, ValueError, op, ": kth(=", k, ") out of bounds (", extent, ")");
}

ArrayCore lexsort(std::span<const ArrayCore* const> keys, int axis) {
  const profile_range profiled("lexsort");
  XP_CHECK(!keys.empty(), TypeError, "lexsort: need sequence of keys with len > 0");
  const ArrayCore& first = *keys[0];
  for (const ArrayCore* key : keys)
    XP_CHECK(key->shape() == first.shape(), ValueError, "lexsort: all keys need to be the same shape: ", first.shape(),
             " and ", key->shape());
  common_device("lexsort", keys);
  // Stable sorts, least significant key (the first) first: each by its key in the current order.
  ArrayCore order = sort_along(SortKind::argsort, first, axis);
  for (std::size_t k = 1; k < keys.size(); ++k)
    order = take_positions(order, sort_along(SortKind::argsort, take_positions(*keys[k], order, axis), axis), axis);
  return order;
}

}  // namespace xp::detail
