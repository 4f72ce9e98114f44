#include "api/jit/fused_host_run.hpp"
#include "api/jit/fused_serial_blocks.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "core/elementwise_checks.hpp"
#include "xp/kernels/arithmetic.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/cpu/reduction.hpp"
#include "xp/kernels/reduction_dispatch.hpp"

namespace xp::detail {

namespace {

// Elements per block: every operation's block of a thread stays in its core's L2 cache, and a block is
// long enough that an operation's call through a plan costs little beside its loop.
constexpr std::int64_t kBlock = 4096;
constexpr std::size_t kStackScratch = 8192;  // small calls keep their blocks on the stack

// One block: its first element, its length, and the scratch holding its operations' values.
struct Block {
  std::int64_t begin, n;
  unsigned char* scratch;
};

// Where node `number`'s values for the block are.
unsigned char* values_of(const HostRun& run, int number, const Block& block) {
  const FusionNode& node = node_at(run, number);
  if (node.parameter >= 0)
    return run.parameters[static_cast<std::size_t>(node.parameter)] +
           static_cast<std::size_t>(block.begin) * itemsize(node.type);
  if (number == run.graph.output())
    return run.output + static_cast<std::size_t>(block.begin - run.output_begin) * itemsize(node.type);
  return block.scratch + run.layout.offsets[static_cast<std::size_t>(number)] * static_cast<std::size_t>(block.n);
}

// One operation over the block: its inputs converted to the dtypes it reads, then its loop.
void run_operation(const HostRun& run, int number, const Block& block, ElementwisePlan& plan) {
  const FusionNode& node = node_at(run, number);
  if (node.cast) {
    const int source = node.inputs[0];
    run.kernels.copy_cast({values_of(run, source, block), node_at(run, source).type, Shape(block.n), Strides(1)},
                          {values_of(run, number, block), node.type, Shape(block.n), Strides(1)}, run.exec);
    return;
  }
  plan.operands = node.arity + 1;
  plan.data[0] = values_of(run, number, block);
  for (int k = 0; k < node.arity; ++k) {
    const int source = node.inputs[static_cast<std::size_t>(k)];
    const auto slot = static_cast<std::size_t>(k + 1);
    plan.strides[slot] = Strides(source < 0 ? 0 : 1);
    if (source < 0) {
      plan.data[slot] = nullptr;
      continue;
    }
    const xp::dtype from = node_at(run, source).type;
    const xp::dtype to = input_dtype(node.op, static_cast<std::size_t>(k), node.compute);
    unsigned char* data = values_of(run, source, block);
    if (from != to) {
      unsigned char* into = block.scratch + (run.layout.converted + static_cast<std::size_t>(k) * kWidestElement) *
                                                static_cast<std::size_t>(block.n);
      run.kernels.copy_cast({data, from, Shape(block.n), Strides(1)}, {into, to, Shape(block.n), Strides(1)}, run.exec);
      data = into;
    }
    plan.data[slot] = data;
  }
  run.kernels.elementwise(ElementwiseCall{node.op, node.compute, node.scalars}, plan);
}

void run_planned_blocks(const HostRun& run, unsigned char* scratch, std::int64_t begin, std::int64_t end,
                        std::int64_t length) {
  ElementwisePlan plan;
  plan.exec = run.exec;
  plan.strides[0] = Strides(1);
  plan.contiguous = true;
  plan.fits_int32 = true;
  for (Block block{begin, length, scratch}; block.begin < end; block.begin += length) {
    block.n = end - block.begin < length ? end - block.begin : length;
    plan.size = block.n;
    plan.shape = Shape(block.n);
    for (const int number : run.order) run_operation(run, number, block, plan);
  }
}

// f(scratch) with `bytes` of scratch: on the stack for small calls.
template <class F>
void with_scratch(std::size_t bytes, const F& f) {
  alignas(64) unsigned char on_stack[kStackScratch];
  const std::unique_ptr<unsigned char[]> on_heap(bytes > kStackScratch ? new unsigned char[bytes] : nullptr);
  f(on_heap ? on_heap.get() : on_stack);
}

// The blocks of [begin, end), with scratch of this thread's own.
void run_blocks(void* context, std::int64_t begin, std::int64_t end) {
  const HostRun& run = *static_cast<const HostRun*>(context);
  const std::int64_t length = std::min(run.serial ? kSerialBlock : kBlock, end - begin);
  with_scratch(run.layout.per_element * static_cast<std::size_t>(length), [&](unsigned char* scratch) {
    if (!run.serial) return run_planned_blocks(run, scratch, begin, end, length);
    const auto size = static_cast<std::ptrdiff_t>(itemsize(node_at(run, run.graph.output()).type));
    SerialBlocks(run, length, {run.output, run.output_begin, size}, scratch).run(begin, end);
  });
}

}  // namespace

HostBlockLayout host_block_layout(const FusionGraph& graph, std::span<const int> order) {
  HostBlockLayout layout;
  layout.offsets.assign(graph.nodes().size(), 0);
  for (const int number : order) {
    layout.offsets[static_cast<std::size_t>(number)] = layout.per_element;
    layout.per_element += kWidestElement;  // every block starts 16-byte aligned
  }
  layout.converted = layout.per_element;
  layout.per_element += 3 * kWidestElement;
  layout.scalars = layout.per_element;
  for (const int number : order) {
    const FusionNode& node = graph.nodes()[static_cast<std::size_t>(number)];
    for (int k = 0; k < node.arity; ++k)
      if (node.inputs[static_cast<std::size_t>(k)] < 0) layout.per_element += kWidestElement;
  }
  return layout;
}

namespace {

// The arguments as C-contiguous arrays of `shape` (copies of those that are not), in `run`, with their
// access ordered before the call's work; `out`'s too.
void prepare_arguments(HostRun& run, std::span<const ArrayCore* const> arrays, const Shape& shape, const ArrayCore& out,
                       std::vector<ArrayCore>& copies) {
  std::array<const ArrayCore*, kMaxFusedArguments + 1> accessed;  // the first arrays.size() + 1 are set
  for (std::size_t k = 0; k < arrays.size(); ++k) {
    accessed[k] = arrays[k];
    if (!(arrays[k]->shape() == shape) || !arrays[k]->is_contiguous()) {
      if (copies.empty()) copies.reserve(arrays.size());  // the addresses taken stay valid
      const ArrayCore& copy = copies.emplace_back(new_array(shape, arrays[k]->dtype(), run.exec));
      copy_into(broadcast_to(*arrays[k], shape), copy);
      accessed[k] = &copy;
    }
    run.parameters[k] = static_cast<unsigned char*>(accessed[k]->raw_data());
  }
  accessed[arrays.size()] = &out;
  order_access(run.exec, std::span(accessed.data(), arrays.size() + 1));
}

// f(identity, combine) of the reduction, as the built-in reduction has them (kernels/reduction_dispatch.hpp).
template <class T, class F>
T with_monoid(Reduction reduction, const F& f) {
  switch (reduction) {
    case Reduction::sum: return f(T(0), kernels::Add{});
    case Reduction::prod: return f(T(1), kernels::Multiply{});
    case Reduction::max: return f(kernels::lowest<T>(), kernels::Maximum{});
    default: return f(kernels::highest<T>(), kernels::Minimum{});
  }
}

// The built-in reduction sums a whole block pairwise: its halves down to leaves of kPairwiseLeaf elements,
// which are then the block's aligned runs of that length, combined by halves.
static_assert(kReduceBlock % kPairwiseLeaf == 0 &&
              (kReduceBlock / kPairwiseLeaf & (kReduceBlock / kPairwiseLeaf - 1)) == 0 &&
              kPairwiseLeaf % kReduceLanes == 0);

// A fused reduction by blocks of the built-in reduction (kReduceBlock elements), the same bits as reducing
// the whole: the blocks' results combined by halves, as the built-in reduction combines them. A whole block
// of a serial run is made leaf by leaf and each leaf reduced while in the L1 cache; another block is made
// into a buffer of its thread and reduced by the built-in reduction.
template <class T>
struct BlockReduction {
  HostRun& run;
  Reduction reduction;
  std::int64_t total;
  std::vector<T> partials;

