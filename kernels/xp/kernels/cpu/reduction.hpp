#pragma once
// The CPU loop driver of reductions: out[k] = post(combine over j of map(x[k, j])) for a
// ReductionPlan. Sums are pairwise (NumPy's accuracy): lanes of independent accumulators at the
// leaves, halves combined above. Each walk fixes its tree from the shape alone and parallel work
// only computes subtrees of it, so results do not depend on the thread count, bit for bit. Walks:
// - rows: each output reduces one contiguous (or evenly strided) run, in blocks of kReduceBlock
//   elements whose results are combined by halves: parallel over outputs, or over the blocks when
//   outputs are few;
// - columns: the outputs are contiguous in the input and the reduced axis is outer (sum over axis 0
//   of a C-order matrix): a tile of outputs (whole rows, when they fit) accumulates row after row,
//   vectorised across outputs, reading memory forwards, rows split by halves; when tiles are few,
//   subtrees of rows run in parallel and their partial rows are combined as the tree above them;
// - anything else: each reduced element found through an indexer.
// map may take the element's position in its reduction as a second argument (arg reductions).
#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "xp/detail/reduction_plan.hpp"
#include "xp/kernels/cpu/elementwise.hpp"
#include "xp/kernels/cpu/loop_hints.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/make_indexer.hpp"
#include "xp/kernels/monoids.hpp"

namespace xp::detail {

inline constexpr int kReduceLanes = 16;
inline constexpr std::int64_t kPairwiseLeaf = 256;  // elements a leaf reduces with its lanes
inline constexpr std::int64_t kReduceBlock = 1 << 15;  // reduced elements per task when outputs are few
inline constexpr std::int64_t kColumnTile = 4096;  // outputs per task in a column walk: whole rows
inline constexpr std::int64_t kColumnLeafRows = 64;  // rows a column tile accumulates directly

// Out of line: GCC vectorises the lanes only in a function of its own.
template <class Acc, class Load, class Combine>
[[gnu::noinline]] Acc pairwise_leaf(const Load& load, std::int64_t begin, std::int64_t end, const Acc& identity,
                                    const Combine& combine) {
  Acc lane[kReduceLanes];
  for (int k = 0; k < kReduceLanes; ++k) lane[k] = identity;
  std::int64_t j = begin;
  for (; j + kReduceLanes <= end; j += kReduceLanes)
    for (int k = 0; k < kReduceLanes; ++k) lane[k] = combine(lane[k], load(j + k));
  for (int width = kReduceLanes / 2; width > 0; width /= 2)
    for (int k = 0; k < width; ++k) lane[k] = combine(lane[k], lane[k + width]);
  Acc total = lane[0];
  for (; j < end; ++j) total = combine(total, load(j));
  return total;
}

// The pairwise tree over [begin, end): leaf(b, e) for the ranges of at most kPairwiseLeaf elements it
// splits into, their results combined by halves. The splits depend on the range's length alone.
template <class Acc, class Leaf, class Combine>
Acc pairwise_tree(std::int64_t begin, std::int64_t end, const Leaf& leaf, const Combine& combine) {
  if (end - begin <= kPairwiseLeaf) return leaf(begin, end);
  const std::int64_t middle = begin + (end - begin) / 2 / kReduceLanes * kReduceLanes;
  // Left half first: memory is then read forwards, which hardware prefetchers follow (GCC would
  // evaluate the arguments of a single call right to left, walking memory backwards).
  const Acc left = pairwise_tree<Acc>(begin, middle, leaf, combine);
  const Acc right = pairwise_tree<Acc>(middle, end, leaf, combine);
  return combine(left, right);
}

template <class Acc, class Load, class Combine>
Acc pairwise(const Load& load, std::int64_t begin, std::int64_t end, const Acc& identity, const Combine& combine) {
  const auto leaf = [&](std::int64_t b, std::int64_t e) { return pairwise_leaf(load, b, e, identity, combine); };
  return pairwise_tree<Acc>(begin, end, leaf, combine);
}

// The results of parts [begin, end) combined by halves: the top of a reduction's tree.
template <class Acc, class Part, class Combine>
Acc combine_halves(const Part& part, std::int64_t begin, std::int64_t end, const Combine& combine) {
  if (end - begin == 1) return part(begin);
  const std::int64_t middle = begin + (end - begin) / 2;
  const Acc left = combine_halves<Acc>(part, begin, middle, combine);
  return combine(left, combine_halves<Acc>(part, middle, end, combine));
}

template <class T, class Acc, class R, class Map, class Combine, class Post>
class CpuReduction {
 public:
  CpuReduction(const ReductionPlan& plan, const Acc& identity, const Map& map, const Combine& combine, const Post& post)
      : plan_(plan), identity_(identity), map_(map), combine_(combine), post_(post) {}

