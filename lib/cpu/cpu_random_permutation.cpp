// A random permutation on host devices: the stable order of the generator's uint64 keys, as GPUs
// compute it by a radix sort, but in two passes over memory instead of eight. The keys are uniform, so
// their top bits split [0, n) into buckets of nearly equal size: one pass counts them (keys made, not
// stored), one scatters each key's next bits with its index below them, one 8-byte value an element, into
// its bucket in index order (the keys made again, which costs less than a pass over stored ones), and each
// bucket, in a core's L2, is sorted by an in-cache counting pass and an insertion sort of what that left
// unordered. Values equal above their index (keys equal in their top 64 - log2 n bits: about once in 2^40
// draws at n = 2^22) are ordered by their whole keys, made once more.
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
  int bucket_bits, index_bits;
  PhiloxBlocks make_blocks;

  std::int64_t bucket_of(std::uint64_t key) const { return bucket_bits == 0 ? 0 : key >> (64 - bucket_bits); }
  std::uint64_t index_mask() const { return (std::uint64_t{1} << index_bits) - 1; }
  // What orders a bucket: the key's bits after the bucket's, down to index_bits, then the index.
  std::uint64_t packed(std::uint64_t key, std::int64_t i) const {
    return ((key << bucket_bits) & ~index_mask()) | static_cast<std::uint64_t>(i);
  }

  // Key i: the draw's sample i of integers over uint64's full range (two to a block).
  std::uint64_t key_of(std::int64_t i) const {
    const kernels::Philox4x32 block = philox.block(first_block + static_cast<std::uint64_t>(i / 2));
    std::uint64_t key;
    kernels::IntegerSampler<std::uint64_t, 64>{0, 0}.try_first(block.word + 2 * (i % 2), key);
    return key;
  }

  // f(i, key i) for i in [begin, end), in order, the keys made a batch of blocks at a time.
  template <class F>
  void for_keys(std::int64_t begin, std::int64_t end, F&& f) const {
    const kernels::IntegerSampler<std::uint64_t, 64> sampler{0, 0};
    std::uint32_t words[2 * kKeysPerBatch];
    for (std::int64_t batch = begin / 2 * 2; batch < end; batch += kKeysPerBatch) {
      const std::int64_t keys = std::min(kKeysPerBatch, (end - batch + 1) / 2 * 2);
      make_blocks(philox, first_block + static_cast<std::uint64_t>(batch / 2), keys / 2, words);
      for (std::int64_t i = std::max(batch, begin); i < std::min(batch + keys, end); ++i) {
        std::uint64_t key;
        sampler.try_first(words + 2 * (i - batch), key);  // always accepted over the full range
        f(i, key);
      }
    }
  }
};

// Bucket bits for n keys: about 16K keys a bucket (128 KB, in a core's L2), at most 256 buckets: the
// scatter then writes 256 streams, whose pages the TLB holds (at 2048, each store missed it).
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

// Stable insertion sort of values[begin, end) by key(value): moves each only past the few it follows.
template <class Key>
void insertion_sort(std::uint64_t* values, std::int64_t begin, std::int64_t end, Key&& key) {
  for (std::int64_t i = begin + 1; i < end; ++i) {
    const std::uint64_t value = values[i];
    std::int64_t j = i;
    for (; j > begin && key(values[j - 1]) > key(value); --j) values[j] = values[j - 1];
    values[j] = value;
  }
}

// Runs of values equal above their index (index order) into the order of their whole keys.
void order_ties(std::uint64_t* values, std::int64_t m, const PermutationRun& run) {
  const std::uint64_t above = ~run.index_mask();
  for (std::int64_t i = 0; i < m;) {
    std::int64_t j = i + 1;
    while (j < m && (values[j] & above) == (values[i] & above)) ++j;
    if (j - i > 1) {
      const auto key = [&](std::uint64_t value) { return run.key_of(static_cast<std::int64_t>(value & ~above)); };
      insertion_sort(values, i, j, key);
    }
    i = j;
  }
}

// One bucket's values (index order) into out, as indices in key order: a stable counting pass on their
// top bits (about eight values a digit), then the insertion sort.
void sort_bucket(const std::uint64_t* values, std::int64_t m, const PermutationRun& run,
                 std::vector<std::uint64_t>& sorted, std::vector<std::uint32_t>& start, std::int64_t* out) {
  const int digit_bits = std::clamp(static_cast<int>(std::bit_width(static_cast<std::uint64_t>(m))) + 0, 0, 16);
  const auto digit = [&](std::uint64_t value) { return digit_bits == 0 ? 0 : value >> (64 - digit_bits); };
  start.assign((std::size_t{1} << digit_bits) + 1, 0);
  for (std::int64_t i = 0; i < m; ++i) ++start[digit(values[i]) + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  sorted.resize(static_cast<std::size_t>(m));
  for (std::int64_t i = 0; i < m; ++i) sorted[start[digit(values[i])]++] = values[i];
  insertion_sort(sorted.data(), 0, m, [](std::uint64_t value) { return value; });
  order_ties(sorted.data(), m, run);
  const std::uint64_t index = run.index_mask();
  for (std::int64_t i = 0; i < m; ++i) out[i] = static_cast<std::int64_t>(sorted[i] & index);
}

void permute(std::int64_t* out, const PermutationRun& run, MemoryPool& scratch, const Exec& exec) {
  const Allocation buffer = scratch.malloc(static_cast<std::size_t>(run.n) * sizeof(std::uint64_t), exec.stream);
  auto* const values = static_cast<std::uint64_t*>(buffer.get());
  const int parts = run.n < 2 * kParallelGrain ? 1 : cpu_threads();
  std::vector<std::int64_t> bucket_begin;
  std::vector<std::vector<std::int64_t>> offsets = bucket_offsets(run, parts, bucket_begin);
  for_parts(run.n, parts, [&](std::int64_t part, std::int64_t begin, std::int64_t end) {
    std::vector<std::int64_t>& next = offsets[static_cast<std::size_t>(part)];
    run.for_keys(begin, end,
                 [&](std::int64_t i, std::uint64_t key) { values[next[run.bucket_of(key)]++] = run.packed(key, i); });
  });
  const std::int64_t buckets = std::int64_t{1} << run.bucket_bits;
  for_parts(buckets, std::min<std::int64_t>(buckets, parts), [&](std::int64_t, std::int64_t first, std::int64_t last) {
    std::vector<std::uint64_t> sorted;
    std::vector<std::uint32_t> start;
    for (std::int64_t b = first; b < last; ++b) {
      const std::int64_t at = bucket_begin[b];
      sort_bucket(values + at, bucket_begin[b + 1] - at, run, sorted, start, out + at);
    }
  });
}

}  // namespace

void cpu_random_permutation(std::int64_t* out, std::int64_t n, const RandomCall& keys, MemoryPool& scratch,
                            const Exec& exec) {
  if (n == 0) return;
  const PermutationRun run{kernels::philox_key(keys),
                           keys.first_block,
                           n,
                           bucket_bits_for(n),
                           static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1))),
                           philox_blocks()};
  permute(out, run, scratch, exec);
}

}  // namespace xp::detail
