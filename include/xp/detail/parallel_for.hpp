#pragma once
// The CPU backend's threads. Loop bodies are templates instantiated where they are used (so a user
// functor inlines into its loop); the threading is compiled once, in the library, so callers need
// no OpenMP flags.
#include <cstdint>

namespace xp::detail {

using ChunkBody = void (*)(void* context, std::int64_t begin, std::int64_t end);

// Runs body over [0, n): on the calling thread when n < grain, else split into one contiguous
// chunk per thread, with boundaries on multiples of 64 elements.
void parallel_for(std::int64_t n, std::int64_t grain, ChunkBody body, void* context);

// Threads used for large loops (OpenMP's, from OMP_NUM_THREADS or the cores).
int cpu_threads() noexcept;

}  // namespace xp::detail
