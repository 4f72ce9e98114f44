#include "api/jit/fused_host_run.hpp"
#include "api/jit/fused_serial_blocks.hpp"

#include <algorithm>
#include <array>
#include <memory>
#include <vector>

#include "api/array/array_factory.hpp"
#include "api/array/device_services.hpp"
#include "core/elementwise_checks.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

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

void run_host_blocks(void* context, std::int64_t begin, std::int64_t end) {
  const HostRun& run = *static_cast<const HostRun*>(context);
  const std::int64_t length = std::min(run.serial ? kSerialBlock : kBlock, end - begin);
  with_scratch(run.layout.per_element * static_cast<std::size_t>(length), [&](unsigned char* scratch) {
    if (!run.serial) return run_planned_blocks(run, scratch, begin, end, length);
    const auto size = static_cast<std::ptrdiff_t>(itemsize(node_at(run, run.graph.output()).type));
    SerialBlocks(run, length, {run.output, run.output_begin, size}, scratch).run(begin, end);
  });
}

ArrayCore run_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                            std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec) {
  const ArrayCore out = new_array(shape, graph.nodes()[static_cast<std::size_t>(graph.output())].type, exec);
  HostRun run{graph, order, layout, {}, static_cast<unsigned char*>(out.raw_data()), 0, exec, kernels_for(exec.device)};
  std::vector<ArrayCore> copies;
  prepare_arguments(run, arrays, shape, out, copies);
  run.serial = runs_serially(graph, order, run.kernels);
  parallel_for(static_cast<std::int64_t>(out.size()), kParallelGrain, run_host_blocks, &run);
  return out;
}

}  // namespace xp::detail
