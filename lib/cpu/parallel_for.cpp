#include "xp/kernels/cpu/parallel_for.hpp"

#include <omp.h>

#include <algorithm>

namespace xp::detail {

namespace {

// The calling thread's CoreShare: its threads (0 outside one) and the team level it was given at.
thread_local int share_threads = 0;
thread_local int share_level = 0;

// The start of chunk k of `chunks` over [0, n). Boundaries on multiples of 64 keep chunks of elements
// off each other's cache lines; loops over a few tasks (blocks, tiles) split exactly.
std::int64_t chunk_start(std::int64_t n, std::int64_t chunks, std::int64_t k) {
  if (k == chunks) return n;
  const std::int64_t b = n * k / chunks;
  return n >= chunks * 4096 ? b / 64 * 64 : b;
}

void run_chunk(std::int64_t n, std::int64_t chunks, std::int64_t k, ChunkBody body, void* context) {
  const std::int64_t begin = chunk_start(n, chunks, k), end = chunk_start(n, chunks, k + 1);
  if (begin < end) body(context, begin, end);
}

}  // namespace

CoreShare::CoreShare(int threads) noexcept : previous_threads_(share_threads), previous_level_(share_level) {
  share_threads = std::max(threads, 1);
  share_level = omp_get_active_level();
}

CoreShare::~CoreShare() {
  share_threads = previous_threads_;
  share_level = previous_level_;
}

void parallel_for(std::int64_t n, std::int64_t grain, ChunkBody body, void* context) {
  if (n < 2 * grain) {  // small loops never ask OpenMP anything: they are the latency-bound ones
    if (n > 0) body(context, 0, n);
    return;
  }
  const std::int64_t chunks = std::min<std::int64_t>(cpu_threads(), n / std::max<std::int64_t>(grain, 1));
  const bool on_share = share_threads > 0 && omp_get_active_level() == share_level;
  if (chunks <= 1 || (omp_in_parallel() && !on_share)) {
    body(context, 0, n);
    return;
  }
  if (on_share) {
    for (std::int64_t k = 1; k < chunks; ++k) {
#pragma omp task firstprivate(k) default(shared)
      run_chunk(n, chunks, k, body, context);
    }
    run_chunk(n, chunks, 0, body, context);
#pragma omp taskwait
    return;
  }
#pragma omp parallel num_threads(static_cast<int>(chunks))
  run_chunk(n, omp_get_num_threads(), omp_get_thread_num(), body, context);
}

int cpu_threads() noexcept { return share_threads > 0 ? share_threads : omp_get_max_threads(); }

}  // namespace xp::detail
