// Matrix products on the CPU: xp::matmul against a direct cblas_sgemm / dgemm / cgemm on the same
// buffers (the library under it), and the FMA peak of this machine measured here, interleaved round
// by round in one process (this VM's speed drifts between levels: only figures measured together
// compare). Also float16 and bfloat16 products (against sgemm), stacks of small products and the host
// time of one 4x4 product, for NumPy's peers in bench/numpy_gemm_bench.py. Prints one line per
// measurement: name, n, seconds per call (median).
#include <cblas.h>
#include <immintrin.h>
#include <omp.h>
#include <xp/xp.hpp>

#include <complex>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

struct Measurement {
  std::string name;
  std::int64_t n;
  int calls;  // per sample
  std::function<void()> run;
  std::vector<double> samples;
};

constexpr int kChains = 10;  // independent FMA chains per thread: enough to cover the FMA latency

// kChains vector FMA chains per thread, `iterations` steps each, on every OpenMP thread; returns the
// value so that nothing is optimised away.
template <class T>
[[gnu::target("avx2,fma")]] [[gnu::noinline]] double fma_chains(std::int64_t iterations) {
  double checksum = 0;
#pragma omp parallel reduction(+ : checksum)
  {
    if constexpr (std::is_same_v<T, float>) {
      __m256 acc[kChains];
      for (int j = 0; j < kChains; ++j) acc[j] = _mm256_set1_ps(static_cast<float>(j) * 1e-3f);
      const __m256 scale = _mm256_set1_ps(0.999999f), shift = _mm256_set1_ps(1e-7f);
      for (std::int64_t i = 0; i < iterations; ++i)
        for (int j = 0; j < kChains; ++j) acc[j] = _mm256_fmadd_ps(acc[j], scale, shift);
      for (int j = 0; j < kChains; ++j) checksum += _mm256_cvtss_f32(acc[j]);
    } else {
      __m256d acc[kChains];
      for (int j = 0; j < kChains; ++j) acc[j] = _mm256_set1_pd(static_cast<double>(j) * 1e-3);
      const __m256d scale = _mm256_set1_pd(0.999999), shift = _mm256_set1_pd(1e-7);
      for (std::int64_t i = 0; i < iterations; ++i)
        for (int j = 0; j < kChains; ++j) acc[j] = _mm256_fmadd_pd(acc[j], scale, shift);
      for (int j = 0; j < kChains; ++j) checksum += _mm256_cvtsd_f64(acc[j]);
    }
  }
  return checksum;
}

// Floating-point operations of one fma_chains call.
template <class T>
double fma_flops(std::int64_t iterations) {
  return 2.0 * (32 / sizeof(T)) * kChains * static_cast<double>(iterations) * omp_get_max_threads();
}

template <class T>
void direct_gemm(int n, const T* a, const T* b, T* c) {
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n, b, n, 0.0f, c, n);
  else cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, a, n, b, n, 0.0, c, n);
}

template <class T>
void add_gemms(std::vector<Measurement>& list, std::vector<xp::ndarray<>>& keep, const char* letter) {
  for (const int n : {64, 256, 1024, 2048}) {
    const auto a = xp::random::uniform<T>(-1, 1, {n, n}), b = xp::random::uniform<T>(-1, 1, {n, n});
    const auto c = xp::empty<T>({n, n}), direct = xp::empty<T>({n, n});
    keep.insert(keep.end(), {a, b, c, direct});
    // About 20 ms of work per sample.
    const int calls = static_cast<int>(std::max(1.0, 20e-3 * 50e9 / (2.0 * n * n * n)));
    list.push_back({std::string("xp_") + letter + "gemm", n, calls, [=] { xp::matmul(a, b, c); }, {}});
    list.push_back({std::string("cblas_") + letter + "gemm",
                    n,
                    calls,
                    [=] { direct_gemm<T>(n, a.data(), b.data(), direct.data()); },
                    {}});
  }
}

// complex64 products: xp::matmul against a direct cblas_cgemm on the same buffers.
void add_complex_gemms(std::vector<Measurement>& list) {
  const std::complex<float> i(0, 1), one(1), zero(0);
  for (const int n : {256, 1024}) {
    const auto random = [n, i] {
      return xp::random::uniform<float>(-1, 1, {n, n}).astype<std::complex<float>>() +
             xp::random::uniform<float>(-1, 1, {n, n}) * i;
    };
    const auto a = random(), b = random();
    const auto c = xp::empty<std::complex<float>>({n, n}), direct = xp::empty<std::complex<float>>({n, n});
    const int calls = static_cast<int>(std::max(1.0, 20e-3 * 50e9 / (8.0 * n * n * n)));
    list.push_back({"xp_cgemm", n, calls, [=] { xp::matmul(a, b, c); }, {}});
    list.push_back({"cblas_cgemm",
                    n,
                    calls,
                    [=] {
                      cblas_cgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, &one, a.data(), n, b.data(), n,
                                  &zero, direct.data(), n);
                    },
                    {}});
  }
}

