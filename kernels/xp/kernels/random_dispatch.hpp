#pragma once
// From a random call to its sampler (host code of both backends), and the loop body both run: one
// block of the generator's stream into the samples that read it.
#include <concepts>
#include <cstdint>

#include "xp/detail/random_call.hpp"
#include "xp/dtype.hpp"
#include "xp/error.hpp"
#include "xp/host_device.hpp"
#include "xp/kernels/philox.hpp"
#include "xp/kernels/portable_math.hpp"
#include "xp/kernels/random_samplers.hpp"
#include "xp/kernels/rejection_samplers.hpp"

namespace xp::kernels {

// Samplers that can try a sample from its stream words alone, without a branch, say whether it came
// out: then a block whose samples all did needs no per-sample state (the common case by far; a
// sample that did not is computed again in full, from the same words, so the result is the same).
template <class Sampler>
concept TriesFirst = requires(const Sampler& s, const std::uint32_t* words, typename Sampler::result_type& value) {
  { s.try_first(words, value) } -> std::same_as<bool>;
};

// Samplers that take half a word a sample (HalfWordIntegerSampler).
template <class Sampler>
concept HalfWordSampler = Sampler::half_words;

template <class Sampler>
constexpr int per_block_of() {
  if constexpr (HalfWordSampler<Sampler>) return 8;
  else return 4 / Sampler::words;
}

template <class Sampler>
inline constexpr int kPerBlock = per_block_of<Sampler>();

// Every sample's first try from the words: rejected[i] where sample i did not come out (every sample,
// for samplers without a first try). Half-word samplers: sample i reads the high (i even) or low half of
// word i / 2. Flat loops over a batch of blocks, which a CPU vectorises or at least overlaps.
template <class Sampler>
XP_HOST_DEVICE inline void try_samples(const Sampler& shared, const std::uint32_t* words, int samples,
                                       typename Sampler::result_type* values, std::uint8_t* rejected) {
  // A copy the flags' stores cannot alias (bytes may alias anything), so its fields stay in registers.
  const Sampler sampler = shared;
  if constexpr (HalfWordSampler<Sampler>) {
    for (int k = 0; k < samples / 2; ++k) {
      rejected[2 * k] = !sampler.try_half(words[k] >> 16, values[2 * k]);
      rejected[2 * k + 1] = !sampler.try_half(words[k] & 0xffffu, values[2 * k + 1]);
    }
  } else if constexpr (TriesFirst<Sampler>) {
    for (int i = 0; i < samples; ++i) rejected[i] = !sampler.try_first(words + i * Sampler::words, values[i]);
  } else {
    for (int i = 0; i < samples; ++i) rejected[i] = 1;
  }
}

// Sample i of the batch in full (sample `index` of the draw): from its words, then its own stream; a
// half-word sample from its own stream only, the two halves of a word at attempts 2^31 apart.
template <class Sampler>
XP_HOST_DEVICE inline typename Sampler::result_type full_sample(const Sampler& sampler, PhiloxKey key,
                                                                std::uint64_t counter, const std::uint32_t* words,
                                                                int i, std::int64_t index) {
  if constexpr (HalfWordSampler<Sampler>) {
    SampleBits bits(key, counter * 4 + static_cast<std::uint64_t>(i / 2), nullptr, 0,
                    static_cast<std::uint32_t>(i % 2) << 31);
    return sampler.retry(bits);
  } else {
    constexpr int w = Sampler::words;
    SampleBits bits(key, counter * 4 + static_cast<std::uint64_t>(i * w), words + i * w, w);
    if constexpr (requires { sampler(bits, index); }) return sampler(bits, index);
    else return sampler(bits);
  }
}

// Whether a sampler's output advances in step with its words (a sample's bytes = its words'): stores
// into out then meet the loads of the words at equal addresses modulo 4 KiB, which stalls the loads (4K
// aliasing: standard_normal float32 took 97 ms for 2^24 writing straight into out, 86 through a buffer).
template <class Sampler>
constexpr bool writes_in_step_with_words() {
  if constexpr (HalfWordSampler<Sampler>) return false;
  else return sizeof(typename Sampler::result_type) == 4 * Sampler::words;
}

// The samples of `blocks` consecutive blocks (at most kMaxBlocks; `counter` the first's, `words` theirs in
// order) into out[first...] below size: every sample tried first, the few that did not come out then
// computed in full (found 8 flags at a time); straight into out when all land there and it does not
// advance in step with the words, else through a buffer.

template <int kMaxBlocks, class Sampler>
XP_HOST_DEVICE inline void sample_blocks_of(const Sampler& sampler, PhiloxKey key, std::uint64_t counter, int blocks,
                                            const std::uint32_t* words, std::int64_t first, std::int64_t size,
                                            typename Sampler::result_type* out) {
  constexpr int kMaxSamples = kPerBlock<Sampler> * kMaxBlocks;
  typename Sampler::result_type buffer[kMaxSamples];
  const int samples = kPerBlock<Sampler> * blocks;
  const bool whole = first + samples <= size;
  // A GPU thread's single block (kMaxBlocks 1) always goes through the buffer: with its address never
  // chosen at run time, the buffer stays in registers.
  constexpr bool may_write_directly = kMaxBlocks > 1 && !writes_in_step_with_words<Sampler>();
  typename Sampler::result_type* const values = may_write_directly && whole ? out + first : buffer;
  const int valid = whole ? samples : static_cast<int>(size - first);
  std::uint8_t rejected[kMaxSamples + 8] = {};
  try_samples(sampler, words, samples, values, rejected);
  for (int chunk = 0; chunk < valid; chunk += 8) {
    std::uint64_t flags;
    __builtin_memcpy(&flags, rejected + chunk, 8);
    if (flags == 0) [[likely]]
      continue;
    for (int i = chunk; i < chunk + 8 && i < valid; ++i)
      if (rejected[i] != 0) values[i] = full_sample(sampler, key, counter, words, i, first + i);
  }
  if (values == buffer)
    for (int i = 0; i < valid; ++i) out[first + i] = buffer[i];
}

// The samples of block `block` of the call's blocks (the stream's first_block + block), into
// out[block * kPerBlock...]: what a GPU thread does.
template <class Sampler>
XP_HOST_DEVICE inline void sample_block(const Sampler& sampler, PhiloxKey key, std::uint64_t first_block,
                                        std::int64_t block, std::int64_t size, typename Sampler::result_type* out) {
  const std::uint64_t counter = first_block + static_cast<std::uint64_t>(block);
  const Philox4x32 words = key.block(counter);
  sample_blocks_of<1>(sampler, key, counter, 1, words.word, block * kPerBlock<Sampler>, size, out);
}

template <class Sampler>
inline std::int64_t blocks_for(std::int64_t size) {
  constexpr int per_block = kPerBlock<Sampler>;
  return (size + per_block - 1) / per_block;
}

inline PhiloxKey philox_key(const detail::RandomCall& call) {
  return {static_cast<std::uint32_t>(call.key), static_cast<std::uint32_t>(call.key >> 32)};
}

namespace random_detail {

template <class T, class F>
void with_real_sampler(const detail::RandomCall& call, const ZigguratTables* tables, F&& f) {
  using R = detail::RandomCall;
  const auto inversion = [&](Inversion kind, double loc, double scale) { f(InversionSampler<T>{kind, loc, scale}); };
  switch (call.distribution) {
    case R::uniform: return f(UniformSampler<T>{static_cast<T>(call.a), static_cast<T>(call.b - call.a)});
    case R::normal: return f(NormalSampler<T>{tables, static_cast<T>(call.a), static_cast<T>(call.b)});
    case R::lognormal: return f(LognormalSampler<T>{tables, call.a, call.b});
    case R::exponential: return inversion(Inversion::exponential, 0, call.a);
    case R::laplace: return inversion(Inversion::laplace, call.a, call.b);
    case R::logistic: return inversion(Inversion::logistic, call.a, call.b);
    case R::gumbel: return inversion(Inversion::gumbel, call.a, call.b);
    case R::weibull: return inversion(Inversion::weibull, 0, call.a == 0 ? 0 : 1 / call.a);
    case R::gamma: return f(GammaSampler<T>{tables, GammaKind::gamma, GammaShape::of(call.a), call.b});
    case R::chisquare: return f(GammaSampler<T>{tables, GammaKind::chisquare, GammaShape::of(call.a / 2), 2.0});
    case R::standard_t:
      return f(GammaSampler<T>{tables, GammaKind::standard_t, GammaShape::of(call.a / 2), __builtin_sqrt(call.a / 2)});
    case R::beta: return f(BetaSampler<T>{tables, GammaShape::of(call.a), GammaShape::of(call.b)});
    default: XP_ASSERT(false);
  }
}

template <class T, class F>
void with_integer_sampler(const detail::RandomCall& call, F&& f) {
  if (call.range != 0 && call.range <= 0x10000)
    f(HalfWordIntegerSampler<T>::of(call.low, static_cast<std::uint32_t>(call.range)));
  else if (call.range != 0 && call.range <= (std::uint64_t{1} << 32)) f(IntegerSampler<T, 32>{call.low, call.range});
  else f(IntegerSampler<T, 64>{call.low, call.range});
}

}  // namespace random_detail

// Calls f(sampler) for `call` producing `type`: float32/float64 for the real distributions, an integer
// dtype for integers, bool for bernoulli, int64 for geometric, poisson and the binomials. `tables` is
// where the device reads the ziggurat's (only dereferenced by the samplers, on the device).
template <class F>
void with_random_sampler(const detail::RandomCall& call, dtype type, const ZigguratTables* tables, F&& f) {
  using R = detail::RandomCall;
  switch (call.distribution) {
    case R::integers:
      switch (type) {
        case dtype::int8: return random_detail::with_integer_sampler<std::int8_t>(call, f);
        case dtype::int16: return random_detail::with_integer_sampler<std::int16_t>(call, f);
        case dtype::int32: return random_detail::with_integer_sampler<std::int32_t>(call, f);
        case dtype::int64: return random_detail::with_integer_sampler<std::int64_t>(call, f);
        case dtype::uint8: return random_detail::with_integer_sampler<std::uint8_t>(call, f);
        case dtype::uint16: return random_detail::with_integer_sampler<std::uint16_t>(call, f);
        case dtype::uint32: return random_detail::with_integer_sampler<std::uint32_t>(call, f);
        default: XP_ASSERT(type == dtype::uint64); return random_detail::with_integer_sampler<std::uint64_t>(call, f);
      }
    case R::bernoulli: return f(BernoulliSampler{static_cast<std::uint64_t>(call.a * 0x1p32)});
    case R::geometric: return f(GeometricSampler{call.a >= 1 ? 0 : portable_log1p(-call.a)});
    case R::poisson: return f(PoissonSampler::of(call.a));
    case R::binomial: return f(BinomialSampler::of(call.trials, call.a));
    case R::binomial_of_counts:
      return f(BinomialOfCountsSampler{static_cast<const std::int64_t*>(call.counts), call.a});
    default:
      XP_ASSERT(type == dtype::float32 || type == dtype::float64);
      if (type == dtype::float32) random_detail::with_real_sampler<float>(call, tables, f);
      else random_detail::with_real_sampler<double>(call, tables, f);
  }
}

}  // namespace xp::kernels
