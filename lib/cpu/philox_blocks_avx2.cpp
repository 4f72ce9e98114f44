// Compiled with -mavx2 and called only on CPUs that have it (philox_blocks()).
#include <immintrin.h>

#include "cpu/philox_blocks.hpp"

namespace xp::detail {

namespace {

// Each 64-bit lane holds one block's word in its low half: _mm256_mul_epu32 multiplies exactly those
// halves into full 64-bit products, so a round is two products, two shifts and four xors for four blocks.
// The high halves of the lanes carry junk that no low half ever reads.
struct FourBlocks {
  __m256i word[4];
};

constexpr int kGroups = 2;  // Two groups of four blocks in flight hide the products' latency.

void eight_blocks(kernels::PhiloxKey key, std::uint64_t first, std::uint32_t* words) {
  FourBlocks blocks[kGroups];
  for (int g = 0; g < kGroups; ++g) {
    const __m256i counter =
        _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(first + 4 * g)), _mm256_set_epi64x(3, 2, 1, 0));
    blocks[g] = {{counter, _mm256_srli_epi64(counter, 32), _mm256_setzero_si256(), _mm256_setzero_si256()}};
  }
  const __m256i multiplier0 = _mm256_set1_epi64x(0xD2511F53), multiplier1 = _mm256_set1_epi64x(0xCD9E8D57);
  const __m256i weyl0 = _mm256_set1_epi64x(0x9E3779B9), weyl1 = _mm256_set1_epi64x(0xBB67AE85);
  __m256i key0 = _mm256_set1_epi64x(key.low), key1 = _mm256_set1_epi64x(key.high);
  for (int round = 0; round < 10; ++round) {
    for (FourBlocks& b : blocks) {
      const __m256i product0 = _mm256_mul_epu32(b.word[0], multiplier0);
      const __m256i product1 = _mm256_mul_epu32(b.word[2], multiplier1);
      b.word[0] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(product1, 32), b.word[1]), key0);
      b.word[2] = _mm256_xor_si256(_mm256_xor_si256(_mm256_srli_epi64(product0, 32), b.word[3]), key1);
      b.word[1] = product1;
      b.word[3] = product0;
    }
    key0 = _mm256_add_epi32(key0, weyl0);
    key1 = _mm256_add_epi32(key1, weyl1);
  }
  // Lanes to words: (w0 | w1 << 32) and (w2 | w3 << 32) per block, interleaved into block order.
  const __m256i low = _mm256_set1_epi64x(0xFFFFFFFF);
  for (int g = 0; g < kGroups; ++g) {
    const __m256i* w = blocks[g].word;
    const __m256i words01 = _mm256_or_si256(_mm256_and_si256(w[0], low), _mm256_slli_epi64(w[1], 32));
    const __m256i words23 = _mm256_or_si256(_mm256_and_si256(w[2], low), _mm256_slli_epi64(w[3], 32));
    const __m256i even = _mm256_unpacklo_epi64(words01, words23), odd = _mm256_unpackhi_epi64(words01, words23);
    auto* out = reinterpret_cast<__m256i*>(words + 16 * g);
    _mm256_storeu_si256(out, _mm256_permute2x128_si256(even, odd, 0x20));
    _mm256_storeu_si256(out + 1, _mm256_permute2x128_si256(even, odd, 0x31));
  }
}

}  // namespace

void philox_blocks_avx2(kernels::PhiloxKey key, std::uint64_t first, std::int64_t count, std::uint32_t* words) {
  std::int64_t i = 0;
  for (; i + 8 <= count; i += 8) eight_blocks(key, first + static_cast<std::uint64_t>(i), words + 4 * i);
  philox_blocks_scalar(key, first + static_cast<std::uint64_t>(i), count - i, words + 4 * i);
}

}  // namespace xp::detail
