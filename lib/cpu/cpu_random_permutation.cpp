// A random permutation on host devices: the stable order of the generator's uint64 keys, as GPUs
// compute it by a radix sort, but in two passes over memory instead of eight. The keys are uniform, so
// their top bits split [0, n) into buckets of nearly equal size: one pass counts them (keys made, not
// stored), one scatters every key and index into its bucket in index order (the keys made again, which
// costs less than a pass over them), and each bucket, a few thousand pairs in the core's cache, is sorted
// by an in-cache counting pass on the next bits and an insertion sort of what the counting left unordered.
#include <algorithm>
#include <bit>
#include <numeric>
#include <vector>

#include "cpu/cpu_radix_sort.hpp"
#include "cpu/cpu_random.hpp"
#include "cpu/philox_blocks.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

namespace {

constexpr std::int64_t kKeysPerBatch = 128;  // two keys a Philox block

struct PermutationRun {
  kernels::PhiloxKey philox;
  std::uint64_t first_block;
  std::int64_t n;
  int bucket_bits;
  PhiloxBlocks make_blocks;

  std::int64_t bucket_of(std::uint64_t key) const { return bucket_bits == 0 ? 0 : key >> (64 - bucket_bits); }

  // f(i, key of element i) for i in [begin, end), in order: key i is the draw's sample i of
  // integers over uint64's full range (two to a block).
  template <class F>
  void for_keys(std::int64_t begin, std::int64_t end, F&& f) const {
    const kernels::IntegerSampler<std::uint64_t, 64> sampler{0, 0};
    std::uint32_t words[2 * kKeysPerBatch];
    for (std::int64_t batch = begin / 2 * 2; batch < end; batch += kKeysPerBatch) {
      const std::int64_t keys = std::min(kKeysPerBatch, (end - batch + 1) / 2 * 2);
      make_blocks(philox, first_block + static_cast<std::uint64_t>(batch / 2), keys / 2, words);
      for (std::int64_t i = std::max(batch, begin); i < std::min(batch + keys, end); ++i) {
        std::uint64_t value;
        sampler.try_first(words + 2 * (i - batch), value);  // always accepted over the full range
        f(i, value);
      }
    }
  }
};

// Bucket bits for n keys: about 16K keys a bucket (192 KB of pairs, in a core's L2), at most 256
// buckets: the scatter then writes 512 streams, whose pages the TLB holds (at 2048, each store missed it).
int bucket_bits_for(std::int64_t n) {
  return std::clamp(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n))) - 15, 0, 8);
}

// Each part's count of every bucket, turned into where its first key of each bucket goes: buckets in
// order, and within one the parts in order (so each bucket keeps the keys' index order).
std::vector<std::vector<std::int64_t>> bucket_offsets(const PermutationRun& run, int parts,
                                                      std::vector<std::int64_t>& bucket_begin) {
  const std::int64_t buckets = std::int64_t{1} << run.bucket_bits;
  std::vector<std::vector<std::int64_t>> offsets(static_cast<std::size_t>(parts));
  for_parts(run.n, parts, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t>& count = offsets[static_cast<std::size_t>(part)];
    count.assign(static_cast<std::size_t>(buckets), 0);
    run.for_keys(begin, end, [&](std::int64_t, std::uint64_t key) { ++count[run.bucket_of(key)]; });
  });
  bucket_begin.assign(static_cast<std::size_t>(buckets + 1), 0);
  std::int64_t at = 0;
  for (std::int64_t b = 0; b < buckets; ++b) {
    bucket_begin[b] = at;
    for (auto& count : offsets) {
      const std::int64_t keys = count[b];
      count[b] = at;
      at += keys;
    }
  }
  bucket_begin[buckets] = at;
  return offsets;
}

// One bucket's keys and indices (index order) into out, in key order: a stable counting pass on the
// bits below the bucket's (about four keys per digit), then an insertion sort, which moves a key only
// past the few of its digit.
template <class Index>
void sort_bucket(const std::uint64_t* keys, const Index* indices, std::int64_t m, int bucket_bits,
                 std::vector<std::uint64_t>& sorted_keys, std::vector<Index>& sorted_indices, std::int64_t* out) {
  const int digit_bits = std::clamp(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(m))) - 5, 0, 10);
  const auto digit = [&](std::uint64_t key) { return digit_bits == 0 ? 0 : (key << bucket_bits) >> (64 - digit_bits); };
  std::vector<std::int64_t> start((std::size_t{1} << digit_bits) + 1, 0);
  for (std::int64_t i = 0; i < m; ++i) ++start[digit(keys[i]) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  sorted_keys.resize(static_cast<std::size_t>(m));
  sorted_indices.resize(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) {
    const std::int64_t to = start[digit(keys[i])]++;
    sorted_keys[to] = keys[i];
    sorted_indices[to] = indices[i];
  }
  for (std::int64_t i = 1; i < m; ++i) {
    const std::uint64_t key = sorted_keys[i];
    const Index index = sorted_indices[i];
    std::int64_t j = i;
    for (; j > 0 && sorted_keys[j - 1] > key; --j) {
      sorted_keys[j] = sorted_keys[j - 1];
      sorted_indices[j] = sorted_indices[j - 1];
    }
    sorted_keys[j] = key;
    sorted_indices[j] = index;
  }
  for (std::int64_t i = 0; i < m; ++i) out[i] = static_cast<std::int64_t>(sorted_indices[i]);
}

template <class Index>
void permute(std::int64_t* out, const PermutationRun& run, MemoryPool& scratch, const Exec& exec) {
  const Allocation pairs = scratch.malloc(static_cast<std::size_t>(run.n) * (8 + sizeof(Index)), exec.stream);
  auto* const keys = static_cast<std::uint64_t*>(pairs.get());
  auto* const indices = reinterpret_cast<Index*>(keys + run.n);
  const int parts = run.n < 2 * kParallelGrain ? 1 : cpu_threads();
  std::vector<std::int64_t> bucket_begin;
  std::vector<std::vector<std::int64_t>> offsets = bucket_offsets(run, parts, bucket_begin);
  for_parts(run.n, parts, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t>& next = offsets[static_cast<std::size_t>(part)];
    run.for_keys(begin, end, [&](std::int64_t i, std::uint64_t key) {
      const std::int64_t to = next[run.bucket_of(key)]++;
      keys[to] = key;
      indices[to] = static_cast<Index>(i);
    });
  });
  const std::int64_t buckets = std::int64_t{1} << run.bucket_bits;
  for_parts(buckets, std::min<std::int64_t>(buckets, parts), [&](std::int64_t, std::int64_t first, std::int64_t last) {
    std::vector<std::uint64_t> sorted_keys;
    std::vector<Index> sorted_indices;
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t at = bucket_begin[b], m = bucket_begin[b + 1] - at;
      sort_bucket(keys + at, indices + at, m, run.bucket_bits, sorted_keys, sorted_indices, out + at);
    }
  });
}

}  // namespace

void cpu_random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                            const Exec& exec) {
  if (n == 0) return;
  const PermutationRun run{kernels::philox_key(keys), keys.first_block, n, bucket_bits_for(n), philox_blocks()};
  if (n <= (std::int64_t{1} << 32)) permute<std::uint32_t>(out, run, scratch, exec);
  else permute<std::uint64_t>(out, run, scratch, exec);
}

}  // namespace xp::detail
