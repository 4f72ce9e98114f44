// unique: a sort, the positions where a new value starts (selected on the device: the one count read
// back), and gathers by those positions. Along an axis the slices sort lexicographically (lexsort of
// their elements) and compare whole.
#include <array>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/axis_ops.hpp"
#include "core/layout.hpp"
#include "core/stream_capture.hpp"
#include "xp/creation.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

using Op = ElementwiseOp;

ArrayCore apply(Op op, const ArrayCore& a, const ArrayCore& b) {
  const std::array<Operand, 2> operands{Operand{&a, {}}, Operand{&b, {}}};
  return elementwise(op, operands);
}

ArrayCore along(const ArrayCore& a, slice range) {
  const Index indices[] = {range};
  return index(a, indices);
}

// Whether each element (row, for 2-d) of sorted[1:] differs from the one before; NaNs equal when
// equal_nan (x != x marks a NaN).
ArrayCore changes(const ArrayCore& sorted, bool equal_nan) {
  const ArrayCore later = along(sorted, slice(1, std::nullopt)), earlier = along(sorted, slice(std::nullopt, -1));
  ArrayCore differ = apply(Op::not_equal, later, earlier);
  if (equal_nan && is_inexact_dtype(sorted.dtype())) {
    const ArrayCore both_nan =
        apply(Op::logical_and, apply(Op::not_equal, later, later), apply(Op::not_equal, earlier, earlier));
    const std::array<Operand, 1> negated{Operand{&both_nan, {}}};
    differ = apply(Op::logical_and, differ, elementwise(Op::logical_not, negated));
  }
  if (sorted.ndim() == 2) differ = reduce(Reduction::any, differ, Axes{1}, false, 0);
  return differ;
}

// The positions (int64, 1-d) where a new value starts in `sorted` (along axis 0).
ArrayCore run_starts(const ArrayCore& sorted, bool equal_nan, const Exec& exec) {
  check_no_wait_in_capture(exec.device, "unique");  // the count of values sizes the result
  const auto n = sorted.shape()[0];
  ArrayCore flags = new_array(Shape{n}, xp::dtype::bool_, exec);
  if (n > 0) {
    copy_into(full(Shape{1}, xp::dtype::bool_, std::array<bool, 1>{true}.data(), exec.device),
              along(flags, slice(0, 1)));
    copy_into(changes(sorted, equal_nan), along(flags, slice(1, std::nullopt)));
  }
  const ArrayCore positions = new_array(Shape{n}, xp::dtype::int64, exec);
  order_access(exec, {&flags, &positions});
  const SelectCall call{static_cast<const bool*>(flags.raw_data()), n, static_cast<std::int64_t*>(positions.raw_data()),
                        &scratch_pool(exec)};
  const std::int64_t count = kernels_for(exec.device).select(call, exec);
  return along(positions, slice(0, count));
}

// counts: the distance from each start to the next (the last to n).
ArrayCore run_lengths(const ArrayCore& starts, std::int64_t n, Device device) {
  const ArrayCore end = full(Shape{1}, xp::dtype::int64, &n, device);
  const ArrayCore* const parts[] = {&starts, &end};
  const ArrayCore bounds = concatenate(parts, 0);
  return apply(Op::subtract, along(bounds, slice(1, std::nullopt)), along(bounds, slice(std::nullopt, -1)));
}

// inverse: each input position's value number. In sorted order that is the number of starts at or
// before the position, less one; the inverse permutation of `order` puts it back in input order.
ArrayCore value_numbers(const ArrayCore& starts, const ArrayCore& order, Device device) {
  const auto n = static_cast<double>(order.shape()[0]);
  const ArrayCore counted = searchsorted(starts, arange(0, n, 1, xp::dtype::int64, device), "right", nullptr);
  const std::array<Operand, 2> less_one{Operand{&counted, {}}, Operand{nullptr, scalar_value(std::int64_t{1})}};
  const ArrayCore numbers = elementwise(Op::subtract, less_one);
  return take_positions(numbers, sort_along(SortKind::argsort, order, 0), 0);
}

