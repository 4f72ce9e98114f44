#include "cpu/cpu_random.hpp"

#include <algorithm>

#include "core/ziggurat_tables.hpp"
#include "cpu/philox_blocks.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

namespace {

// Blocks of the generator's stream per chunk of work: a block makes up to 8 samples.
constexpr std::int64_t kBlockGrain = kParallelGrain / 4;
// Blocks made at once before their samples: their words stay in L1.
constexpr std::int64_t kBlockBatch = 64;

template <class Sampler>
struct SampleRun {
  const Sampler& sampler;
  kernels::PhiloxKey key;
  std::uint64_t first_block;
  std::int64_t size;
  typename Sampler::result_type* out;
  PhiloxBlocks make_blocks;
};

template <class Sampler>
void sample_blocks(const SampleRun<Sampler>& r, std::int64_t begin, std::int64_t end) {
  std::uint32_t words[4 * kBlockBatch];
  for (std::int64_t batch = begin; batch < end; batch += kBlockBatch) {
    const std::int64_t count = std::min(kBlockBatch, end - batch);
    const std::uint64_t counter = r.first_block + static_cast<std::uint64_t>(batch);
    r.make_blocks(r.key, counter, count, words);
    kernels::sample_blocks_of<kBlockBatch>(r.sampler, r.key, counter, static_cast<int>(count), words,
                                           batch * kernels::kPerBlock<Sampler>, r.size, r.out);
  }
}

}  // namespace

void cpu_random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec&) {
  if (size == 0) return;
  kernels::with_random_sampler(call, type, &ziggurat_tables(), [&]<class Sampler>(const Sampler& sampler) {
    SampleRun<Sampler> run{sampler,
                           kernels::philox_key(call),
                           call.first_block,
                           size,
                           static_cast<typename Sampler::result_type*>(out),
                           philox_blocks()};
    parallel_for(
        kernels::blocks_for<Sampler>(size), kBlockGrain,
        [](void* context, std::int64_t begin, std::int64_t end) {
          sample_blocks(*static_cast<const SampleRun<Sampler>*>(context), begin, end);
        },
        &run);
  });
}

}  // namespace xp::detail
