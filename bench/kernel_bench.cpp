// Run-time user kernels on the CPU: what a first call costs (generate, compile with the host
// compiler, load), what a call costs when the kernel comes from the disk cache (a new process, or
// after clear_memo), the per-call overhead once it is in memory (n = 8), the bandwidth of a fused
// ElementwiseKernel against xp::transform and a STREAM-like add, and of a ReductionKernel (CuPy's
// l2norm) against the built-in xp::norm over a whole vector and over the rows of a matrix (axis 0),
// all interleaved round-robin. First calls are also given as multiples of a bare `c++ -O3 -shared`
// of the same loop written by hand, the floor the generated source and its invocation add to.
#include <omp.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <xp/xp.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

extern char** environ;

namespace {

// Compiles a hand-written shared object of the kernels' loops with the configured compiler (the
// one run-time kernels use unless XP_CXX says otherwise) and returns the seconds it took.
double bare_compile_seconds(const std::filesystem::path& dir) {
  const std::filesystem::path source = dir / "bare.cpp", output = dir / "bare.so";
  std::ofstream(source) << "extern \"C\" void squared_diff(const float* x, const float* y, float* z, long n) {\n"
                           "  for (long i = 0; i < n; ++i) z[i] = (x[i] - y[i]) * (x[i] - y[i]);\n}\n";
  const std::string compiler = XP_BENCH_HOST_CXX;
  std::vector<std::string> words{compiler, "-O3", "-fPIC", "-shared", "-o", output.string(), source.string()};
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  return bench::seconds_per_call(1, [&] {
    pid_t pid = 0;
    int status = 0;
    if (::posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0 ||
        ::waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "kernel_bench: %s failed\n", compiler.c_str());
      std::exit(1);
    }
  });
}

struct SquaredDifference {
  float operator()(float x, float y) const { return (x - y) * (x - y); }
};

[[gnu::noinline]] void stream_add(const float* __restrict a, const float* __restrict b, float* __restrict c,
                                  std::int64_t n) {
#pragma omp parallel for simd schedule(static)
  for (std::int64_t i = 0; i < n; ++i) c[i] = a[i] + b[i];
}

double seconds_of(const std::function<void()>& f) { return bench::seconds_per_call(1, f); }

}  // namespace

