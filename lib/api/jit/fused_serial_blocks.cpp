#include "api/jit/fused_serial_blocks.hpp"

#include <algorithm>
#include <cstring>

#include "core/elementwise_checks.hpp"

namespace xp::detail {

namespace {

// The loop of node `number` when it has one that reads its inputs as they are.
DeviceKernels::SerialLoop serial_loop_of(const FusionGraph& graph, int number, const DeviceKernels& kernels) {
  const FusionNode& node = graph.nodes()[static_cast<std::size_t>(number)];
  if (node.cast || node.arity > 2 || !keeps_dtype(node.op, node.compute) || node.type != node.compute) return nullptr;
  for (int k = 0; k < node.arity; ++k) {
    const int source = node.inputs[static_cast<std::size_t>(k)];
    if (source >= 0 && graph.nodes()[static_cast<std::size_t>(source)].type != node.compute) return nullptr;
  }
  return kernels.serial_loop(node.op, node.compute);
}

}  // namespace

bool runs_serially(const FusionGraph& graph, std::span<const int> order, const DeviceKernels& kernels) {
  return std::all_of(order.begin(), order.end(),
                     [&](int number) { return serial_loop_of(graph, number, kernels) != nullptr; });
}

SerialBlocks::SerialBlocks(const HostRun& run, std::int64_t length, BlockPlace output, unsigned char* scratch)
    : length_(length), scratch_(scratch) {
  steps_.reserve(run.order.size());
  std::size_t scalar_slot = run.layout.scalars;
  for (const int number : run.order) {
    const FusionNode& node = node_at(run, number);
    Step& step = steps_.emplace_back(Step{serial_loop_of(run.graph, number, run.kernels), node.arity, {}});
    step.places[0] = place_of(run, number, output);
    for (int k = 0; k < node.arity; ++k) {
      const int source = node.inputs[static_cast<std::size_t>(k)];
      step.places[static_cast<std::size_t>(k + 1)] =
          source >= 0 ? place_of(run, source, output) : scalar_block(node, k, scalar_slot);
    }
  }
}

BlockPlace SerialBlocks::place_of(const HostRun& run, int number, BlockPlace output) const {
  const FusionNode& node = node_at(run, number);
  if (node.parameter >= 0)
    return {run.parameters[static_cast<std::size_t>(node.parameter)], 0,
            static_cast<std::ptrdiff_t>(itemsize(node.type))};
  if (number == run.graph.output()) return output;
  return {scratch_ + run.layout.offsets[static_cast<std::size_t>(number)] * static_cast<std::size_t>(length_), 0, 0};
}

// Scalar k of `node` repeated over a block of the scratch's next scalar slot (the loops read arrays only).
BlockPlace SerialBlocks::scalar_block(const FusionNode& node, int k, std::size_t& slot) const {
  unsigned char* block = scratch_ + slot * static_cast<std::size_t>(length_);
  slot += kWidestElement;
  const std::size_t size = itemsize(node.compute);
  for (std::int64_t j = 0; j < length_; ++j)
    std::memcpy(block + static_cast<std::size_t>(j) * size, node.scalars[static_cast<std::size_t>(k)].bytes, size);
  return {block, 0, 0};
}

void SerialBlocks::run(std::int64_t begin, std::int64_t end) const {
  std::array<const void*, 2> inputs{};
  for (std::int64_t at = begin; at < end; at += length_) {
    const std::int64_t n = std::min(length_, end - at);
    for (const Step& step : steps_) {
      for (std::size_t k = 0; k < static_cast<std::size_t>(step.arity); ++k) inputs[k] = step.places[k + 1].at(at);
      step.loop(step.places[0].at(at), inputs.data(), n);
    }
  }
}

}  // namespace xp::detail
