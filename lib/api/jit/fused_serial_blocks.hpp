#pragma once
// xp::fuse on host devices when every traced operation has a serial loop (DeviceKernels::serial_loop: an
// operation computed and stored in the dtype of its array inputs, as arithmetic and the math functions of
// one dtype are). Each operation's loop is then a function pointer called per block, a few nanoseconds
// against a plan's hundreds, so blocks can be short: short enough that the loads of the next block overlap
// the arithmetic of this one, which blocks of thousands of elements serialise (the exp of a whole block,
// then its loads). The same loops as the unfused calls', so the same bits.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "api/jit/fused_host_run.hpp"

namespace xp::detail {

// Elements per block. exp(z + 2) * y over 2^24 float32 on 2 threads: blocks of 4096 elements 21 ms, 512
// 21 ms, 256 15.5 ms, 128 16 ms (the calls' cost); a loop written by hand for 8 elements at a time 14 ms.
inline constexpr std::int64_t kSerialBlock = 256;

// Whether every operation of `order` has a serial loop on the device of `kernels`.
bool runs_serially(const FusionGraph& graph, std::span<const int> order, const DeviceKernels& kernels);

// Where a value is for the block starting at element `at`: base + (at - origin) * step (step 0: the same
// place for every block, in the thread's scratch).
struct BlockPlace {
  unsigned char* base;
  std::int64_t origin;
  std::ptrdiff_t step;
  unsigned char* at(std::int64_t element) const { return base + (element - origin) * step; }
};

// A thread's serial run: each operation's loop with its places, in the thread's scratch (each operation's
// block, the scalars as blocks: run.layout.per_element bytes per element of a block).
class SerialBlocks {
 public:
  // For blocks of at most `length` elements, writing the output node's values at `output`.
  SerialBlocks(const HostRun& run, std::int64_t length, BlockPlace output, unsigned char* scratch);
  // Blocks of `length` elements from `begin` to `end` (the last one shorter).
  void run(std::int64_t begin, std::int64_t end) const;

 private:
  struct Step {
    DeviceKernels::SerialLoop loop;
    int arity;
    std::array<BlockPlace, 3> places;  // the output, then the inputs
  };

  BlockPlace place_of(const HostRun& run, int number, BlockPlace output) const;
  BlockPlace scalar_block(const FusionNode& node, int k, std::size_t& slot) const;

  std::int64_t length_;
  unsigned char* scratch_;
  std::vector<Step> steps_;
};

}  // namespace xp::detail
