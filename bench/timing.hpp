#pragma once
// Timing helpers shared by the benchmarks.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace bench {

using Clock = std::chrono::steady_clock;

// Keeps the compiler from proving a pointer's memory unused and removing the work on it.
inline void escape(void* p) { asm volatile("" : : "g"(p) : "memory"); }

// Seconds per call of f, over `calls` calls.
template <class F>
double seconds_per_call(int calls, F&& f) {
  const auto start = Clock::now();
  for (int i = 0; i < calls; ++i) f();
  return std::chrono::duration<double>(Clock::now() - start).count() / calls;
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// The value of a `--rounds N` argument, else `fallback`.
inline int rounds_from(int argc, char** argv, int fallback) {
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--rounds") == 0) return std::atoi(argv[i + 1]);
  return fallback;
}

}  // namespace bench
