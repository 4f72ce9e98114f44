#pragma once
// CPU loop drivers of fills, generators and copies: a shared per-element functor over strided views,
// in chunks on the CPU backend's threads, one row (the last squashed axis) at a time so that the
// inner loop is a plain counted loop the compiler can vectorise. The CUDA kernels in
// kernels/xp/kernels/strided_kernels.cuh run the same functors and index math.
#include <cstdint>

#include "core/layout.hpp"
#include "xp/detail/parallel_for.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/kernels/make_indexer.hpp"

namespace xp::detail {

// out[i] = gen(i) for every C-order position i, on the CPU backend's threads.
template <class T, class Generator>
class GenerateLoop {
 public:
  GenerateLoop(T* out, Shape shape, Strides strides, const Generator& gen) : out_(out), gen_(gen) {
    size_ = numel(shape);
    if (size_ == 0) return;
    Strides* const operands[] = {&strides};
    squash_axes(shape, operands);  // keeps the C-order positions of the elements
    const int last = shape.ndim() - 1;
    length_ = last >= 0 ? shape[last] : 1;
    step_ = last >= 0 ? strides[last] : 0;
    rows_ = kernels::make_indexer(shape, strides, last < 0 ? 0 : last);
  }

  void run() { parallel_for(size_, kParallelGrain, &chunk, this); }

 private:
  static void chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<GenerateLoop*>(self);
    for_each_row_segment(begin, end, me.length_, [&](std::int64_t row, std::int64_t column, std::int64_t count, std::int64_t i) {
      T* const p = me.out_ + me.rows_.offset(row) + column * me.step_;
      if (me.step_ == 1) {
        for (std::int64_t j = 0; j < count; ++j) p[j] = me.gen_(i + j);
      } else {
        for (std::int64_t j = 0; j < count; ++j) p[j * me.step_] = me.gen_(i + j);
      }
    });
  }

  T* out_;
  Generator gen_;
  std::int64_t size_ = 0, length_ = 1, step_ = 0;
  kernels::StridedIndexer rows_;
};

template <class T, class Generator>
void generate_loop(T* out, const Shape& shape, const Strides& strides, const Generator& gen) {
  GenerateLoop<T, Generator>(out, shape, strides, gen).run();
}

// out[i] = cast(in[i]) for every C-order position i of two views of one shape, on the CPU
// backend's threads.
template <class Src, class Dst>
class CopyCastLoop {
 public:
  CopyCastLoop(const Src* in, Strides in_strides, Dst* out, Strides out_strides, Shape shape) : in_(in), out_(out) {
    size_ = numel(shape);
    if (size_ == 0) return;
    Strides* const operands[] = {&in_strides, &out_strides};
    squash_axes(shape, operands);
    const int last = shape.ndim() - 1;
    length_ = last >= 0 ? shape[last] : 1;
    in_step_ = last >= 0 ? in_strides[last] : 0;
    out_step_ = last >= 0 ? out_strides[last] : 0;
    in_rows_ = kernels::make_indexer(shape, in_strides, last < 0 ? 0 : last);
    out_rows_ = kernels::make_indexer(shape, out_strides, last < 0 ? 0 : last);
  }

  void run() { parallel_for(size_, kParallelGrain, &chunk, this); }

 private:
  static void chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CopyCastLoop*>(self);
    for_each_row_segment(begin, end, me.length_, [&](std::int64_t row, std::int64_t column, std::int64_t count, std::int64_t) {
      const Src* const src = me.in_ + me.in_rows_.offset(row) + column * me.in_step_;
      Dst* const dst = me.out_ + me.out_rows_.offset(row) + column * me.out_step_;
      if (me.in_step_ == 1 && me.out_step_ == 1) {
        for (std::int64_t j = 0; j < count; ++j) dst[j] = kernels::cast<Dst>(src[j]);
      } else {
        for (std::int64_t j = 0; j < count; ++j) dst[j * me.out_step_] = kernels::cast<Dst>(src[j * me.in_step_]);
      }
    });
  }

  const Src* in_;
  Dst* out_;
  std::int64_t size_ = 0, length_ = 1, in_step_ = 0, out_step_ = 0;
  kernels::StridedIndexer in_rows_, out_rows_;
};

template <class Src, class Dst>
void copy_cast_loop(const Src* in, const Strides& in_strides, Dst* out, const Strides& out_strides, const Shape& shape) {
  CopyCastLoop<Src, Dst>(in, in_strides, out, out_strides, shape).run();
}

}  // namespace xp::detail
