#pragma once
// Many consecutive blocks of a Philox stream at once, for the CPU's sample loops: where the CPU has
// AVX2, eight blocks go through the ten rounds together (twice the scalar rate on one core: the
// rounds' 32x32-bit products are what a block costs). The same bits as kernels::PhiloxKey::block.
#include <cstdint>

#include "xp/kernels/philox.hpp"

namespace xp::detail {

// words[4 * i + k] = word k of key.block(first + i), for i < count.
using PhiloxBlocks = void (*)(kernels::PhiloxKey key, std::uint64_t first, std::int64_t count, std::uint32_t* words);

// The fastest this CPU has.
PhiloxBlocks philox_blocks() noexcept;

void philox_blocks_scalar(kernels::PhiloxKey key, std::uint64_t first, std::int64_t count, std::uint32_t* words);
// For AVX2 CPUs only (philox_blocks_avx2.cpp, compiled for AVX2).
void philox_blocks_avx2(kernels::PhiloxKey key, std::uint64_t first, std::int64_t count, std::uint32_t* words);

}  // namespace xp::detail
