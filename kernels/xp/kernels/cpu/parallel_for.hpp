#pragma once
// The CPU backend's threads. Loop bodies are templates instantiated where they are used (so a user
// functor inlines into its loop); the threading is compiled once, in the library, so callers need
// no OpenMP flags.
#include <cstdint>

#include "xp/export.hpp"

namespace xp::detail {

using ChunkBody = void (*)(void* context, std::int64_t begin, std::int64_t end);

// Work is split so that every thread gets at least this many elements, and loops under twice it run
// on the calling thread. Measured on the 2-core VM with xp::add(a, b, out) on float32, one thread
// against two: 16K elements 1.9 us against 1.7 to 3.1 us (a parallel region costs 0.8 us, more when
// the threads have gone to sleep), 32K 4.4 us against 2.6 to 3.8 us, 64K 10.2 against 4.4 to 5.8.
inline constexpr std::int64_t kParallelGrain = 1 << 14;

// Calls segment(row, column, count, position) for the pieces of [begin, end) that lie in one row
// of a loop whose rows hold `length` positions: how a chunk of a strided loop walks its rows.
template <class Segment>
void for_each_row_segment(std::int64_t begin, std::int64_t end, std::int64_t length, Segment&& segment) {
  for (std::int64_t i = begin; i < end;) {
    const std::int64_t row = i / length, column = i % length;
    const std::int64_t count = length - column < end - i ? length - column : end - i;
    segment(row, column, count, i);
    i += count;
  }
}

// Runs body over [0, n): on the calling thread when n < 2 * grain, else split into one contiguous
// chunk per thread (boundaries on multiples of 64 when n is large: n counts elements then).
XP_API void parallel_for(std::int64_t n, std::int64_t grain, ChunkBody body, void* context);

// Threads used for large loops (OpenMP's, from OMP_NUM_THREADS or the cores; a CoreShare's inside one).
XP_API int cpu_threads() noexcept;

// A cpu device's share of the cores while several devices run at once (the data-parallel executor
// group's device workers). Their work runs on one OpenMP team: a thread per device, the rest of the
// cores idle in the same team. Inside a CoreShare, the calling thread's loops split into `threads`
// tasks of that team, which its idle threads (and devices done with their work) pick up, and
// cpu_threads() reports the share, so loop plans and BLAS splits size themselves to it. Tasks and not
// nested teams: libgomp starts fresh threads for every nested region (measured: 48 us a region,
// against 1 us for a region of the top-level pool).
class XP_API CoreShare {
 public:
  // Called on a thread of the team that will run the tasks.
  explicit CoreShare(int threads) noexcept;
  ~CoreShare();
  CoreShare(const CoreShare&) = delete;
  CoreShare& operator=(const CoreShare&) = delete;

 private:
  int previous_threads_;
  int previous_level_;
};

}  // namespace xp::detail
