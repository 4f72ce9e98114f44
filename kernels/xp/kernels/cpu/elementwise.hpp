#pragma once
// The CPU loop driver of elementwise operations: out[i] = f(inputs at i...) over an
// ElementwisePlan. Chunks of the loop run on the CPU backend's threads; within a chunk, a
// contiguous plan is one counted loop and a strided one goes row by row along the last axis.
#include <cstdint>
#include <tuple>
#include <utility>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/kernels/cpu/loop_hints.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/multi_indexer.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::detail {

// Kept out of line: GCC vectorises these loops fully only as separate functions.
template <class R, class F, class... Ops>
[[gnu::noinline]] void contiguous_loop(R* out, const F& f, std::int64_t begin, std::int64_t end, const Ops&... ops) {
  XP_INDEPENDENT_ITERATIONS
  for (std::int64_t i = begin; i < end; ++i) out[i] = kernels::cast<R>(f(ops.at(i)...));
}

template <class R, class F, class... Ops, std::size_t... I>
[[gnu::noinline]] void strided_loop(R* out, const F& f, std::int64_t length, const std::int64_t* steps,
                                    std::index_sequence<I...>, const Ops&... ops) {
  for (std::int64_t j = 0; j < length; ++j) out[j * steps[0]] = kernels::cast<R>(f(ops.at(j * steps[I + 1])...));
}

template <class R, class F, class... Ops>
class CpuElementwise {
  static constexpr int kSlots = 1 + static_cast<int>(sizeof...(Ops));
  using Sequence = std::index_sequence_for<Ops...>;

 public:
  CpuElementwise(const ElementwisePlan& plan, const F& f, const Ops&... ops) : plan_(plan), f_(f), ops_(ops...) {}

  void run() {
    if (plan_.contiguous) {
      parallel_for(plan_.size, kParallelGrain, &contiguous_chunk, this);
      return;
    }
    Rows rows{this, 0, {}, {}};
    const int last = plan_.shape.ndim() - 1;
    rows.length = plan_.shape[last];
    rows.indexer.ndim = last;
    for (int axis = 0; axis < last; ++axis) {
      rows.indexer.extents[axis] = plan_.shape[axis];
      for (int k = 0; k < kSlots; ++k) rows.indexer.strides[k][axis] = plan_.strides[k][axis];
    }
    for (int k = 0; k < kSlots; ++k) rows.steps[k] = plan_.strides[k][last];
    parallel_for(plan_.size, kParallelGrain, &strided_chunk, &rows);
  }

 private:
  // What a strided walk needs besides the operands: how rows start, and the steps along a row.
  struct Rows {
    const CpuElementwise* loop;
    std::int64_t length;
    kernels::MultiIndexer<kSlots, std::int64_t> indexer;
    std::int64_t steps[kSlots];
  };

  R* out() const { return static_cast<R*>(plan_.data[0]); }

  static void contiguous_chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CpuElementwise*>(self);
    std::apply([&](const Ops&... ops) { contiguous_loop(me.out(), me.f_, begin, end, ops...); }, me.ops_);
  }

  static void strided_chunk(void* context, std::int64_t begin, std::int64_t end) {
    const Rows& rows = *static_cast<const Rows*>(context);
    const CpuElementwise& me = *rows.loop;
    for_each_row_segment(begin, end, rows.length,
                         [&](std::int64_t row, std::int64_t column, std::int64_t count, std::int64_t) {
                           std::int64_t offsets[kSlots];
                           rows.indexer.offsets(row, offsets);
                           for (int k = 0; k < kSlots; ++k) offsets[k] += column * rows.steps[k];
                           [&]<std::size_t... I>(std::index_sequence<I...> sequence) {
                             strided_loop(me.out() + offsets[0], me.f_, count, rows.steps, sequence,
                                          std::get<I>(me.ops_).moved(offsets[I + 1])...);
                           }(Sequence{});
                         });
  }

  const ElementwisePlan& plan_;
  F f_;
  std::tuple<Ops...> ops_;
};

template <class R, class F, class... Ops>
void cpu_elementwise(const ElementwisePlan& plan, const F& f, const Ops&... ops) {
  CpuElementwise<R, F, Ops...>(plan, f, ops...).run();
}

}  // namespace xp::detail