// The slices of `a` along `axis` as rows of a 2-d array, and the positions that sort them
// lexicographically (the first element most significant).
std::pair<ArrayCore, ArrayCore> sorted_rows(const ArrayCore& a, int axis) {
  const int ndim = a.ndim();
  std::vector<int> order{axis};
  for (int i = 0; i < ndim; ++i)
    if (i != axis) order.push_back(i);
  const std::int64_t rows = a.shape()[axis];
  const std::int64_t width = rows == 0 ? 0 : static_cast<std::int64_t>(a.size()) / rows;
  const ArrayCore table = reshape(transpose(a, order), Shape{rows, width});
  std::vector<ArrayCore> columns;
  for (std::int64_t c = width - 1; c >= 0; --c) {
    const Index column[] = {slice(), c};
    columns.push_back(index(table, column));
  }
  const ArrayCore positions = columns.empty() ? arange(0, static_cast<double>(rows), 1, xp::dtype::int64, a.device())
                                              : lexsort(pointers_to(std::span<const ArrayCore>(columns)), 0);
  return {table, positions};
}

UniqueCores unique_slices(const ArrayCore& a, const UniqueOptions& options) {
  XP_CHECK(a.ndim() > 0, ValueError, "unique: axis ", *options.axis, " is out of bounds for array of dimension 0");
  const int axis = normalize_axis(*options.axis, a.ndim(), "unique");
  const Exec exec = exec_on(a.device());
  const auto [table, order] = sorted_rows(a, axis);
  const Shape& rows = table.shape();
  const ArrayCore spread = broadcast_to(reshape(order, Shape{rows[0], 1}), rows);
  const ArrayCore sorted = take_positions(table, spread, 0);
  const ArrayCore starts = run_starts(sorted, /*equal_nan=*/false, exec);
  UniqueCores u;
  const std::int64_t count = starts.shape()[0];
  const ArrayCore picked =
      take_positions(sorted, broadcast_to(reshape(starts, Shape{count, 1}), Shape{count, rows[1]}), 0);
  // Back to the input's layout: the unique slices along `axis`.
  Shape moved{count};
  for (int i = 0; i < a.ndim(); ++i)
    if (i != axis) moved.push_back(a.shape()[i]);
  std::vector<int> inverse_order(static_cast<std::size_t>(a.ndim()));
  for (int i = 0, at = 1; i < a.ndim(); ++i) inverse_order[static_cast<std::size_t>(i)] = i == axis ? 0 : at++;
  u.values = transpose(reshape(picked, moved), inverse_order);
  if (options.return_index) u.index = take_positions(order, starts, 0);
  if (options.return_inverse) u.inverse = value_numbers(starts, order, a.device());
  if (options.return_counts) u.counts = run_lengths(starts, rows[0], a.device());
  return u;
}

}  // namespace

UniqueCores unique(const ArrayCore& a, const UniqueOptions& options) {
  const profile_range profiled("unique");
  if (options.axis) return unique_slices(a, options);
  const Exec exec = exec_on(a.device());
  const ArrayCore flat = reshape(a, Shape{static_cast<std::int64_t>(a.size())});
  const bool positions = options.return_index || options.return_inverse;
  const ArrayCore order = positions ? sort_along(SortKind::argsort, flat, 0) : ArrayCore(xp::dtype::int64);
  const ArrayCore sorted = positions ? take_positions(flat, order, 0) : sort_along(SortKind::sort, flat, 0);
  const ArrayCore starts = run_starts(sorted, /*equal_nan=*/true, exec);
  UniqueCores u;
  u.values = take_positions(sorted, starts, 0);
  if (options.return_index) u.index = take_positions(order, starts, 0);
  if (options.return_inverse) u.inverse = reshape(value_numbers(starts, order, a.device()), a.shape());
  if (options.return_counts) u.counts = run_lengths(starts, static_cast<std::int64_t>(a.size()), a.device());
  return u;
}

}  // namespace xp::detail
