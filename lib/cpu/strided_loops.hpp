#pragma once
// CPU loop drivers: run a shared per-element functor over strided views one row (the last squashed
// axis) at a time, so the inner loop is a plain counted loop the compiler can vectorise. The CUDA
// kernels in kernels/xp/kernels/strided_kernels.cuh run the same functors and index math.
#include <cstdint>

#include "core/layout.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/kernels/make_indexer.hpp"

namespace xp::detail {

// out[i] = gen(i) for every C-order position i.
template <class T, class Generator>
void generate_loop(T* out, Shape shape, Strides strides, Generator gen) {
  const std::int64_t n = numel(shape);
  if (n == 0) return;
  Strides* const operands[] = {&strides};
  squash_axes(shape, operands);  // keeps the C-order positions of the elements
  if (shape.ndim() == 0) {
    out[0] = gen(0);
    return;
  }
  const int last = shape.ndim() - 1;
  const std::int64_t length = shape[last], step = strides[last];
  const kernels::StridedIndexer rows = kernels::make_indexer(shape, strides, last);
  for (std::int64_t row = 0; row < n / length; ++row) {
    T* const p = out + rows.offset(row);
    const std::int64_t first = row * length;
    if (step == 1) {
      for (std::int64_t j = 0; j < length; ++j) p[j] = gen(first + j);
    } else {
      for (std::int64_t j = 0; j < length; ++j) p[j * step] = gen(first + j);
    }
  }
}

// out[i] = cast(in[i]) for every C-order position i of two views of one shape.
template <class Src, class Dst>
void copy_cast_loop(const Src* in, Strides in_strides, Dst* out, Strides out_strides, Shape shape) {
  const std::int64_t n = numel(shape);
  if (n == 0) return;
  Strides* const operands[] = {&in_strides, &out_strides};
  squash_axes(shape, operands);
  if (shape.ndim() == 0) {
    out[0] = kernels::cast<Dst>(in[0]);
    return;
  }
  const int last = shape.ndim() - 1;
  const std::int64_t length = shape[last], in_step = in_strides[last], out_step = out_strides[last];
  const kernels::StridedIndexer in_rows = kernels::make_indexer(shape, in_strides, last);
  const kernels::StridedIndexer out_rows = kernels::make_indexer(shape, out_strides, last);
  for (std::int64_t row = 0; row < n / length; ++row) {
    const Src* const src = in + in_rows.offset(row);
    Dst* const dst = out + out_rows.offset(row);
    if (in_step == 1 && out_step == 1) {
      for (std::int64_t j = 0; j < length; ++j) dst[j] = kernels::cast<Dst>(src[j]);
    } else {
      for (std::int64_t j = 0; j < length; ++j)
        dst[j * out_step] = kernels::cast<Dst>(src[j * in_step]);
    }
  }
}

}  // namespace xp::detail
