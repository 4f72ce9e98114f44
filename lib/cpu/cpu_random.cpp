#include "cpu/cpu_random.hpp"

#include "core/ziggurat_tables.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/kernels/random_dispatch.hpp"

namespace xp::detail {

namespace {

// Blocks of the generator's stream per chunk of work: a block makes up to 4 samples.
constexpr std::int64_t kBlockGrain = kParallelGrain / 4;

template <class Sampler>
struct SampleRun {
  const Sampler& sampler;
  kernels::PhiloxKey key;
  std::uint64_t first_block;
  std::int64_t size;
  typename Sampler::result_type* out;
};

}  // namespace

void cpu_random(void* out, std::int64_t size, xp::dtype type, const RandomCall& call, const Exec&) {
  if (size == 0) return;
  kernels::with_random_sampler(call, type, &ziggurat_tables(), [&]<class Sampler>(const Sampler& sampler) {
    SampleRun<Sampler> run{sampler, kernels::philox_key(call), call.first_block, size,
                           static_cast<typename Sampler::result_type*>(out)};
    parallel_for(
        kernels::blocks_for<Sampler>(size), kBlockGrain,
        [](void* context, std::int64_t begin, std::int64_t end) {
          const auto& r = *static_cast<const SampleRun<Sampler>*>(context);
          for (std::int64_t block = begin; block < end; ++block)
            kernels::sample_block(r.sampler, r.key, r.first_block, block, r.size, r.out);
        },
        &run);
  });
}

}  // namespace xp::detail