// 2-byte products (float32 accumulation, rounded once), against the direct cblas_sgemm of the same size.
template <class T>
void add_two_byte_gemms(std::vector<Measurement>& list, const char* name) {
  for (const int n : {256, 1024}) {
    const auto a = xp::random::uniform<T>(-1, 1, {n, n}), b = xp::random::uniform<T>(-1, 1, {n, n});
    const auto c = xp::empty<T>({n, n});
    const int calls = static_cast<int>(std::max(1.0, 20e-3 * 50e9 / (2.0 * n * n * n)));
    list.push_back({name, n, calls, [=] { xp::matmul(a, b, c); }, {}});
  }
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = bench::rounds_from(argc, argv, 7);
  xp::random::seed(1);

  std::vector<Measurement> list;
  std::vector<xp::ndarray<>> keep;
  constexpr std::int64_t kPeakIterations = 1 << 22;
  // The peak lines' n is the floating-point operations of one call.
  static volatile double sink = 0;
  list.push_back({"fma_peak_f32",
                  static_cast<std::int64_t>(fma_flops<float>(kPeakIterations)),
                  1,
                  [] { sink = sink + fma_chains<float>(kPeakIterations); },
                  {}});
  list.push_back({"fma_peak_f64",
                  static_cast<std::int64_t>(fma_flops<double>(kPeakIterations)),
                  1,
                  [] { sink = sink + fma_chains<double>(kPeakIterations); },
                  {}});
  add_gemms<float>(list, keep, "s");
  add_gemms<double>(list, keep, "d");
  add_complex_gemms(list);
  add_two_byte_gemms<xp::float16>(list, "xp_float16_gemm");
  add_two_byte_gemms<xp::bfloat16>(list, "xp_bfloat16_gemm");
  const auto stack8a = xp::random::uniform<float>(-1, 1, {4096, 8, 8}),
             stack8b = xp::random::uniform<float>(-1, 1, {4096, 8, 8});
  const auto stack64a = xp::random::uniform<float>(-1, 1, {512, 64, 64}),
             stack64b = xp::random::uniform<float>(-1, 1, {512, 64, 64});
  const auto small_a = xp::random::uniform<float>(-1, 1, {4, 4}), small_b = xp::random::uniform<float>(-1, 1, {4, 4});
  // As NumPy's `a @ b`: a new result each call.
  list.push_back({"xp_stack_4096x8x8", 4096, 20, [&] { bench::escape(xp::matmul(stack8a, stack8b).data()); }, {}});
  list.push_back({"xp_stack_512x64x64", 512, 5, [&] { bench::escape(xp::matmul(stack64a, stack64b).data()); }, {}});
  list.push_back({"xp_matmul_4x4", 4, 20000, [&] { bench::escape(xp::matmul(small_a, small_b).data()); }, {}});
  // The C-level cost under NumPy's 4x4 `@` (its BLAS call), beside the CPython call the table compares with.
  const auto small_c = xp::zeros<float>({4, 4});
  list.push_back({"cblas_matmul_4x4",
                  4,
                  20000,
                  [&] {
                    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 4, 4, 4, 1.0f, small_a.data(), 4,
                                small_b.data(), 4, 0.0f, small_c.data(), 4);
                    bench::escape(small_c.data());
                  },
                  {}});

  for (auto& m : list) m.run();  // warm-up: OpenBLAS's buffers, the pool, the threads
  for (int round = 0; round < rounds; ++round)
    for (auto& m : list) {
      // xp::benchmark times each call; a sample is their mean.
      const xp::BenchmarkResult result = xp::benchmark(m.run, {.name = m.name, .n_repeat = m.calls, .n_warmup = 0});
      double total = 0;
      for (const double t : result.cpu_times()) total += t;
      m.samples.push_back(total / m.calls);
    }
  std::printf("# %s; OpenMP threads %d\n", openblas_get_config(), omp_get_max_threads());
  for (auto& m : list)
    std::printf("%s %lld %.9g\n", m.name.c_str(), static_cast<long long>(m.n), bench::median(m.samples));
}