int main() {
  // A private cache directory: the first calls really compile.
  const std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("xparray-kernel-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  ::setenv("XP_CACHE_DIR", cache.c_str(), 1);

  const auto a = xp::ones<float>({8}), b = xp::ones<float>({8}), out = xp::zeros<float>({8});
  std::filesystem::create_directories(cache);
  std::vector<double> cold, cold_reduce, disk, bare;
  for (int k = 0; k < 5; ++k) {
    bare.push_back(bare_compile_seconds(cache));
    const std::string constant = std::to_string(k + 2);
    const xp::ElementwiseKernel kernel("T x, T y", "T z", "z = (x - y) * (x - y) + " + constant, "cold_" + constant);
    cold.push_back(seconds_of([&] { kernel(a, b, out); }));
    const xp::ReductionKernel norm("T x", "T y", "x * x", "a + b", "y = sqrt(a) + " + constant, "0",
                                   "cold_norm_" + constant);
    cold_reduce.push_back(seconds_of([&] { bench::escape(norm(a).data()); }));
    xp::clear_memo();
    disk.push_back(seconds_of([&] { kernel(a, b, out); }));
  }

  const xp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  squared_diff(a, b, out);
  constexpr std::int64_t n = std::int64_t{1} << 24;
  xp::random::seed(1);
  const auto x = xp::random::uniform<float>(0, 1, {n}), y = xp::random::uniform<float>(0, 1, {n});
  const auto z = xp::zeros<float>({n});
  const auto matrix = x.reshape({4096, 4096});
  // A strided loop: a row broadcast down the matrix (strides 0 and 4096 on the first axis).
  const auto row = y(xp::slice(0, 4096));
  const auto z_matrix = z.reshape({4096, 4096});
  const xp::ReductionKernel l2norm("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const float *px = x.data(), *py = y.data();
  float* pz = z.data();
  struct Case {
    const char* name;
    int calls;
    std::function<void()> run;
    std::vector<double> samples;
  };
  std::vector<Case> cases{
      {"kernel_n8", 20000, [&] { squared_diff(a, b, out); }, {}},
      {"xp_add_n8", 20000, [&] { xp::add(a, b, out); }, {}},
      {"stream_add",
       4,
       [&] {
         stream_add(px, py, pz, n);
         bench::escape(pz);
       },
       {}},
      {"kernel_sqdiff", 4, [&] { squared_diff(x, y, z); }, {}},
      {"transform_sqdiff", 4, [&] { xp::transform(SquaredDifference{}, x, y, xp::out(z)); }, {}},
      {"kernel_l2norm", 4, [&] { bench::escape(l2norm(x).data()); }, {}},
      {"xp_norm", 4, [&] { bench::escape(xp::norm(x).data()); }, {}},
      {"kernel_l2norm_axis0", 4, [&] { bench::escape(l2norm(matrix, xp::axis(0)).data()); }, {}},
      {"xp_norm_axis0", 4, [&] { bench::escape(xp::norm(matrix, 0).data()); }, {}},
      {"kernel_sqdiff_rows", 4, [&] { squared_diff(matrix, row, z_matrix); }, {}},
      {"transform_sqdiff_rows", 4, [&] { xp::transform(SquaredDifference{}, matrix, row, xp::out(z_matrix)); }, {}},
  };
  for (int round = 0; round < 11; ++round)
    for (Case& c : cases) c.samples.push_back(bench::seconds_per_call(c.calls, c.run));
  std::filesystem::remove_all(cache);

  const auto t = [&](int k) { return bench::median(cases[k].samples); };
  const double bytes = 3.0 * n * sizeof(float);
  std::printf("run-time kernels on the CPU (%d threads; medians; the compiler is %s)\n", omp_get_max_threads(),
              std::getenv("XP_CXX") ? std::getenv("XP_CXX") : "the configured one");
  const double floor = bench::median(bare);
  std::printf("  bare c++ -O3 -shared of the same loop, by hand                   %8.1f ms\n", floor * 1e3);
  std::printf("  first call, ElementwiseKernel (generate + compile + load + run)  %8.1f ms  %.2fx the bare compile\n",
              bench::median(cold) * 1e3, bench::median(cold) / floor);
  std::printf("  first call, ReductionKernel                                      %8.1f ms  %.2fx the bare compile\n",
              bench::median(cold_reduce) * 1e3, bench::median(cold_reduce) / floor);
  std::printf("  first call from the disk cache (load + run)                      %8.1f us\n",
              bench::median(disk) * 1e6);
  std::printf(
      "  in-memory hit, squared_diff(a, b, out), n = 8                    %8.0f ns  (xp::add(a, b, out): %.0f ns)\n",
      t(0) * 1e9, t(1) * 1e9);
  std::printf(
      "  squared_diff(x, y, z), 2^24 float32                              %8.1f GB/s  %.2f of xp::transform, "
      "%.2f of STREAM add\n",
      bytes / t(3) / 1e9, t(4) / t(3), t(2) / t(3));
  std::printf("  xp::transform (x-y)^2 into z, 2^24                               %8.1f GB/s\n", bytes / t(4) / 1e9);
  std::printf("  squared_diff(m, row, z), a row broadcast, 4096^2 float32        %8.1f GB/s  %.2f of xp::transform\n",
              2.0 * n * sizeof(float) / t(9) / 1e9, t(10) / t(9));
  std::printf("  STREAM-like add, 2^24                                            %8.1f GB/s\n", bytes / t(2) / 1e9);
  const double read = static_cast<double>(n) * sizeof(float);
  std::printf("  l2norm(x) ReductionKernel, 2^24 float32                          %8.1f GB/s  %.2f of xp::norm\n",
              read / t(5) / 1e9, t(6) / t(5));
  std::printf("  l2norm(m, axis 0) ReductionKernel, 4096^2 float32                %8.1f GB/s  %.2f of xp::norm(m, 0)\n",
              read / t(7) / 1e9, t(8) / t(7));
  std::printf("  xp::norm(x), 2^24; xp::norm(m, 0), 4096^2                        %8.1f GB/s; %.1f GB/s\n",
              read / t(6) / 1e9, read / t(8) / 1e9);
  const auto verdict = [](bool met) { return met ? "met" : "MISSED"; };
  std::printf("targets: first calls <= 100 ms: elementwise %s, reduction %s; in-memory hit <= 150 ns: %s\n",
              verdict(bench::median(cold) <= 0.1), verdict(bench::median(cold_reduce) <= 0.1), verdict(t(0) <= 150e-9));
}
