// Random numbers on the CPU at the sizes: standard_normal float32 and integers int32 of 2^24,
// permutation and gamma(2) float64 of 2^22, beside a STREAM-like write of the same bytes in the same
// rounds (the ceiling of a generator: one write). Prints the thread counts on a `# threads` line, then
// one line per measurement: name, elements, seconds per call (median), GB/s written.
#include <omp.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

[[gnu::noinline]] void stream_fill(float* __restrict c, std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = static_cast<float>(i & 1023);
}

template <class F>
bench::Measurement measured(std::string name, std::int64_t n, double item_bytes, int calls, F f) {
  return {std::move(name), n, item_bytes * static_cast<double>(n), calls, [=] { bench::escape(f().data()); }, {}};
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);
  const std::int64_t large = std::int64_t(1) << 24, medium = std::int64_t(1) << 22;
  auto g = std::make_shared<xp::random::Generator>(1);
  const auto filled = xp::zeros<float>({large});
  float* pf = filled.data();
  std::vector<bench::Measurement> measurements;
  measurements.push_back(
      {"stream_fill", large, 4.0 * large, 4, [=] { stream_fill(pf, large), bench::escape(pf); }, {}});
  measurements.push_back(
      measured("xp_standard_normal_float32", large, 4, 2, [=] { return g->standard_normal<float>({large}); }));
  measurements.push_back(measured("xp_random_float32", large, 4, 2, [=] { return g->random<float>({large}); }));
  measurements.push_back(
      measured("xp_integers_int32", large, 4, 2, [=] { return g->integers<std::int32_t>(0, 1000, {large}); }));
  measurements.push_back(measured("xp_permutation", medium, 8, 1, [=] { return g->permutation(medium); }));
  measurements.push_back(measured("xp_gamma2_float64", medium, 8, 1, [=] { return g->gamma(2.0, 1.0, {medium}); }));

  std::printf("# threads xparray %d stream %d\n", omp_get_max_threads(), omp_get_max_threads());
  bench::run_and_print(measurements, rounds);
}
