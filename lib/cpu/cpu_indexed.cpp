// Gathers and scatters through index arrays on host devices (core/indexed_call.hpp). Gathers run on
// every thread; scatters run in C order on one thread, so that the last of repeated positions wins
// and sums are the same on every run.
#include <algorithm>

#include "core/bit_dispatch.hpp"
#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_sort.hpp"
#include "xp/kernels/compute_dtypes.hpp"
#include "xp/kernels/scatter_ops.hpp"

namespace xp::detail {

namespace {

using kernels::IndexedLayout;

// Calls f(row_offset, k) for each (outer, index) row r in [begin, end), k its first dense element;
// the row's inner elements are at row_offset + inner.offset(i). Stops at the first position outside
// its axis and returns it. No division per row: a 64-bit one is dozens of micro-operations, and
// they would crowd out the loads in flight that a random gather lives on.
template <class F>
IndexFault for_rows(const IndexedLayout& layout, std::int64_t begin, std::int64_t end, F&& f) {
  IndexFault fault;
  const std::int64_t size = layout.arrays.size;
  if (begin >= end) return fault;
  std::int64_t o = begin / size, b = begin % size;
  std::int64_t outer_offset = layout.outer.offset(o);
  for (std::int64_t r = begin; r < end; ++r) {
    std::int64_t offset = 0;
    if (!kernels::index_offset(layout.arrays, b, offset, fault.array, fault.position)) {
      fault.found = true;
      return fault;
    }
    f(outer_offset + offset, r * layout.inner_size);
    if (++b == size) {
      b = 0;
      outer_offset = layout.outer.offset(++o);
    }
  }
  return fault;
}

// Calls f(view_offset, dense_k) for each element of the row at row_offset.
template <class F>
void for_row_elements(const IndexedLayout& layout, std::int64_t row_offset, std::int64_t k, F&& f) {
  if (layout.inner.ndim == 0) {
    f(row_offset, k);
  } else if (layout.inner.ndim == 1) {
    const std::int64_t stride = layout.inner.strides[0];
    for (std::int64_t i = 0; i < layout.inner_size; ++i) f(row_offset + i * stride, k + i);
  } else {
    for (std::int64_t i = 0; i < layout.inner_size; ++i) f(row_offset + layout.inner.offset(i), k + i);
  }
}

std::int64_t rows_of(const IndexedLayout& layout) {
  return layout.inner_size == 0 ? 0 : layout.size() / layout.inner_size;
}

// The common gather of single elements, one index array over one axis and no other (a[idx],
// take of a 1-d array): a lean loop that prefetches the element kPrefetch positions ahead, so that
// many of its random loads are in flight at once (the out-of-order window alone holds few).
template <class T, kernels::IndexMode mode>
IndexFault gather_elements(const IndexedCall& call, std::int64_t begin, std::int64_t end) {
  constexpr std::int64_t kPrefetch = 24;
  const kernels::IndexArrays& arrays = call.layout.arrays;
  const std::int64_t* __restrict const positions = arrays.positions[0];
  const std::int64_t extent = arrays.extents[0], stride = arrays.strides[0];
  const T* __restrict const in = static_cast<const T*>(call.view);
  T* __restrict const out = static_cast<T*>(call.dense);
  const std::int64_t ahead = std::max(begin, end - kPrefetch);
  for (std::int64_t b = begin; b < end; ++b) {
    if (b < ahead) __builtin_prefetch(in + positions[b + kPrefetch] * stride);
    std::int64_t position = positions[b];
    if (!kernels::resolve_position(position, extent, mode)) return {true, 0, positions[b]};
    out[b] = in[position * stride];
  }
  return {};
}

// One index array over one axis and nothing before it (a[idx, ...], take along an axis): rows.
template <class T>
IndexFault gather_one_axis(const IndexedCall& call, std::int64_t begin, std::int64_t end) {
  const kernels::IndexArrays& arrays = call.layout.arrays;
  if (call.layout.inner.ndim == 0) {
    switch (arrays.mode) {
      case kernels::IndexMode::raise: return gather_elements<T, kernels::IndexMode::raise>(call, begin, end);
      case kernels::IndexMode::wrap: return gather_elements<T, kernels::IndexMode::wrap>(call, begin, end);
      case kernels::IndexMode::clip: return gather_elements<T, kernels::IndexMode::clip>(call, begin, end);
    }
  }
  const T* const in = static_cast<const T*>(call.view);
  T* const out = static_cast<T*>(call.dense);
  for (std::int64_t b = begin; b < end; ++b) {
    std::int64_t position = arrays.positions[0][b];
    if (!kernels::resolve_position(position, arrays.extents[0], arrays.mode)) return {true, 0, arrays.positions[0][b]};
    for_row_elements(call.layout, position * arrays.strides[0], b * call.layout.inner_size,
                     [&](std::int64_t at, std::int64_t j) { out[j] = in[at]; });
  }
  return {};
}

template <class T>
IndexFault gather_rows(const IndexedCall& call) {
  const IndexedLayout& layout = call.layout;
  const std::int64_t rows = rows_of(layout);
  const int parts = layout.size() >= 2 * kParallelGrain ? std::min<std::int64_t>(cpu_threads(), rows) : 1;
  std::vector<IndexFault> faults(static_cast<std::size_t>(std::max(parts, 1)));
  const bool one_axis = layout.outer.ndim == 0 && layout.arrays.count == 1 && layout.arrays.dims[0] == 1;
  const T* const in = static_cast<const T*>(call.view);
  T* const out = static_cast<T*>(call.dense);
  for_parts(rows, parts, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
    if (one_axis) {
      faults[part] = gather_one_axis<T>(call, begin, end);
      return;
    }
    faults[part] = for_rows(layout, begin, end, [&](std::int64_t row_offset, std::int64_t k) {
      for_row_elements(layout, row_offset, k, [&](std::int64_t at, std::int64_t j) { out[j] = in[at]; });
    });
  });
  for (const IndexFault& fault : faults)
    if (fault.found) return fault;
  return {};
}

// The first position outside its axis, before anything is written.
IndexFault check_positions(const IndexedLayout& layout) {
  IndexFault fault;
  std::int64_t offset = 0;
  for (std::int64_t b = 0; b < layout.arrays.size; ++b)
    if (!kernels::index_offset(layout.arrays, b, offset, fault.array, fault.position)) {
      fault.found = true;
      return fault;
    }
  return fault;
}

template <class T, class Op>
void scatter_rows(const IndexedCall& call, Op op) {
  T* const view = static_cast<T*>(call.view);
  const T* const values = static_cast<const T*>(call.dense);
  const std::int64_t step = call.one_value ? 0 : 1;
  for_rows(call.layout, 0, rows_of(call.layout), [&](std::int64_t row_offset, std::int64_t k) {
    for_row_elements(call.layout, row_offset, k,
                     [&](std::int64_t at, std::int64_t j) { view[at] = op(view[at], values[j * step]); });
  });
}

template <class T>
void combine_typed(const IndexedCall& call) {
  if (call.op == ScatterOp::add) scatter_rows<T>(call, kernels::Combine<kernels::Add>{});
  else if (call.op == ScatterOp::max) scatter_rows<T>(call, kernels::Combine<kernels::Maximum>{});
  else scatter_rows<T>(call, kernels::Combine<kernels::Minimum>{});
}

}  // namespace

IndexFault cpu_gather_indexed(const IndexedCall& call, const Exec&) {
  if (!call.dense) return check_positions(call.layout);
  return visit_bits(itemsize(call.type), [&](auto bits) { return gather_rows<typename decltype(bits)::type>(call); });
}

IndexFault cpu_scatter_indexed(const IndexedCall& call, const Exec&) {
  if (call.layout.arrays.mode == kernels::IndexMode::raise)
    if (const IndexFault fault = check_positions(call.layout); fault.found) return fault;
  if (call.op == ScatterOp::assign) {
    visit_bits(itemsize(call.type), [&](auto bits) {
      using T = typename decltype(bits)::type;
      scatter_rows<T>(call, [](T, T value) { return value; });
    });
  } else if (call.type == xp::dtype::float16) {
    combine_typed<float16>(call);
  } else if (call.type == xp::dtype::bfloat16) {
    combine_typed<bfloat16>(call);
  } else {
    kernels::visit_compute_dtype(call.type, [&](auto type) { combine_typed<typename decltype(type)::type>(call); });
  }
  return {};
}

}  // namespace xp::detail
