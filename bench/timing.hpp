#pragma once
// Timing helpers shared by the benchmarks.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
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

// One row of a table benchmark: `calls` calls of `run` per sample, `bytes` moved per call.
struct Measurement {
  std::string name;
  std::int64_t elements;
  double bytes;
  int calls;
  std::function<void()> run;
  std::vector<double> samples;
};

// Samples every measurement once a round, the measurements interleaved (the VM's speed drifts), then
// prints one line per measurement: name, elements, seconds per call (median), GB/s.
inline void run_and_print(std::vector<Measurement>& measurements, int rounds) {
  for (int round = 0; round < rounds; ++round)
    for (Measurement& m : measurements) m.samples.push_back(seconds_per_call(m.calls, m.run));
  for (const Measurement& m : measurements) {
    const double seconds = median(m.samples);
    std::printf("%s %lld %.9g %.3f\n", m.name.c_str(), static_cast<long long>(m.elements), seconds,
                m.bytes / seconds / 1e9);
  }
}

}  // namespace bench
