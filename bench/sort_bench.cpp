// Sorts, scans and searches on the CPU at 2^24 elements (and the other sizes), beside a
// STREAM-like copy of the same bytes measured in the same rounds (the ceiling of a scan: one read and
// one write). Prints the thread counts on a `# threads` line, then one line per measurement: name,
// elements, seconds per call (median), GB/s of one read and one write of the input's bytes.
#include <omp.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

[[gnu::noinline]] void stream_copy(const float* __restrict a, float* __restrict c, std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i];
}

template <class A, class F>
bench::Measurement measured(std::string name, const A& input, int calls, F f) {
  const auto n = static_cast<std::int64_t>(input.size());
  return {std::move(name), n, 2.0 * static_cast<double>(input.nbytes()), calls, [=] { bench::escape(f().data()); }, {}};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);

  const std::int64_t n = std::int64_t(1) << 24;
  xp::random::seed(1);
  const auto x = xp::random::uniform<float>(0, 1, {n});
  const auto integers = (xp::random::uniform<double>(-2147483648.0, 2147483647.0, {n})).astype<std::int32_t>();
  const auto copy = xp::zeros<float>({n});
  std::vector<bench::Measurement> measurements;
  const float* px = x.data();
  float* pc = copy.data();
  measurements.push_back({"stream_copy",
                          n,
                          8.0 * n,
                          8,
                          [=] {
                            stream_copy(px, pc, n);
                            bench::escape(pc);
                          },
                          {}});
  measurements.push_back(measured("xp_sort_float32", x, 2, [=] { return xp::sort(x); }));
  measurements.push_back(measured("xp_argsort_float32", x, 2, [=] { return xp::argsort(x); }));
  measurements.push_back(measured("xp_sort_int32", integers, 2, [=] { return xp::sort(integers); }));
  measurements.push_back(measured("xp_cumsum_float32", x, 8, [=] { return xp::cumsum(x); }));
  // unique of 2^22 int32 holding 2^16 distinct values; searchsorted of 2^20 float64 queries into 2^20.
  const auto repeated = (xp::random::uniform<double>(0, 65536, {1 << 22})).astype<std::int32_t>();
  measurements.push_back(measured("xp_unique_int32", repeated, 2, [=] { return xp::unique(repeated).values; }));
  const auto sorted = xp::sort(xp::random::uniform<double>(0, 1, {1 << 20}));
  const auto queries = xp::random::uniform<double>(0, 1, {1 << 20});
  measurements.push_back(
      measured("xp_searchsorted_float64", queries, 2, [=] { return xp::searchsorted(sorted, queries); }));

  std::printf("# threads xparray %d stream %d\n", omp_get_max_threads(), omp_get_max_threads());
  bench::run_and_print(measurements, rounds);
}
