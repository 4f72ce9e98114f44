#include "xp/detail/parallel_for.hpp"

#include <omp.h>

#include <algorithm>

namespace xp::detail {

void parallel_for(std::int64_t n, std::int64_t grain, ChunkBody body, void* context) {
  if (n < 2 * grain) {  // small loops never ask OpenMP anything: they are the latency-bound ones
    if (n > 0) body(context, 0, n);
    return;
  }
  const std::int64_t wanted = std::min<std::int64_t>(omp_get_max_threads(), n / std::max<std::int64_t>(grain, 1));
  if (wanted <= 1 || omp_in_parallel()) {
    body(context, 0, n);
    return;
  }
#pragma omp parallel num_threads(static_cast<int>(wanted))
  {
    const std::int64_t threads = omp_get_num_threads();
    const std::int64_t t = omp_get_thread_num();
    // Boundaries on multiples of 64 keep chunks of elements off each other's cache lines; loops over
    // a few tasks (blocks, tiles) split exactly.
    const bool align = n >= threads * 4096;
    const auto boundary = [&](std::int64_t k) {
      if (k == threads) return n;
      const std::int64_t b = n * k / threads;
      return align ? b / 64 * 64 : b;
    };
    const std::int64_t begin = boundary(t), end = boundary(t + 1);
    if (begin < end) body(context, begin, end);
  }
}

int cpu_threads() noexcept { return omp_get_max_threads(); }

}  // namespace xp::detail