  static void blocks(void* context, std::int64_t first, std::int64_t last) {
    auto& me = *static_cast<BlockReduction*>(context);
    std::vector<T> leaf(kPairwiseLeaf);
    std::vector<unsigned char> scratch(me.run.serial ? me.run.layout.per_element * kPairwiseLeaf : 0);
    const std::unique_ptr<SerialBlocks> leaves(
        me.run.serial ? new SerialBlocks(me.run, kPairwiseLeaf, {reinterpret_cast<unsigned char*>(leaf.data()), 0, 0},
                                         scratch.data())
                      : nullptr);
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t begin = b * kReduceBlock, n = std::min(kReduceBlock, me.total - begin);
      me.partials[static_cast<std::size_t>(b)] =
          leaves && n == kReduceBlock ? me.by_leaves(*leaves, leaf.data(), begin) : me.through_buffer(begin, n);
    }
  }

  T by_leaves(const SerialBlocks& leaves, const T* leaf, std::int64_t begin) const {
    return with_monoid<T>(reduction, [&](T identity, auto combine) {
      std::array<T, kReduceBlock / kPairwiseLeaf> results;
      for (std::size_t k = 0; k < results.size(); ++k) {
        const std::int64_t at = begin + static_cast<std::int64_t>(k) * kPairwiseLeaf;
        leaves.run(at, at + kPairwiseLeaf);
        const auto load = [leaf, at](std::int64_t j) { return leaf[j - at]; };
        results[k] = pairwise_leaf(load, at, at + kPairwiseLeaf, identity, combine);
      }
      const auto result = [&](std::int64_t k) { return results[static_cast<std::size_t>(k)]; };
      return combine_halves<T>(result, 0, static_cast<std::int64_t>(results.size()), combine);
    });
  }

