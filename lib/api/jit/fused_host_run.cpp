#include "api/jit/fused_host_run.hpp"

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

namespace xp::detail {

namespace {

// Elements per block: every operation's block of a thread stays in its core's L2 cache, and a block is
// long enough that an operation's call costs little beside its loop.
constexpr std::int64_t kBlock = 4096;
constexpr std::size_t kWidest = 16;  // bytes of the widest element (complex128)
constexpr std::size_t kStackScratch = 8192;  // small calls keep their blocks on the stack

struct HostRun {
  const FusionGraph& graph;
  std::span<const int> order;
  const HostBlockLayout& layout;
  std::array<unsigned char*, kMaxFusedArguments> parameters;  // each C-contiguous over the output's shape
  unsigned char* output;
  std::int64_t output_begin;  // the element of the whole output `output` holds
  Exec exec;
  DeviceKernels& kernels;
};

// One block: its first element, its length, and the scratch holding its operations' values.
struct Block {
  std::int64_t begin, n;
  unsigned char* scratch;
};

const FusionNode& node_at(const HostRun& run, int number) {
  return run.graph.nodes()[static_cast<std::size_t>(number)];
}

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
      unsigned char* into = block.scratch + (run.layout.converted + static_cast<std::size_t>(k) * kWidest) *
                                                static_cast<std::size_t>(block.n);
      run.kernels.copy_cast({data, from, Shape(block.n), Strides(1)}, {into, to, Shape(block.n), Strides(1)}, run.exec);
      data = into;
    }
    plan.data[slot] = data;
  }
  run.kernels.elementwise(ElementwiseCall{node.op, node.compute, node.scalars}, plan);
}

// The blocks of [begin, end), with scratch of this thread's own.
void run_blocks(void* context, std::int64_t begin, std::int64_t end) {
  const HostRun& run = *static_cast<const HostRun*>(context);
  const std::int64_t length = end - begin < kBlock ? end - begin : kBlock;
  const std::size_t bytes = run.layout.per_element * static_cast<std::size_t>(length);
  alignas(64) unsigned char on_stack[kStackScratch];
  const std::unique_ptr<unsigned char[]> on_heap(bytes > kStackScratch ? new unsigned char[bytes] : nullptr);
  ElementwisePlan plan;
  plan.exec = run.exec;
  plan.strides[0] = Strides(1);
  plan.contiguous = true;
  plan.fits_int32 = true;
  for (Block block{begin, length, on_heap ? on_heap.get() : on_stack}; block.begin < end; block.begin += length) {
    block.n = end - block.begin < length ? end - block.begin : length;
    plan.size = block.n;
    plan.shape = Shape(block.n);
    for (const int number : run.order) run_operation(run, number, block, plan);
  }
}

}  // namespace

HostBlockLayout host_block_layout(const FusionGraph& graph, std::span<const int> order) {
  HostBlockLayout layout;
  layout.offsets.assign(graph.nodes().size(), 0);
  for (const int number : order) {
    layout.offsets[static_cast<std::size_t>(number)] = layout.per_element;
    layout.per_element += kWidest;  // every block starts 16-byte aligned
  }
  layout.converted = layout.per_element;
  layout.per_element += 3 * kWidest;
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

// A fused reduction by blocks of the built-in reduction (kReduceBlock elements): each block's values
// made into a buffer of its thread and reduced by the built-in reduction (the pairwise sum a block of
// the whole gets), the blocks' results then combined by halves, as the built-in reduction combines them.
template <class T>
struct BlockReduction {
  HostRun& run;
  Reduction reduction;
  std::int64_t total;
  std::vector<T> partials;

  static void blocks(void* context, std::int64_t first, std::int64_t last) {
    auto& me = *static_cast<BlockReduction*>(context);
    const ArrayCore values = new_array(Shape(kReduceBlock), dtype_of<T>, me.run.exec);
    HostRun run = me.run;
    run.output = static_cast<unsigned char*>(values.raw_data());
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t begin = b * kReduceBlock, n = std::min(kReduceBlock, me.total - begin);
      run.output_begin = begin;
      run_blocks(&run, begin, begin + n);
      const std::array<Index, 1> part{Index(slice(0, n))};
      item_as(reduce(me.reduction, n == kReduceBlock ? values : index(values, part), std::nullopt, false, 0),
              dtype_of<T>, &me.partials[static_cast<std::size_t>(b)]);
    }
  }

  T combined(std::int64_t count) const {
    const auto partial = [&](std::int64_t b) { return partials[static_cast<std::size_t>(b)]; };
    switch (reduction) {
      case Reduction::sum: return combine_halves<T>(partial, 0, count, kernels::Add{});
      case Reduction::prod: return combine_halves<T>(partial, 0, count, kernels::Multiply{});
      case Reduction::max: return combine_halves<T>(partial, 0, count, kernels::Maximum{});
      default: return combine_halves<T>(partial, 0, count, kernels::Minimum{});
    }
  }
};

}  // namespace

ArrayCore run_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                            std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec) {
  const ArrayCore out = new_array(shape, graph.nodes()[static_cast<std::size_t>(graph.output())].type, exec);
  HostRun run{graph, order, layout, {}, static_cast<unsigned char*>(out.raw_data()), 0, exec, kernels_for(exec.device)};
  std::vector<ArrayCore> copies;
  prepare_arguments(run, arrays, shape, out, copies);
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
