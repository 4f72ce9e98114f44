// Indexing: basic indices make views; index arrays and masks gather into new arrays and scatter into
// views through one planned layout (core/index_plan.hpp, xp/kernels/indexed_access.hpp). A mask
// becomes its true positions first (the count read back: a GPU's one synchronisation).
#include "api/ops/indexing.hpp"

#include <string>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "core/index_plan.hpp"
#include "core/layout.hpp"
#include "core/scalar_cast.hpp"
#include "core/stream_capture.hpp"
#include "xp/creation.hpp"
#include "xp/memory_pool.hpp"
#include "xp/profile.hpp"
#include "xp/promotion.hpp"

namespace xp::detail {

namespace {

using kernels::IndexMode;

// An index with its arrays as int64 positions, C-contiguous, of the plan's index shape.
struct ResolvedIndex {
  IndexPlan plan;
  std::vector<ArrayCore> positions;  // one per plan.indexed
  // When the broadcast shape is empty, each array as given (int64, C-contiguous): NumPy checks the
  // 0-d ones.
  std::vector<ArrayCore> unbroadcast;
};

IndexTerm basic_term(const Index& index) {
  IndexTerm term;
  switch (index.kind()) {
    case Index::Kind::position: term.position = index.position(); break;
    case Index::Kind::slice:
      term.kind = IndexTermKind::slice;
      term.range = index.as_slice();
      break;
    case Index::Kind::new_axis: term.kind = IndexTermKind::newaxis; break;
    case Index::Kind::ellipsis_mark: term.kind = IndexTermKind::ellipsis; break;
    case Index::Kind::array: XP_ASSERT(false);
  }
  return term;
}

// An index array's term, and its positions (a mask's true positions) into *positions.
IndexTerm array_term(const ArrayCore& a, const ArrayCore& index, std::string_view op, ArrayCore* positions) {
  XP_CHECK(index.device() == a.device(), DeviceMismatchError, op, ": the index array is on ", index.device(),
           " but the indexed array is on ", a.device());
  IndexTerm term;
  term.shape = index.shape();
  if (index.dtype() == xp::dtype::bool_) {
    term.kind = IndexTermKind::mask;
    *positions = true_positions(index, op);
    term.count = positions->shape()[0];
    return term;
  }
  XP_CHECK(is_integer_dtype(index.dtype()), IndexError,
           "arrays used as indices must be of integer (or boolean) type, not ", index.dtype());
  term.kind = IndexTermKind::integers;
  *positions = index;
  return term;
}

// Positions as the kernels read them: int64, C-contiguous, of `shape`, not sharing a's buffer.
ArrayCore kernel_positions(const ArrayCore& given, const ArrayCore& a, const Shape& shape, const Exec& exec) {
  ArrayCore p = given.dtype() == xp::dtype::int64 ? given : astype(given, xp::dtype::int64);
  if (!(p.shape() == shape)) p = broadcast_to(p, shape);
  if (p.shares_buffer_with(a)) return copy_to(p, p.device());
  return contiguous(p, exec);
}

ResolvedIndex resolve(const ArrayCore& a, std::span<const Index> indices, std::string_view op, const Exec& exec) {
  std::vector<IndexTerm> terms;
  std::vector<ArrayCore> given(indices.size());
  for (std::size_t k = 0; k < indices.size(); ++k) {
    const Index& index = indices[k];
    terms.push_back(index.kind() == Index::Kind::array ? array_term(a, *index.array(), op, &given[k])
                                                       : basic_term(index));
  }
  ResolvedIndex resolved{plan_index(a.shape(), a.strides(), terms), {}, {}};
  const bool empty = numel(resolved.plan.index_shape) == 0;
  for (const IndexedAxes& axes : resolved.plan.indexed) {
    const ArrayCore& array = given[axes.term];
    resolved.positions.push_back(kernel_positions(array, a, resolved.plan.index_shape, exec));
    if (empty) resolved.unbroadcast.push_back(kernel_positions(array, a, array.shape(), exec));
  }
  return resolved;
}

kernels::StridedIndexer indexer_of(const Shape& shape, const Strides& strides) {
  kernels::StridedIndexer indexer;
  indexer.ndim = shape.ndim();
  for (int axis = 0; axis < shape.ndim(); ++axis) {
    indexer.extents[axis] = shape[axis];
    indexer.strides[axis] = strides[axis];
  }
  return indexer;
}

IndexedCall call_of(const ArrayCore& a, const ResolvedIndex& resolved, IndexMode mode, const Exec& exec) {
  const IndexPlan& plan = resolved.plan;
  IndexedCall call;
  call.type = a.dtype();
  call.view = element_address(a, plan.offset);
  call.layout.outer = indexer_of(plan.outer_shape, plan.outer_strides);
  call.layout.inner = indexer_of(plan.inner_shape, plan.inner_strides);
  call.layout.inner_size = numel(plan.inner_shape);
  kernels::IndexArrays& arrays = call.layout.arrays;
  arrays.count = static_cast<int>(plan.indexed.size());
  arrays.size = numel(plan.index_shape);
  arrays.mode = mode;
  int axis = 0;
  for (int g = 0; g < arrays.count; ++g) {
    const IndexedAxes& axes = plan.indexed[g];
    arrays.positions[g] = static_cast<const std::int64_t*>(resolved.positions[g].raw_data());
    arrays.dims[g] = axes.extents.ndim();
    for (int k = 0; k < axes.extents.ndim(); ++k, ++axis) {
      arrays.extents[axis] = axes.extents[k];
      arrays.strides[axis] = axes.strides[k];
    }
  }
  call.scratch = &scratch_pool(exec);
  return call;
}

void order_all(const Exec& exec, const ArrayCore& a, const ArrayCore& dense, const ResolvedIndex& resolved) {
  order_access(exec, {&a, &dense});
  for (const ArrayCore& p : resolved.positions) order_access(exec, {&p});
}

void throw_fault(const IndexFault& fault, const IndexPlan& plan) {
  if (!fault.found) return;
  const IndexedAxes& axes = plan.indexed[fault.array];
  throw IndexError("index ", fault.position, " is out of bounds for axis ", axes.first_axis, " with size ",
                   axes.extents[0]);
}

// With an empty broadcast shape nothing is read or written, but NumPy still checks the 0-d index
// arrays (integers to it): each one's position, checked alone (the kernels' check-only gather).
void check_each_array(const ArrayCore& a, const ResolvedIndex& resolved, IndexMode mode, const Exec& exec) {
  if (mode != IndexMode::raise) return;
  for (std::size_t g = 0; g < resolved.unbroadcast.size(); ++g) {
    const ArrayCore& positions = resolved.unbroadcast[g];
    const IndexedAxes& axes = resolved.plan.indexed[g];
    if (positions.ndim() != 0 || axes.extents.ndim() != 1) continue;
    IndexedCall call;
    call.type = a.dtype();
    call.layout.arrays.count = 1;
    call.layout.arrays.size = static_cast<std::int64_t>(positions.size());
    call.layout.arrays.positions[0] = static_cast<const std::int64_t*>(positions.raw_data());
    call.layout.arrays.dims[0] = 1;
    call.layout.arrays.extents[0] = axes.extents[0];
    call.scratch = &scratch_pool(exec);
    order_access(exec, {&positions});
    IndexFault fault = kernels_for(exec.device).gather_indexed(call, exec);
    fault.array = static_cast<int>(g);
    throw_fault(fault, resolved.plan);
  }
}

// Mode raise reads the kernels' bounds check back on the host.
std::string raise_mode_name(std::string_view op) { return std::string(op) + " with mode 'raise'"; }

// wrap and clip need an axis to land in, unless nothing is read (NumPy's take of an empty result).
void check_not_empty(const IndexPlan& plan, IndexMode mode, std::string_view op, bool gather) {
  if (mode == IndexMode::raise || numel(plan.index_shape) == 0 || (gather && numel(plan.result_shape()) == 0)) return;
  for (const IndexedAxes& axes : plan.indexed)
    XP_CHECK(numel(axes.extents) > 0, IndexError, op, ": cannot do a non-empty take from an empty axes.");
}

ArrayCore view_of_plan(const ArrayCore& a, const IndexPlan& plan) {
  char* data = element_address(a, plan.offset);
  return ArrayCore(ArrayInternals::buffer(a), data, plan.outer_shape, plan.outer_strides, a.device(), a.dtype());
}

// values viewed with the selection's shape (stride 0 where broadcast).
ArrayCore spread_values(const ArrayCore& values, const Shape& shape) {
  Strides strides;
  try {
    strides = broadcast_strides(values.shape(), values.strides(), shape);
  } catch (const ValueError&) {
    throw ValueError("shape mismatch: value array of shape ", values.shape(),
                     " could not be broadcast to indexing result of shape ", shape);
  }
  return ArrayCore(ArrayInternals::buffer(values), values.raw_data(), shape, strides, values.device(), values.dtype());
}

// values as a scatter reads them: one element, or the selection's shape C-contiguous; never sharing
// a's buffer (the scatter writes it).
ArrayCore dense_values(const ArrayCore& values, const ArrayCore& a, const Shape& shape, const Exec& exec) {
  const ArrayCore spread = spread_values(values, shape);
  const ArrayCore dense = values.size() == 1 ? values : spread;
  if (dense.shares_buffer_with(a)) return copy_to(dense, dense.device());
  return contiguous(dense, exec);
}

// a.at(mask) = scalar with a mask of a's own shape: one elementwise pass, where(mask, value, a).
bool assign_through_mask(const ArrayCore& a, std::span<const Index> indices, const Operand& value) {
  if (value.array || indices.size() != 1 || indices[0].kind() != Index::Kind::array) return false;
  const ArrayCore& mask = *indices[0].array();
  if (mask.dtype() != xp::dtype::bool_ || !(mask.shape() == a.shape()) || mask.device() != a.device()) return false;
  const Operand converted{nullptr, ScalarValue{a.dtype(), cast_scalar(value.scalar, a.dtype())}};
  const std::array<Operand, 3> operands{Operand{&mask, {}}, converted, Operand{&a, {}}};
  elementwise(ElementwiseOp::where, operands, a);
  return true;
}

}  // namespace

void assign_selection(const ArrayCore& a, std::span<const Index> indices, const Operand& value) {
  if (assign_through_mask(a, indices, value)) return;
  ArrayCore values;
  if (value.array) {
    values = value.array->device() == a.device() ? *value.array : copy_to(*value.array, a.device());
    if (values.dtype() != a.dtype()) values = astype(values, a.dtype());
  } else {
    const ElementBits bits = cast_scalar(value.scalar, a.dtype());
    values = full(Shape{}, a.dtype(), bits.bytes, a.device());
  }
  scatter_index(ScatterOp::assign, a, indices, values, IndexMode::raise, "setitem");
}

ArrayCore true_positions(const ArrayCore& mask, std::string_view op) {
  check_no_wait_in_capture(mask.device(), op);  // the count sizes the result
  const Exec exec = exec_on(mask.device());
  const ArrayCore flags = contiguous(mask, exec);
  const auto n = static_cast<std::int64_t>(flags.size());
  const ArrayCore positions = new_array(Shape{n}, xp::dtype::int64, exec);
  order_access(exec, {&flags, &positions});
  const SelectCall call{static_cast<const bool*>(flags.raw_data()), n, static_cast<std::int64_t*>(positions.raw_data()),
                        &scratch_pool(exec)};
  const std::int64_t count = n == 0 ? 0 : kernels_for(exec.device).select(call, exec);
  return ArrayCore(ArrayInternals::buffer(positions), positions.raw_data(), Shape{count}, Strides{1},
                   positions.device(), xp::dtype::int64);
}

ArrayCore gather_index(const ArrayCore& a, std::span<const Index> indices, IndexMode mode, std::string_view op) {
  const Exec exec = exec_on(a.device());
  const ResolvedIndex resolved = resolve(a, indices, op, exec);
  if (!resolved.plan.advanced()) return view_of_plan(a, resolved.plan);
  const profile_range profiled(op);
  if (mode == IndexMode::raise) check_no_wait_in_capture(a.device(), raise_mode_name(op));
  check_not_empty(resolved.plan, mode, op, true);
  check_each_array(a, resolved, mode, exec);
  const ArrayCore out = new_array(resolved.plan.result_shape(), a.dtype(), exec);
  IndexedCall call = call_of(a, resolved, mode, exec);
  call.dense = out.raw_data();
  if (out.size() == 0) {  // NumPy still checks the positions: the kernels only check them
    if (mode != IndexMode::raise || call.layout.arrays.size == 0) return out;
    call.layout.outer.ndim = call.layout.inner.ndim = 0;
    call.layout.inner_size = 1;
    call.dense = nullptr;
  }
  order_all(exec, a, out, resolved);
  throw_fault(kernels_for(exec.device).gather_indexed(call, exec), resolved.plan);
  return out;
}

void scatter_index(ScatterOp op, const ArrayCore& a, std::span<const Index> indices, const ArrayCore& values,
                   IndexMode mode, std::string_view name) {
  const profile_range profiled(name);
  note_write(a);
  const Exec exec = exec_on(a.device());
  const ResolvedIndex resolved = resolve(a, indices, name, exec);
  check_not_empty(resolved.plan, mode, name, false);
  check_each_array(a, resolved, mode, exec);
  XP_ASSERT(values.dtype() == a.dtype() && values.device() == a.device());
  const Shape selection = resolved.plan.result_shape();
  if (!resolved.plan.advanced() && op == ScatterOp::assign) {  // a copy into a view, on every thread
    copy_into(spread_values(values, selection), view_of_plan(a, resolved.plan));
    return;
  }
  if (mode == IndexMode::raise) check_no_wait_in_capture(a.device(), raise_mode_name(name));
  const ArrayCore dense = dense_values(values, a, selection, exec);
  IndexedCall call = call_of(a, resolved, mode, exec);
  call.dense = dense.raw_data();
  call.one_value = dense.size() == 1;
  call.op = op;
  order_all(exec, a, dense, resolved);
  throw_fault(kernels_for(exec.device).scatter_indexed(call, exec), resolved.plan);
}

}  // namespace xp::detail