  T through_buffer(std::int64_t begin, std::int64_t n) const {
    const ArrayCore values = new_array(Shape(n), dtype_of<T>, run.exec);
    HostRun into = run;
    into.output = static_cast<unsigned char*>(values.raw_data());
    into.output_begin = begin;
    run_blocks(&into, begin, begin + n);
    T partial;
    item_as(reduce(reduction, values, std::nullopt, false, 0), dtype_of<T>, &partial);
    return partial;
  }

  T combined(std::int64_t count) const {
    const auto partial = [&](std::int64_t b) { return partials[static_cast<std::size_t>(b)]; };
    return with_monoid<T>(reduction, [&](T, auto combine) { return combine_halves<T>(partial, 0, count, combine); });
  }
};

}  // namespace

ArrayCore run_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                            std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec) {
  const ArrayCore out = new_array(shape, graph.nodes()[static_cast<std::size_t>(graph.output())].type, exec);
  HostRun run{graph, order, layout, {}, static_cast<unsigned char*>(out.raw_data()), 0, exec, kernels_for(exec.device)};
  std::vector<ArrayCore> copies;
  prepare_arguments(run, arrays, shape, out, copies);
  run.serial = runs_serially(run);
  parallel_for(static_cast<std::int64_t>(out.size()), kParallelGrain, run_blocks, &run);
  return out;
}

bool reduces_in_blocks(const FusionGraph& graph, const Shape& shape) {
  const std::optional<FusedReduction>& r = graph.reduction();
  const xp::dtype type = graph.nodes()[static_cast<std::size_t>(graph.output())].type;
  const bool monoid = r && (r->reduction == Reduction::sum || r->reduction == Reduction::prod ||
                            r->reduction == Reduction::max || r->reduction == Reduction::min);
  const bool kept_type =
      type == xp::dtype::float32 || type == xp::dtype::float64 || type == xp::dtype::int64 || type == xp::dtype::uint64;
  return monoid && kept_type && r->axes.all() && numel(shape) > kReduceBlock;
}

ArrayCore reduce_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                               std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec) {
  const FusedReduction& r = *graph.reduction();
  const xp::dtype type = graph.nodes()[static_cast<std::size_t>(graph.output())].type;
  Shape result_shape;
  if (r.keepdims)
    for (int axis = 0; axis < shape.ndim(); ++axis) result_shape.push_back(1);
  const ArrayCore result = new_array(result_shape, type, exec);
  HostRun run{graph, order, layout, {}, nullptr, 0, exec, kernels_for(exec.device)};
  std::vector<ArrayCore> copies;
  prepare_arguments(run, arrays, shape, result, copies);
  run.serial = runs_serially(run);
  visit_dtype(type, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int64_t> ||
                  std::is_same_v<T, std::uint64_t>) {
      const std::int64_t total = numel(shape), count = (total + kReduceBlock - 1) / kReduceBlock;
      BlockReduction<T> blocks{run, r.reduction, total, std::vector<T>(static_cast<std::size_t>(count))};
      parallel_for(count, 1, &BlockReduction<T>::blocks, &blocks);
      *static_cast<T*>(result.raw_data()) = blocks.combined(count);
    }
  });
  return result;
}

}  // namespace xp::detail
