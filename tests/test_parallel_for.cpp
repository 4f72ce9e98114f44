// The CPU backend's work split.
#include <doctest/doctest.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "chunk_recorder.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"

namespace {

// The chunks, sorted, must tile [0, n).
bool tiles(std::vector<std::pair<std::int64_t, std::int64_t>> seen, std::int64_t n) {
  std::sort(seen.begin(), seen.end());
  std::int64_t next = 0;
  for (const auto& [begin, end] : seen) {
    if (begin != next || end <= begin) return false;
    next = end;
  }
  return next == n;
}

}  // namespace

TEST_CASE("parallel_for splits a few tasks among the threads") {
  const int threads = xp::detail::cpu_threads();
  Chunks few;
  xp::detail::parallel_for(8, 1, &Chunks::record, &few);
  CHECK(tiles(few.seen, 8));
  CHECK(static_cast<int>(few.seen.size()) == std::min(threads, 8));
}

TEST_CASE("parallel_for: long loops split on multiples of 64, short ones stay on the caller") {
  const int threads = xp::detail::cpu_threads();
  Chunks many;
  const std::int64_t n = (1 << 20) + 5;
  xp::detail::parallel_for(n, xp::detail::kParallelGrain, &Chunks::record, &many);
  CHECK(tiles(many.seen, n));
  CHECK(static_cast<int>(many.seen.size()) == threads);
  for (const auto& [begin, end] : many.seen) CHECK((begin % 64 == 0 || begin == n));
  Chunks short_loop;
  xp::detail::parallel_for(2 * xp::detail::kParallelGrain - 1, xp::detail::kParallelGrain, &Chunks::record,
                           &short_loop);
  CHECK(short_loop.seen.size() == 1);
}