  void run() {
    if (plan_.outputs == 0) return;
    if (plan_.reduced == 0) {
      for (std::int64_t k = 0; k < plan_.outputs; ++k) out()[k] = kernels::cast<R>(post_(identity_));
      return;
    }
    kept_ = kernels::make_indexer(plan_.kept_shape, plan_.kept_strides);
    reduced_ = kernels::make_indexer(plan_.reduced_shape, plan_.reduced_strides);
    const int reduced_axes = plan_.reduced_shape.ndim(), kept_axes = plan_.kept_shape.ndim();
    single_run_ = reduced_axes <= 1;
    step_ = reduced_axes == 1 ? plan_.reduced_strides[0] : 0;
    if (reduced_axes == 1 && kept_axes >= 1 && step_ != 1 && plan_.kept_strides[kept_axes - 1] == 1 &&
        plan_.kept_shape[kept_axes - 1] >= kReduceLanes) {
      run_columns();
    } else if (plan_.outputs >= 2 * cpu_threads() || plan_.outputs * plan_.reduced < kParallelGrain) {
      parallel_for(plan_.outputs, std::max<std::int64_t>(1, kParallelGrain / plan_.reduced), &rows_chunk, this);
    } else {
      run_blocks();
    }
  }

 private:
  R* out() const { return static_cast<R*>(plan_.output); }
  const T* input() const { return static_cast<const T*>(plan_.input); }

  // Reduces elements [begin, end) of output k's run.
  Acc reduce_run(std::int64_t k, std::int64_t begin, std::int64_t end) const {
    const T* base = input() + kept_.offset(k);
    if (single_run_ && step_ == 1) {
      return pairwise([&](std::int64_t j) { return static_cast<Acc>(kernels::apply_map(map_, base[j], j)); }, begin,
                      end, identity_, combine_);
    }
    if (single_run_) {
      const std::int64_t step = step_;
      return pairwise([&](std::int64_t j) { return static_cast<Acc>(kernels::apply_map(map_, base[j * step], j)); },
                      begin, end, identity_, combine_);
    }
    return pairwise(
        [&](std::int64_t j) { return static_cast<Acc>(kernels::apply_map(map_, base[reduced_.offset(j)], j)); }, begin,
        end, identity_, combine_);
  }

  Acc reduce_block(std::int64_t k, std::int64_t block) const {
    return reduce_run(k, block * kReduceBlock, std::min(plan_.reduced, (block + 1) * kReduceBlock));
  }

  static void rows_chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CpuReduction*>(self);
    const std::int64_t blocks = (me.plan_.reduced + kReduceBlock - 1) / kReduceBlock;
    for (std::int64_t k = begin; k < end; ++k) {
      const Acc total =
          combine_halves<Acc>([&](std::int64_t b) { return me.reduce_block(k, b); }, 0, blocks, me.combine_);
      me.out()[k] = kernels::cast<R>(me.post_(total));
    }
  }

  // Few outputs: the blocks of each run in parallel, then the same tree over their partials.
  void run_blocks() {
    blocks_ = (plan_.reduced + kReduceBlock - 1) / kReduceBlock;
    partials_.reset(new Acc[static_cast<std::size_t>(plan_.outputs * blocks_)]);
    parallel_for(plan_.outputs * blocks_, 1, &block_chunk, this);
    for (std::int64_t k = 0; k < plan_.outputs; ++k) {
      const Acc* partial = partials_.get() + k * blocks_;
      out()[k] = kernels::cast<R>(
          post_(combine_halves<Acc>([&](std::int64_t b) { return partial[b]; }, 0, blocks_, combine_)));
    }
  }

