// NumPy's unary (and arctan2's, hypot's binary) ufuncs at 2^24 float32 on the CPU, each into a
// preallocated output as NumPy's out=, beside a STREAM-like copy (c = a over float32: the ceiling of
// a memory-bound function) measured in the same rounds. Prints the thread counts on a `# threads`
// line, then one line per measurement: name, elements, seconds per call (median).
#include <omp.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

struct Measurement {
  std::string name;
  std::function<void()> run;
  std::vector<double> samples;
};

[[gnu::noinline]] void stream_copy(const float* __restrict a, float* __restrict c, std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i];
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);
  const std::int64_t n = std::int64_t(1) << 24;
  xp::random::seed(1);
  const auto a = xp::random::uniform<float>(-0.9f, 0.9f, {n});  // inside every function's domain
  const auto b = xp::random::uniform<float>(0.1f, 2.f, {n});
  const auto c = xp::zeros<float>({n});
  const auto flags = xp::zeros<bool>({n});
  std::vector<Measurement> m;
  const float* pa = a.data();
  float* pc = c.data();
  m.push_back({"stream_copy", [=] { stream_copy(pa, pc, n), bench::escape(pc); }, {}});
#define XP_INTO(name, result, ...) \
  m.push_back({"xp_" #name, [=] { xp::name(__VA_ARGS__, result), bench::escape(result.data()); }, {}})
  XP_INTO(floor, c, a);
  XP_INTO(rint, c, a);
  XP_INTO(sign, c, a);
  XP_INTO(square, c, a);
  XP_INTO(reciprocal, c, b);
  XP_INTO(deg2rad, c, a);
  XP_INTO(isnan, flags, a);
  XP_INTO(signbit, flags, a);
  XP_INTO(cbrt, c, a);
  XP_INTO(sinh, c, a);
  XP_INTO(arcsin, c, a);
  XP_INTO(arctanh, c, a);
  XP_INTO(exp2, c, a);
  XP_INTO(log2, c, b);
  XP_INTO(arctan2, c, a, b);
  XP_INTO(hypot, c, a, b);
#undef XP_INTO
  for (int round = 0; round < rounds; ++round)
    for (Measurement& each : m) each.samples.push_back(bench::seconds_per_call(8, each.run));
  std::printf("# threads xparray %d stream %d\n", omp_get_max_threads(), omp_get_max_threads());
  for (const Measurement& each : m)
    std::printf("%s %lld %.9g\n", each.name.c_str(), static_cast<long long>(n), bench::median(each.samples));
}
