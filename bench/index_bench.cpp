// Gathers, masks, in-place arithmetic and pick on the CPU at the sizes, beside a STREAM-like
// add (c = a + b over float32: the ceiling of a += b) measured in the same rounds. Prints the thread
// counts on a `# threads` line, then one line per measurement: name, elements, seconds per call
// (median).
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
  std::int64_t elements;
  int calls;
  std::function<void()> run;
  std::vector<double> samples;
};

[[gnu::noinline]] void stream_add(const float* __restrict a, const float* __restrict b, float* __restrict c,
                                  std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

// What xp::pick computed before it was a gather: a one-hot mask of the positions, where, and a sum
// along the axis (O(rows x extent)).
xp::ndarray<float> one_hot_pick(const xp::ndarray<float>& x, const xp::ndarray<float>& index) {
  const auto extent = x.shape()[1];
  const auto positions = xp::arange<std::int64_t>(0, extent).reshape({1, extent});
  const auto chosen = xp::equal(positions, xp::clip(index.astype<std::int64_t>(), 0, extent - 1).reshape({-1, 1}));
  return xp::sum(xp::where(chosen, x, 0.f), 1);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);

  const std::int64_t n = std::int64_t(1) << 24;
  xp::random::seed(1);
  const auto a = xp::random::uniform<float>(0, 1, {n});
  const auto b = xp::random::uniform<float>(0, 1, {n});
  const auto c = xp::zeros<float>({n});
  const auto target = xp::random::uniform<float>(0, 1, {n});
  const auto positions = xp::random::uniform<double>(0, static_cast<double>(n), {n}).astype<std::int64_t>();
  const auto mask = a < 0.5f;
  const auto rows = xp::random::uniform<float>(0, 1, {4096, 1000});
  const auto picks = xp::random::uniform<float>(0, 999.5f, {4096});  // truncated to positions, as MXNet
  std::vector<Measurement> measurements;
  const float *pa = a.data(), *pb = b.data();
  float* pc = c.data();
  measurements.push_back({"stream_add", n, 8, [=] { stream_add(pa, pb, pc, n), bench::escape(pc); }, {}});
  measurements.push_back({"xp_gather_float32", n, 2, [=] { bench::escape(a(positions).data()); }, {}});
  measurements.push_back({"xp_mask_float32", n, 4, [=] { bench::escape(a(mask).data()); }, {}});
  measurements.push_back({"xp_mask_assign_float32",
                          n,
                          8,
                          [=] {
                            target.at(mask) = 0.f;
                            bench::escape(target.data());
                          },
                          {}});
  measurements.push_back({"xp_iadd_float32",
                          n,
                          8,
                          [=] {
                            c += b;
                            bench::escape(c.data());
                          },
                          {}});
  measurements.push_back({"xp_pick_4096x1000", 4096, 64, [=] { bench::escape(xp::pick(rows, picks, 1).data()); }, {}});
  measurements.push_back(
      {"xp_one_hot_pick_4096x1000", 4096, 4, [=] { bench::escape(one_hot_pick(rows, picks).data()); }, {}});

  for (int round = 0; round < rounds; ++round)
    for (Measurement& m : measurements) m.samples.push_back(bench::seconds_per_call(m.calls, m.run));

  std::printf("# threads xparray %d stream %d\n", omp_get_max_threads(), omp_get_max_threads());
  for (const Measurement& m : measurements)
    std::printf("%s %lld %.9g\n", m.name.c_str(), static_cast<long long>(m.elements), bench::median(m.samples));
}
