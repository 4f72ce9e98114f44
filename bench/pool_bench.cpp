// Allocation latency: one alloc+free pair from the cpu(0) pool against malloc/free of the same size,
// and the whole-array path (xp::empty + release), measured interleaved in one process.
#include <xp/xp.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "timing.hpp"

namespace {
using bench::escape;
using bench::median;

template <class F>
double ns_per_pair(int pairs, F&& pair) {
  return 1e9 * bench::seconds_per_call(pairs, pair);
}
}  // namespace

int main() {
  constexpr int kRounds = 9;
  constexpr int kPairs = 200000;
  xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(0));

  std::printf(
      "pool benchmark: alloc+free pair latency on cpu(0), one thread each (the caller's), median of %d "
      "interleaved rounds of %d pairs; the same size freed and taken again (the pool's best pattern)\n",
      kRounds, kPairs);
  std::printf("%10s %12s %14s %12s %16s\n", "bytes", "pool ns", "malloc ns", "pool/malloc", "xp::empty ns");
  double worst = 0;
  for (const std::size_t bytes : {std::size_t(64), std::size_t(512), std::size_t(4096), std::size_t(65536),
                                  std::size_t(1) << 20, std::size_t(16) << 20}) {
    std::vector<double> pooled, plain, arrays;
    const auto elements = static_cast<std::int64_t>(bytes / sizeof(float));
    for (int round = 0; round < kRounds; ++round) {
      pooled.push_back(ns_per_pair(kPairs, [&] {
        xp::Allocation a = pool.malloc(bytes);
        escape(a.get());
      }));
      plain.push_back(ns_per_pair(kPairs, [&] {
        void* p = std::malloc(bytes);
        escape(p);
        std::free(p);
      }));
      arrays.push_back(ns_per_pair(kPairs, [&] {
        const auto a = xp::empty<float>({elements});
        escape(a.data());
      }));
    }
    const double p = median(pooled), m = median(plain), e = median(arrays);
    std::printf("%10zu %12.1f %14.1f %12.2f %16.1f\n", bytes, p, m, p / m, e);
    worst = std::max(worst, p / m);
  }
  std::printf("target: a pooled pair no slower than malloc/free at any size measured: %s (worst %.2fx)\n",
              worst <= 1.0 ? "met" : "MISSED", worst);
}
