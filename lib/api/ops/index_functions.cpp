// NumPy's gather, scatter and mask functions (xp/indexing.hpp), each a plan of index arrays over
// the one gather and scatter of lib/api/ops/indexing.cpp.
#include <algorithm>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/ops/indexing.hpp"
#include "core/layout.hpp"
#include "core/scalar_cast.hpp"
#include "xp/creation.hpp"
#include "xp/indexing.hpp"
#include "xp/memory_pool.hpp"
#include "xp/promotion.hpp"
#include "xp/shape_functions.hpp"

namespace xp::detail {

namespace {

using kernels::IndexMode;

ArrayCore flat(const ArrayCore& a) { return reshape(a, Shape{-1}); }

// A value operand as an array of `type` on `device` (converted as NumPy's setitem converts).
ArrayCore values_as(const Operand& values, xp::dtype type, Device device) {
  if (!values.array) {
    const ElementBits bits = cast_scalar(values.scalar, type);
    return full(Shape{}, type, bits.bytes, device);
  }
  ArrayCore a = values.array->device() == device ? *values.array : copy_to(*values.array, device);
  return a.dtype() == type ? a : astype(a, type);
}

// values' elements in turn, repeated to `count` of them (np.put's and np.place's rule).
ArrayCore repeated(const ArrayCore& values, std::int64_t count) {
  const ArrayCore all = flat(values);
  if (all.size() == 1 || static_cast<std::int64_t>(all.size()) == count) return all;
  const ArrayCore turns = arange(0, static_cast<double>(count), 1, xp::dtype::int64, values.device());
  const Index positions[] = {turns};
  return gather_index(all, positions, IndexMode::wrap, "put");
}

// f(target) on a contiguous array that is `a` or a copy written back (put writes a's flat order).
template <class F>
void on_flat(const ArrayCore& a, F&& f) {
  if (a.is_contiguous()) {
    f(flat(a));
    return;
  }
  const ArrayCore copy = copy_to(a, a.device());
  f(flat(copy));
  copy_into(copy, a);
}

ArrayCore bool_flags(const ArrayCore& a) {
  if (a.dtype() == xp::dtype::bool_) return a;
  const std::array<Operand, 2> operands{Operand{&a, {}}, Operand{nullptr, scalar_value(false)}};
  return elementwise(ElementwiseOp::not_equal, operands);
}

// Coordinate `axis` of C-order positions over `shape`: a gather from arange(shape[axis]) seen with
// `shape` (stride 1 on the axis, 0 elsewhere) through the positions as one index over every axis.
ArrayCore coordinates(const ArrayCore& positions, const Shape& shape, int axis) {
  const Exec exec = exec_on(positions.device());
  const ArrayCore grid = arange(0, static_cast<double>(shape[axis]), 1, xp::dtype::int64, positions.device());
  const ArrayCore out = new_array(positions.shape(), xp::dtype::int64, exec);
  if (out.size() == 0) return out;
  IndexedCall call;
  call.type = xp::dtype::int64;
  call.view = grid.raw_data();
  call.dense = out.raw_data();
  kernels::IndexArrays& arrays = call.layout.arrays;
  arrays.count = 1;
  arrays.size = positions.shape()[0];
  arrays.positions[0] = static_cast<const std::int64_t*>(positions.raw_data());
  arrays.dims[0] = shape.ndim();
  for (int k = 0; k < shape.ndim(); ++k) {
    arrays.extents[k] = shape[k];
    arrays.strides[k] = k == axis ? 1 : 0;
  }
  call.scratch = &scratch_pool(exec);
  order_access(exec, {&grid, &out, &positions});
  kernels_for(exec.device).gather_indexed(call, exec);
  return out;
}

int resolved_axis(const ArrayCore& a, int axis, std::string_view op) { return normalize_axis(axis, a.ndim(), op); }

}  // namespace

IndexMode index_mode(std::string_view mode) {
  if (mode == "raise") return IndexMode::raise;
  if (mode == "wrap") return IndexMode::wrap;
  XP_CHECK(mode == "clip", ValueError, "clipmode must be one of 'clip', 'raise', or 'wrap' (got '", mode, "')");
  return IndexMode::clip;
}

std::optional<ArrayCore> take_without_rows(const ArrayCore& a, const ArrayCore& indices, int axis) {
  Shape shape;
  std::int64_t rows = 1;
  for (int k = 0; k < axis; ++k) {
    rows *= a.shape()[k];
    shape.push_back(a.shape()[k]);
  }
  if (rows != 0) return std::nullopt;
  for (const std::int64_t extent : indices.shape()) shape.push_back(extent);
  for (int k = axis + 1; k < a.ndim(); ++k) shape.push_back(a.shape()[k]);
  return new_array(shape, a.dtype(), a.device());
}

std::vector<Index> take_index(int axis, const ArrayCore& indices) {
  std::vector<Index> list(static_cast<std::size_t>(axis), Index(slice()));
  list.emplace_back(indices);
  return list;
}

std::vector<Index> along_axis_index(const ArrayCore& a, const ArrayCore& indices, int axis) {
  XP_CHECK(indices.ndim() == a.ndim(), ValueError, "`indices` and `arr` must have the same number of dimensions");
  XP_CHECK(is_integer_dtype(indices.dtype()), IndexError, "`indices` must be an integer array, not ", indices.dtype());
  std::vector<Index> list;
  for (int k = 0; k < a.ndim(); ++k) {
    if (k == axis) {
      list.emplace_back(indices);
      continue;
    }
    Shape along;
    for (int j = 0; j < a.ndim(); ++j) along.push_back(j == k ? a.shape()[k] : 1);
    list.emplace_back(reshape(arange(0, static_cast<double>(a.shape()[k]), 1, xp::dtype::int64, a.device()), along));
  }
  return list;
}

void put(const ArrayCore& a, const ArrayCore& indices, const Operand& values, std::string_view mode) {
  const IndexMode resolved = index_mode(mode);
  const ArrayCore positions = flat(indices);
  XP_CHECK(is_integer_dtype(positions.dtype()), TypeError, "put: indices must be integers, not ", positions.dtype());
  const ArrayCore given = values_as(values, a.dtype(), a.device());
  if (positions.size() == 0 || given.size() == 0) return;
  const ArrayCore turns = repeated(given, static_cast<std::int64_t>(positions.size()));
  on_flat(a, [&](const ArrayCore& target) {
    const Index list[] = {positions};
    scatter_index(ScatterOp::assign, target, list, turns, resolved, "put");
  });
}

void put_along_axis(const ArrayCore& a, const ArrayCore& indices, const Operand& values, std::optional<int> axis) {
  const ArrayCore given = values_as(values, a.dtype(), a.device());
  if (!axis) {
    on_flat(a, [&](const ArrayCore& target) {
      const std::vector<Index> list = along_axis_index(target, flat(indices), 0);
      scatter_index(ScatterOp::assign, target, list, given, IndexMode::raise, "put_along_axis");
    });
    return;
  }
  const std::vector<Index> list = along_axis_index(a, indices, resolved_axis(a, *axis, "put_along_axis"));
  scatter_index(ScatterOp::assign, a, list, given, IndexMode::raise, "put_along_axis");
}

void putmask(const ArrayCore& a, const ArrayCore& mask, const Operand& values) {
  XP_CHECK(mask.size() == a.size(), ValueError, "putmask: mask and data must be the same size");
  const ArrayCore flags = reshape(bool_flags(mask), a.shape());
  const ArrayCore given = values_as(values, a.dtype(), a.device());
  if (given.size() == 0) return;
  if (given.size() == 1) {
    const Index list[] = {flags};
    scatter_index(ScatterOp::assign, a, list, given, IndexMode::raise, "putmask");
    return;
  }
  const ArrayCore positions = true_positions(flags, "putmask");
  const Index turns[] = {positions};
  const ArrayCore chosen = gather_index(flat(given), turns, IndexMode::wrap, "putmask");
  on_flat(a, [&](const ArrayCore& target) {
    const Index list[] = {positions};
    scatter_index(ScatterOp::assign, target, list, chosen, IndexMode::raise, "putmask");
  });
}

void place(const ArrayCore& a, const ArrayCore& mask, const ArrayCore& values) {
  XP_CHECK(mask.size() == a.size(), ValueError, "place: mask and data must be the same size");
  const ArrayCore flags = reshape(bool_flags(mask), a.shape());
  const ArrayCore positions = true_positions(flags, "place");
  const auto count = positions.shape()[0];
  if (count == 0) return;
  XP_CHECK(values.size() > 0, ValueError, "Cannot insert from an empty array!");
  const ArrayCore given = values_as(Operand{&values, {}}, a.dtype(), a.device());
  on_flat(a, [&](const ArrayCore& target) {
    const Index list[] = {positions};
    scatter_index(ScatterOp::assign, target, list, repeated(given, count), IndexMode::raise, "place");
  });
}

ArrayCore compress(const ArrayCore& condition, const ArrayCore& a, std::optional<int> axis) {
  XP_CHECK(condition.ndim() == 1, ValueError, "condition must be a 1-d array, not of shape ", condition.shape());
  const ArrayCore source = axis ? a : flat(a);
  const int along = axis ? resolved_axis(a, *axis, "compress") : 0;
  const ArrayCore positions = true_positions(bool_flags(condition), "compress");
  if (auto empty = take_without_rows(source, positions, along)) return *empty;
  return gather_index(source, take_index(along, positions), IndexMode::raise, "compress");
}

ArrayCore choose(const ArrayCore& a, std::span<const ArrayCore> choices) {
  XP_CHECK(!choices.empty(), ValueError, "choose: at least one choice is needed");
  XP_CHECK(is_integer_dtype(a.dtype()), TypeError, "choose: the index array must be integers, not ", a.dtype());
  std::vector<const Shape*> shapes{&a.shape()};
  xp::dtype type = choices[0].dtype();
  for (const ArrayCore& c : choices) {
    shapes.push_back(&c.shape());
    type = promote_types(type, c.dtype());
  }
  const Shape shape = broadcast_shapes("choose", shapes);
  std::vector<ArrayCore> spread;
  for (const ArrayCore& c : choices) spread.push_back(broadcast_to(c.dtype() == type ? c : astype(c, type), shape));
  std::vector<const ArrayCore*> pointers;
  for (const ArrayCore& c : spread) pointers.push_back(&c);
  const ArrayCore stacked = stack(pointers, 0);
  Shape one = shape;
  Shape leading{1};
  for (int k = 0; k < shape.ndim(); ++k) leading.push_back(shape[k]);
  const ArrayCore picks = reshape(broadcast_to(a, shape), leading);
  try {
    const std::vector<Index> list = along_axis_index(stacked, picks, 0);
    return reshape(gather_index(stacked, list, IndexMode::raise, "choose"), one);
  } catch (const IndexError&) { throw ValueError("invalid entry in choice array"); }
}

ArrayCore select(std::span<const ArrayCore> conditions, std::span<const ArrayCore> choices,
                 const Operand& default_value) {
  XP_CHECK(conditions.size() == choices.size(), ValueError, "list of cases must be same length as list of conditions");
  XP_CHECK(!conditions.empty(), ValueError, "select with an empty condition list is not possible");
  for (std::size_t k = 0; k < conditions.size(); ++k)
    XP_CHECK(conditions[k].dtype() == xp::dtype::bool_, TypeError, "invalid entry ", k,
             " in condlist: should be boolean ndarray");
  ArrayCore result;
  Operand otherwise = default_value;
  for (std::size_t k = conditions.size(); k-- > 0;) {
    const std::array<Operand, 3> operands{Operand{&conditions[k], {}}, Operand{&choices[k], {}}, otherwise};
    result = elementwise(ElementwiseOp::where, operands);
    otherwise = Operand{&result, {}};
  }
  return result;
}

std::vector<ArrayCore> nonzero(const ArrayCore& a) {
  XP_CHECK(a.ndim() > 0, ValueError,
           "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() instead.");
  const ArrayCore positions = true_positions(bool_flags(a), "nonzero");
  if (a.ndim() == 1) return {positions};
  std::vector<ArrayCore> result;
  for (int axis = 0; axis < a.ndim(); ++axis) result.push_back(coordinates(positions, a.shape(), axis));
  return result;
}

void scatter(ScatterKind kind, const ArrayCore& a, std::span<const Index> indices, const Operand& values) {
  const ScatterOp op = kind == ScatterKind::add   ? ScatterOp::add
                       : kind == ScatterKind::max ? ScatterOp::max
                                                  : ScatterOp::min;
  const std::string_view name = kind == ScatterKind::add   ? "scatter_add"
                                : kind == ScatterKind::max ? "scatter_max"
                                                           : "scatter_min";
  scatter_index(op, a, indices, values_as(values, a.dtype(), a.device()), IndexMode::raise, name);
}

}  // namespace xp::detail
