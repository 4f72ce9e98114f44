#include "api/jit/fused_host_reduction.hpp"

#include <algorithm>
#include <array>
#include <type_traits>
#include <utility>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "api/jit/fused_serial_blocks.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/cpu/reduction.hpp"
#include "xp/kernels/reduction_dispatch.hpp"

namespace xp::detail {

namespace {

// f(identity, combine) of the reduction, as the built-in reduction has them (kernels/reduction_dispatch.hpp).
template <class T, class F>
auto with_monoid(Reduction reduction, const F& f) {
  switch (reduction) {
    case Reduction::sum: return f(T(0), kernels::Add{});
    case Reduction::prod: return f(T(1), kernels::Multiply{});
    case Reduction::max: return f(kernels::lowest<T>(), kernels::Maximum{});
    default: return f(kernels::highest<T>(), kernels::Minimum{});
  }
}

// How many of the last axes of an array of `ndim` axes `axes` names (every axis: ndim), or 0 when it names
// others, or axes out of range or twice (the built-in reduction says which).
int reduced_last_axes(const Axes& axes, int ndim) {
  if (axes.all()) return ndim;
  std::vector<bool> named(static_cast<std::size_t>(ndim), false);
  for (int axis : axes.list()) {
    if (axis < 0) axis += ndim;
    if (axis < 0 || axis >= ndim || named[static_cast<std::size_t>(axis)]) return 0;
    named[static_cast<std::size_t>(axis)] = true;
  }
  const int count = static_cast<int>(axes.list().size());
  return std::all_of(named.end() - count, named.end(), [](bool n) { return n; }) ? count : 0;
}

// The runs of a reduction: `outputs` runs of `length` consecutive elements, each in `blocks` blocks of the
// built-in reduction; a task is one block of one run.
template <class T>
struct RunReduction {
  const HostRun& run;
  Reduction reduction;
  std::int64_t length, blocks;
  std::vector<T> partials;  // by task

  std::pair<std::int64_t, std::int64_t> range(std::int64_t task) const {
    const std::int64_t start = task / blocks * length, block = task % blocks;
    return {start + block * kReduceBlock, start + std::min(length, (block + 1) * kReduceBlock)};
  }

  static void tasks(void* context, std::int64_t first, std::int64_t last) {
    auto& me = *static_cast<RunReduction*>(context);
    if (!me.run.serial) {
      for (std::int64_t task = first; task < last; ++task)
        me.partials[static_cast<std::size_t>(task)] = me.through_buffer(me.range(task));
      return;
    }
    std::vector<T> leaf(kPairwiseLeaf);
    std::vector<unsigned char> scratch(me.run.layout.per_element * kPairwiseLeaf);
    const SerialBlocks leaves(me.run, kPairwiseLeaf, {reinterpret_cast<unsigned char*>(leaf.data()), 0, 0},
                              scratch.data());
    for (std::int64_t task = first; task < last; ++task)
      me.partials[static_cast<std::size_t>(task)] = me.by_leaves(leaves, leaf.data(), me.range(task));
  }

  // The block's pairwise tree, each leaf made into `leaf` by `leaves` and reduced there.
  T by_leaves(const SerialBlocks& leaves, const T* leaf, std::pair<std::int64_t, std::int64_t> block) const {
    return with_monoid<T>(reduction, [&](T identity, auto combine) {
      const auto reduce_leaf = [&](std::int64_t begin, std::int64_t end) {
        leaves.run(begin, end);
        return pairwise_leaf([leaf, begin](std::int64_t j) { return leaf[j - begin]; }, begin, end, identity, combine);
      };
      return pairwise_tree<T>(block.first, block.second, reduce_leaf, combine);
    });
  }

  // The block made into a buffer, reduced by the built-in reduction (its tree over the block alone).
  T through_buffer(std::pair<std::int64_t, std::int64_t> block) const {
    const auto [begin, end] = block;
    const ArrayCore values = new_array(Shape(end - begin), dtype_of<T>, run.exec);
    HostRun into = run;
    into.output = static_cast<unsigned char*>(values.raw_data());
    into.output_begin = begin;
    run_host_blocks(&into, begin, end);
    T partial;
    item_as(reduce(reduction, values, std::nullopt, false, 0), dtype_of<T>, &partial);
    return partial;
  }