  static void block_chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CpuReduction*>(self);
    for (std::int64_t task = begin; task < end; ++task)
      me.partials_[task] = me.reduce_block(task / me.blocks_, task % me.blocks_);
  }

  // Outputs contiguous in the input, reduced axis outer: tiles of outputs, rows accumulated
  // pairwise (blocks of kColumnLeafRows rows, halves combined through scratch rows).
  void run_columns() {
    const int last = plan_.kept_shape.ndim() - 1;
    width_ = plan_.kept_shape[last];
    tiles_ = (width_ + kColumnTile - 1) / kColumnTile;
    kept_ = kernels::make_indexer(plan_.kept_shape, plan_.kept_strides, last);
    const std::int64_t outer = plan_.outputs / width_;
    // Enough tasks for every thread, splitting the rows when tiles alone are too few: into the 2^d
    // subtrees at depth d of the rows' tree, each still above the leaves, so the tree stays the same.
    row_blocks_ = 1;
    while (outer * tiles_ * row_blocks_ < 4 * cpu_threads() && plan_.reduced / (2 * row_blocks_) >= kColumnLeafRows)
      row_blocks_ *= 2;
    if (row_blocks_ > 1) partials_.reset(new Acc[static_cast<std::size_t>(plan_.outputs * row_blocks_)]);
    const std::int64_t tasks = outer * tiles_ * row_blocks_;
    parallel_for(
        tasks,
        std::max<std::int64_t>(1, kParallelGrain / (plan_.reduced / row_blocks_ * std::min(width_, kColumnTile))),
        &column_chunk, this);
    if (row_blocks_ == 1) return;
    for (std::int64_t k = 0; k < plan_.outputs; ++k) {
      const Acc* partial = partials_.get() + k;
      const std::int64_t stride = plan_.outputs;
      out()[k] = kernels::cast<R>(
          post_(combine_halves<Acc>([&](std::int64_t b) { return partial[b * stride]; }, 0, row_blocks_, combine_)));
    }
  }

  // Rows [first, first + count) of the subtree `block` of row_blocks_ (a power of two): halves
  // taken as columns() takes them.
  std::pair<std::int64_t, std::int64_t> row_block(std::int64_t block) const {
    std::int64_t first = 0, count = plan_.reduced;
    for (std::int64_t level = row_blocks_ / 2; level > 0; level /= 2) {
      const std::int64_t half = count / 2;
      if (block & level) {
        first += half;
        count -= half;
      } else {
        count = half;
      }
    }
    return {first, count};
  }

  static void column_chunk(void* self, std::int64_t begin, std::int64_t end) {
    auto& me = *static_cast<CpuReduction*>(self);
    const std::int64_t rows = me.plan_.reduced;
    int depth = 1;
    for (std::int64_t r = rows / me.row_blocks_ + 1; r > kColumnLeafRows; r = (r + 1) / 2) ++depth;
    const std::int64_t tile = std::min(me.width_, kColumnTile);
    const std::unique_ptr<Acc[]> scratch(new Acc[static_cast<std::size_t>((depth + 1) * tile)]);
    for (std::int64_t task = begin; task < end; ++task) {
      const std::int64_t block = task % me.row_blocks_, rest = task / me.row_blocks_;
      const std::int64_t outer = rest / me.tiles_, first = rest % me.tiles_ * kColumnTile;
      const std::int64_t width = std::min(kColumnTile, me.width_ - first);
      const auto [first_row, row_count] = me.row_block(block);
      const T* base = me.input() + me.kept_.offset(outer) + first;
      me.columns(base, first_row, row_count, width, tile, scratch.get(), scratch.get() + tile);
      const std::int64_t k0 = outer * me.width_ + first;
      if (me.row_blocks_ == 1) {
        for (std::int64_t c = 0; c < width; ++c) me.out()[k0 + c] = kernels::cast<R>(me.post_(scratch[c]));
      } else {
        Acc* partial = me.partials_.get() + block * me.plan_.outputs + k0;
        for (std::int64_t c = 0; c < width; ++c) partial[c] = scratch[c];
      }
    }
  }

  // Rows [first_row, first_row + rows) of `width` columns into result; scratch holds a row of
  // `tile` accumulators per level below.
  void columns(const T* base, std::int64_t first_row, std::int64_t rows, std::int64_t width, std::int64_t tile,
               Acc* result, Acc* scratch) const {
    if (rows <= kColumnLeafRows) {
      column_leaf(base + first_row * step_, first_row, rows, width, result);
      return;
    }
    const std::int64_t half = rows / 2;
    columns(base, first_row, half, width, tile, result, scratch + tile);
    columns(base, first_row + half, rows - half, width, tile, scratch, scratch + tile);
    for (std::int64_t c = 0; c < width; ++c) result[c] = combine_(result[c], scratch[c]);
  }

  // Four rows folded per update of the accumulators, which then cost a quarter of the reads.
  [[gnu::noinline]] void column_leaf(const T* base, std::int64_t first_row, std::int64_t rows, std::int64_t width,
                                     Acc* result) const {
    const auto at = [&](const T* row, std::int64_t c, std::int64_t r) {
      return static_cast<Acc>(kernels::apply_map(map_, row[c], first_row + r));
    };
    for (std::int64_t c = 0; c < width; ++c) result[c] = identity_;
    std::int64_t r = 0;
    for (; r + 4 <= rows; r += 4) {
      const T* const r0 = base + r * step_;
      const T* const r1 = r0 + step_;
      const T* const r2 = r1 + step_;
      const T* const r3 = r2 + step_;
      XP_INDEPENDENT_ITERATIONS
      for (std::int64_t c = 0; c < width; ++c)
        result[c] = combine_(result[c], combine_(combine_(at(r0, c, r), at(r1, c, r + 1)),
                                                 combine_(at(r2, c, r + 2), at(r3, c, r + 3))));
    }
    for (; r < rows; ++r) {
      const T* const row = base + r * step_;
      XP_INDEPENDENT_ITERATIONS
      for (std::int64_t c = 0; c < width; ++c) result[c] = combine_(result[c], at(row, c, r));
    }
  }

  const ReductionPlan& plan_;
  Acc identity_;
  Map map_;
  Combine combine_;
  Post post_;
  kernels::StridedIndexer kept_, reduced_;
  bool single_run_ = false;
  std::int64_t step_ = 0;
  std::int64_t blocks_ = 0, width_ = 0, tiles_ = 0, row_blocks_ = 1;
  // Partial results: one per (output, block) when outputs are few; one per (row block, output) in a
  // column walk split by rows.
  std::unique_ptr<Acc[]> partials_;
};

template <class T, class Acc, class R, class Map, class Combine, class Post>
void cpu_reduction(const ReductionPlan& plan, const Acc& identity, const Map& map, const Combine& combine,
                   const Post& post) {
  CpuReduction<T, Acc, R, Map, Combine, Post>(plan, identity, map, combine, post).run();
}

}  // namespace xp::detail
