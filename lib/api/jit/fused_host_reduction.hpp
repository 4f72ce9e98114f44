#pragma once
// xp::fuse's trailing reduction on host devices in one pass: the fused values made block by block of the
// built-in reduction's tree and reduced there, never stored whole. The built-in reduction of a run (the
// elements one output reduces, contiguous in the fused output when the reduced axes are its last ones)
// splits it into blocks of kReduceBlock elements, each summed pairwise down to leaves of at most
// kPairwiseLeaf elements, then combines the blocks by halves; the one pass walks the same tree, so the
// result has the same bits.
#include <span>

#include "api/jit/fused_host_run.hpp"

namespace xp::detail {

// Whether the graph's reduction runs in one pass on the host: a sum, product, max or min in a dtype the
// reduction keeps (float32, float64, int64, uint64: the partials are of it), or a mean of float32 or
// float64 (the sum, divided as the built-in mean divides it), over more than one block of
// elements, reducing every axis, or the last axes by runs of a leaf or more when every operation has a
// serial loop (fused_serial_blocks.hpp).
bool reduces_in_one_pass(const FusionGraph& graph, std::span<const int> order, const Shape& shape,
                         const DeviceKernels& kernels);

// The graph's reduction of its output over `arrays` broadcast to `shape`, in one pass. A serial run makes
// each leaf into a buffer of the L1 cache and reduces it there; another makes each block into a buffer
// and reduces it with the built-in reduction.
ArrayCore reduce_fused_on_host(const FusionGraph& graph, std::span<const int> order, const HostBlockLayout& layout,
                               std::span<const ArrayCore* const> arrays, const Shape& shape, const Exec& exec);

}  // namespace xp::detail
