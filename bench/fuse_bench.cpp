// xp::fuse on the CPU, all cases interleaved round-robin, medians, every side on the same OpenMP threads:
// - exp(z + 2) * y over 2^24 float32: fused against the same three operations unfused (two temporaries,
//   from the pool), and against the STREAM-like ceiling for its bytes (a + b -> c: two arrays read, one
//   written, as the fused kernel's), and against a loop written by hand for it (8 lanes at a time through
//   the same vector exp, libmvec's, which the library's loops call on CPUs with AVX2): where the exp's
//   arithmetic is not small beside the memory traffic (1 ns per element on a core here), that loop is
//   the expression's practical ceiling;
// - sum((x - y) * (x - y)) over 2^24 float32: fused against xp::transform_reduce reading the same bytes
//   (one array of 2^25 floats, map v * v);
// - the per-call cost of a memo hit on 8 elements: the fused call against an ElementwiseKernel of the
//   same expression, both returning a new array.
#include <immintrin.h>
#include <omp.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

[[gnu::noinline]] void stream_add(const float* __restrict a, const float* __restrict b, float* __restrict c,
                                  std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

extern "C" __m256 _ZGVdN8v_expf(__m256);  // glibc's vector expf for AVX2 (libmvec's vector ABI name)

[[gnu::noinline, gnu::target("avx2,fma")]] void hand_written_chain(const float* __restrict z, const float* __restrict y,
                                                                   float* __restrict out, std::int64_t n) {
#pragma omp parallel for schedule(static)
  for (std::int64_t i = 0; i < n; i += 8) {
    const __m256 shifted = _mm256_add_ps(_mm256_loadu_ps(z + i), _mm256_set1_ps(2));
    _mm256_storeu_ps(out + i, _mm256_mul_ps(_ZGVdN8v_expf(shifted), _mm256_loadu_ps(y + i)));
  }
}

struct Case {
  const char* name;
  int calls;
  std::function<void()> run;
  std::vector<double> samples;
};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 11);
  constexpr std::int64_t n = std::int64_t{1} << 24;
  xp::random::seed(1);
  const auto z = xp::random::uniform<float>(-1, 1, {n}), y = xp::random::uniform<float>(0, 1, {n});
  const auto both = xp::random::uniform<float>(0, 1, {2 * n});
  const auto c = xp::zeros<float>({n});
  const auto a8 = xp::random::uniform<float>(0, 1, {8}), b8 = xp::random::uniform<float>(0, 1, {8});

  const auto exp_chain = xp::fuse([](auto u, auto v) { return xp::exp(u + 2) * v; });
  const auto distance = xp::fuse([](auto u, auto v) { return xp::sum((u - v) * (u - v)); });
  const xp::ElementwiseKernel kernel("T u, T v", "T w", "w = exp(u + 2) * v", "exp_chain");
  bench::escape(exp_chain(a8, b8).raw_data());
  bench::escape(kernel(a8, b8).raw_data());
  const auto square = [](float v) { return v * v; };
  const auto add = [](float p, float q) { return p + q; };
  const auto keep = [](float p) { return p; };

  std::vector<Case> cases{
      {"fused exp chain", 4, [&] { bench::escape(exp_chain(z, y).raw_data()); }, {}},
      {"unfused exp chain", 4, [&] { bench::escape((xp::exp(z + 2) * y).raw_data()); }, {}},
      {"stream add", 4, [&] { stream_add(z.data(), y.data(), c.data(), n), bench::escape(c.data()); }, {}},
      {"fused distance", 4, [&] { bench::escape(distance(z, y).raw_data()); }, {}},
      {"transform_reduce",
       4,
       [&] { bench::escape(xp::transform_reduce(both, std::nullopt, false, 0.0f, square, add, keep).raw_data()); },
       {}},
      {"fused n8", 20000, [&] { bench::escape(exp_chain(a8, b8).raw_data()); }, {}},
      {"kernel n8", 20000, [&] { bench::escape(kernel(a8, b8).raw_data()); }, {}},
  };
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2)  // n is a multiple of 8
    cases.push_back({"hand-written exp chain", 4, [&] { hand_written_chain(z.data(), y.data(), c.data(), n); }, {}});
  for (int round = 0; round < rounds; ++round)
    for (Case& k : cases) k.samples.push_back(bench::seconds_per_call(k.calls, k.run));
  const auto t = [&](int k) { return bench::median(cases[static_cast<std::size_t>(k)].samples); };

  const double bytes = 3.0 * n * sizeof(float);
  std::printf("xp::fuse on the CPU (%d OpenMP threads on every side; medians of %d rounds)\n", omp_get_max_threads(),
              rounds);
  std::printf("  exp(z + 2) * y, 2^24 float32: fused %6.2f ms (%5.1f GB/s), unfused %6.2f ms: %.2fx the unfused\n",
              t(0) * 1e3, bytes / t(0) / 1e9, t(1) * 1e3, t(1) / t(0));
  std::printf("  STREAM-like a + b -> c, 2^24 float32 (the same bytes): %6.2f ms (%5.1f GB/s): fused at %.2f of it\n",
              t(2) * 1e3, bytes / t(2) / 1e9, t(2) / t(0));
  if (avx2)
    std::printf("  the loop written by hand for it (8 lanes at a time, the same exp): %6.2f ms: fused at %.2f of it\n",
                t(7) * 1e3, t(7) / t(0));
  else std::printf("  the loop written by hand for it needs AVX2 and FMA, which this CPU lacks: not measured\n");
  std::printf("  sum((x - y)^2), 2^24 float32: fused %6.2f ms; transform_reduce of 2^25 floats %6.2f ms: %.2fx it\n",
              t(3) * 1e3, t(4) * 1e3, t(4) / t(3));
  std::printf("  memo hit, n = 8, new output: fused %6.0f ns, ElementwiseKernel %6.0f ns: %.2fx it\n", t(5) * 1e9,
              t(6) * 1e9, t(5) / t(6));
  const auto verdict = [](bool met) { return met ? "met" : "MISSED"; };
  std::printf("targets: >= 2.5x unfused %s; >= 0.9 of the ceiling %s; >= 0.9x transform_reduce %s; memo hit <= 2x %s\n",
              verdict(t(1) / t(0) >= 2.5), verdict(t(2) / t(0) >= 0.9), verdict(t(4) / t(3) >= 0.9),
              verdict(t(5) / t(6) <= 2));
}