  // Each run's blocks combined by halves, into out[run].
  void store(T* out, std::int64_t outputs) const {
    with_monoid<T>(reduction, [&](T, auto combine) {
      for (std::int64_t k = 0; k < outputs; ++k) {
        const auto partial = [&](std::int64_t b) { return partials[static_cast<std::size_t>(k * blocks + b)]; };
        out[k] = combine_halves<T>(partial, 0, blocks, combine);
      }
    });
  }
};

bool kept_by_reduction(xp::dtype type) {
  return type == xp::dtype::float32 || type == xp::dtype::float64 || type == xp::dtype::int64 ||
         type == xp::dtype::uint64;
}

}  // namespace

bool reduces_in_one_pass(const FusionGraph& graph, std::span<const int> order, const Shape& shape,
                         const DeviceKernels& kernels) {
  const std::optional<FusedReduction>& r = graph.reduction();
  const xp::dtype type = graph.nodes()[static_cast<std::size_t>(graph.output())].type;
  if (!r || !kept_by_reduction(type)) return false;
  const bool mean_of_floats = r->reduction == Reduction::mean && moment_dtype(type) == type;
  if (r->reduction != Reduction::sum && r->reduction != Reduction::prod && r->reduction != Reduction::max &&
      r->reduction != Reduction::min && !mean_of_floats)
    return false;
  const int reduced = reduced_last_axes(r->axes, shape.ndim());
  std::int64_t length = 1;
  for (int axis = shape.ndim() - reduced; axis < shape.ndim(); ++axis) length *= shape[axis];
  if (reduced == 0 || numel(shape) <= kReduceBlock) return false;
  return reduced == shape.ndim() || (length >= kPairwiseLeaf && runs_serially(graph, order, kernels));
}

ArrayCore reduce_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                               std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec) {
  const FusedReduction& r = *graph.reduction();
  const xp::dtype type = graph.nodes()[static_cast<std::size_t>(graph.output())].type;
  const int kept = shape.ndim() - reduced_last_axes(r.axes, shape.ndim());
  Shape result_shape;
  for (int axis = 0; axis < shape.ndim(); ++axis)
    if (axis < kept || r.keepdims) result_shape.push_back(axis < kept ? shape[axis] : 1);
  const ArrayCore result = new_array(result_shape, type, exec);
  HostRun run{graph, order, layout, {}, nullptr, 0, exec, kernels_for(exec.device)};
  std::vector<ArrayCore> copies;
  prepare_arguments(run, arrays, shape, result, copies);
  run.serial = runs_serially(graph, order, run.kernels);
  const auto outputs = static_cast<std::int64_t>(result.size()), length = numel(shape) / outputs;
  const Reduction monoid = r.reduction == Reduction::mean ? Reduction::sum : r.reduction;
  visit_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int64_t> ||
                  std::is_same_v<T, std::uint64_t>) {
      const std::int64_t blocks = (length + kReduceBlock - 1) / kReduceBlock;
      RunReduction<T> runs{run, monoid, length, blocks, std::vector<T>(static_cast<std::size_t>(outputs * blocks))};
      parallel_for(outputs * blocks, std::max<std::int64_t>(1, kParallelGrain / std::min(length, kReduceBlock)),
                   &RunReduction<T>::tasks, &runs);
      runs.store(static_cast<T*>(result.raw_data()), outputs);
    }
  });
  if (r.reduction != Reduction::mean) return result;
  // The built-in mean's division of the sum by the count, as a double scalar.
  const std::array<Operand, 2> quotient{Operand{&result, {}},
                                        Operand{nullptr, scalar_value(static_cast<double>(length))}};
  return elementwise(ElementwiseOp::divide, quotient);
}

}  // namespace xp::detail
