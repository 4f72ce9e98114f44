#pragma once
// The CPU loop driver of elementwise operations: out[i] = f(inputs at i...) over an
// ElementwisePlan. Chunks of the loop run on the CPU backend's threads; within a chunk, a
// contiguous plan is one counted loop (over float blocks for 2-byte float operands) and a strided
// one goes row by row along the last axis.
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "xp/detail/elementwise_plan.hpp"
#include "xp/kernels/cast.hpp"
#include "xp/kernels/cpu/loop_hints.hpp"
#include "xp/kernels/cpu/narrow_floats.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/multi_indexer.hpp"
#include "xp/kernels/operands.hpp"

namespace xp::detail {

// A functor that computes runs of elements itself (the library's vector math on CPUs) rather than one
// element a call: f.run(out, out_step, count, in_steps, ops...) with the operands at the run's start.
template <class F>
concept ComputesRuns = F::computes_runs;

// Kept out of line: GCC vectorises these loops fully only as separate functions.
template <class R, class F, class... Ops>
[[gnu::noinline]] void contiguous_loop(R* out, const F& f, std::int64_t begin, std::int64_t end, const Ops&... ops) {
  if constexpr (ComputesRuns<F>) {
    constexpr std::int64_t unit_steps[] = {(static_cast<void>(sizeof(Ops)), 1)...};
    f.run(out + begin, 1, end - begin, unit_steps, ops.moved(begin)...);
  } else {
    XP_INDEPENDENT_ITERATIONS
    for (std::int64_t i = begin; i < end; ++i) out[i] = kernels::cast<R>(f(ops.at(i)...));
  }
}

template <class Op>
inline constexpr bool is_widened = false;
template <class S>
inline constexpr bool is_widened<kernels::WidenedIn<S>> = true;

template <class R>
inline constexpr bool is_two_byte_storage = std::is_same_v<R, float16> || std::is_same_v<R, bfloat16>;

// Operand `op` over positions [start, start + count) of a block: a 2-byte float array converted
// into `floats`, a 2-byte scalar as its float, any other operand moved to the block's start.
template <class Op>
auto block_operand(const Op& op, std::int64_t start, std::int64_t count, float* floats) {
  if constexpr (is_widened<Op>) {
    if (op.data) widen_floats(op.data + start, floats, count);
    return kernels::AnyIn<float>{op.data ? floats : nullptr, static_cast<float>(op.value)};
  } else {
    return op.moved(start);
  }
}

// A contiguous loop over 2-byte float operands, computed as the float loop over blocks: the operands
// converted in bulk (vectorised; F16C where present), the result rounded back in bulk. Every block
// is read before its result is written, so an output that is also an input is fine. The blocks lie
// a block and 64 bytes apart: 2 KiB apart, loads from one would wait on stores to another two blocks
// on (the CPU compares addresses' low 12 bits first), which halved the throughput (measured).
template <class R, class F, class... Ops>
void contiguous_blocks(R* out, const F& f, std::int64_t begin, std::int64_t end, const Ops&... ops) {
  constexpr std::int64_t kBlock = 512, kSpacing = kBlock + 16;
  alignas(64) float blocks[(sizeof...(Ops) + 1) * kSpacing];
  float* const results = blocks + sizeof...(Ops) * kSpacing;
  for (std::int64_t start = begin; start < end; start += kBlock) {
    const std::int64_t count = end - start < kBlock ? end - start : kBlock;
    [&]<std::size_t... I>(std::index_sequence<I...>) {
      if constexpr (is_two_byte_storage<R>) {
        contiguous_loop(results, f, 0, count, block_operand(ops, start, count, blocks + I * kSpacing)...);
        narrow_floats(results, out + start, count);
      } else {
        contiguous_loop(out + start, f, 0, count, block_operand(ops, start, count, blocks + I * kSpacing)...);
      }
    }(std::index_sequence_for<Ops...>{});
  }
}

// out[i] = f(inputs at i...) over [begin, end) of contiguous operands.
template <class R, class F, class... Ops>
void contiguous_run(R* out, const F& f, std::int64_t begin, std::int64_t end, const Ops&... ops) {
  if constexpr ((is_widened<Ops> || ...)) contiguous_blocks(out, f, begin, end, ops...);
  else contiguous_loop(out, f, begin, end, ops...);
}

template <class R, class F, class... Ops, std::size_t... I>
[[gnu::noinline]] void strided_loop(R* out, const F& f, std::int64_t length, const std::int64_t* steps,
                                    std::index_sequence<I...>, const Ops&... ops) {
  if constexpr (ComputesRuns<F>) f.run(out, steps[0], length, steps + 1, ops...);
  else
    for (std::int64_t j = 0; j < length; ++j) out[j * steps[0]] = kernels::cast<R>(f(ops.at(j * steps[I + 1])...));
}

// How a strided loop over N slots walks its rows: where each row starts, the steps along a row. It
// and row_walk stay out of line: one copy serves every loop with N slots (inlined, each operation's
// loop compiled the indexer's loops and divisions again: a fifth of the compile time).
template <int N>
struct RowWalk {
  std::int64_t length;  // positions in a row
  kernels::MultiIndexer<N, std::int64_t> indexer;  // over the rows
  std::int64_t steps[N];

  // Where the segment of row `row` from `column` starts in each slot.
  [[gnu::noinline]] void segment_offsets(std::int64_t row, std::int64_t column, std::int64_t (&offsets)[N]) const {
    for (int k = 0; k < N; ++k) offsets[k] = column * steps[k];
    indexer.add_offsets(row, offsets);
  }
};

template <int N>
[[gnu::noinline]] RowWalk<N> row_walk(const ElementwisePlan& plan) {
  RowWalk<N> walk{};
  const int last = plan.shape.ndim() - 1;
  walk.length = plan.shape[last];
  walk.indexer.ndim = last;
  for (int axis = 0; axis < last; ++axis) {
    walk.indexer.extents[axis] = plan.shape[axis];
    for (int k = 0; k < N; ++k) walk.indexer.strides[k][axis] = plan.strides[k][axis];
  }
  for (int k = 0; k < N; ++k) walk.steps[k] = plan.strides[k][last];
  return walk;
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
    Rows rows{this, row_walk<kSlots>(plan_)};
    parallel_for(plan_.size, kParallelGrain, &strided_chunk, &rows);
  }

 private:
  struct Rows {
    const CpuElementwise* loop;
    RowWalk<kSlots> walk;
  };

  R* out() const { return static_cast<R*>(plan_.data[0]); }

  static void contiguous_chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CpuElementwise*>(self);
    std::apply([&](const Ops&... ops) { contiguous_run(me.out(), me.f_, begin, end, ops...); }, me.ops_);
  }

  static void strided_chunk(void* context, std::int64_t begin, std::int64_t end) {
    const Rows& rows = *static_cast<const Rows*>(context);
    const CpuElementwise& me = *rows.loop;
    for_each_row_segment(begin, end, rows.walk.length,
                         [&](std::int64_t row, std::int64_t column, std::int64_t count, std::int64_t) {
                           std::int64_t offsets[kSlots];
                           rows.walk.segment_offsets(row, column, offsets);
                           [&]<std::size_t... I>(std::index_sequence<I...> sequence) {
                             strided_loop(me.out() + offsets[0], me.f_, count, rows.walk.steps, sequence,
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
