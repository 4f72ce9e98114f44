#pragma once
// xp::fuse on host devices: the traced operations over blocks of the output, each block through the
// built-in loops (DeviceKernels::elementwise and copy_cast, or the serial loops of fused_serial_blocks.hpp)
// one operation after another while it stays in the cache. The same loops as the unfused calls, so the
// same bits, vector math included.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/device_kernels.hpp"
#include "core/fusion_graph.hpp"
#include "xp/detail/exec.hpp"
#include "xp/ndarray.hpp"

namespace xp::detail {

inline constexpr std::size_t kMaxFusedArguments = 32;
inline constexpr std::size_t kWidestElement = 16;  // bytes of the widest element (complex128)

// Where a thread's scratch keeps each operation's block, in bytes per element of the block (each
// operation's element size, three slots for inputs converted to another dtype, then one per scalar
// operand for the serial loops): made once per trace.
struct HostBlockLayout {
  std::vector<std::size_t> offsets;  // by node number
  std::size_t converted = 0;  // where the three conversion slots start
  std::size_t scalars = 0;  // where the scalars' slots start, in the evaluation order
  std::size_t per_element = 0;  // the whole scratch
};
HostBlockLayout host_block_layout(const FusionGraph& graph, std::span<const int> order);

// A fused run on a host device: the trace, its arguments' data, where its output goes.
struct HostRun {
  const FusionGraph& graph;
  std::span<const int> order;
  const HostBlockLayout& layout;
  std::array<unsigned char*, kMaxFusedArguments> parameters;  // each C-contiguous over the output's shape
  unsigned char* output;
  std::int64_t output_begin;  // the element of the whole output `output` holds
  Exec exec;
  DeviceKernels& kernels;
  bool serial = false;  // every operation has a serial loop (fused_serial_blocks.hpp)
};

inline const FusionNode& node_at(const HostRun& run, int number) {
  return run.graph.nodes()[static_cast<std::size_t>(number)];
}

// The output node of `graph` over `arrays` (its parameters, on exec's host device), broadcast to `shape`;
// `order` is graph.evaluation_order().
ArrayCore run_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                            std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec);

// For the runs of fused_host_reduction.cpp:
// `arrays` as C-contiguous arrays of `shape` (copies of those that are not, kept in `copies`) in
// run.parameters, their access and `out`'s ordered before the call's work;
void prepare_arguments(HostRun& run, std::span<const ArrayCore* const> arrays, const Shape& shape, const ArrayCore& out,
                       std::vector<ArrayCore>& copies);
// the output's elements [begin, end) of the run at `context` (a HostRun), as a parallel_for body.
void run_host_blocks(void* context, std::int64_t begin, std::int64_t end);

}  // namespace xp::detail
