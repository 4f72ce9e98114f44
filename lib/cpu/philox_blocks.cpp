#include "cpu/philox_blocks.hpp"

namespace xp::detail {

void philox_blocks_scalar(kernels::PhiloxKey key, std::uint64_t first, std::int64_t count, std::uint32_t* words) {
  for (std::int64_t i = 0; i < count; ++i) {
    const kernels::Philox4x32 block = key.block(first + static_cast<std::uint64_t>(i));
    for (int k = 0; k < 4; ++k) words[4 * i + k] = block.word[k];
  }
}

PhiloxBlocks philox_blocks() noexcept {
  static const PhiloxBlocks fastest = __builtin_cpu_supports("avx2") ? philox_blocks_avx2 : philox_blocks_scalar;
  return fastest;
}

}  // namespace xp::detail
