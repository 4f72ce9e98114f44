// xparray on one GPU, for scripts/gpu.sh: the device-to-device copy (the ceiling), fused (x - y)^2 and
// sums at 2^20..2^28 float32 elements and on a 4096^2 matrix, a float16 subtract and float16/bfloat16
// products, sorts, indexing, solve, eigh and FFTs (with xp::fft), timed with xp::Event on the null stream;
// the host time of small calls, a captured 20-op step's replay, run-time kernels' first calls, pool pairs
// and 256 MiB transfers, timed
// on the host clock. Prints "name elements seconds" per measurement (medians over repeats);
// bench/run_gpu_benchmarks.py reads it beside bench/cupy_bench.py, which prints the same names.
#include <cuda_runtime.h>
#include <unistd.h>
#include <xp/xp.hpp>
#if XP_BENCH_FFT
#include <xp/fft.hpp>
#endif

#include <complex>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

struct SquaredDifference {
  XP_HOST_DEVICE float operator()(float x, float y) const { return (x - y) * (x - y); }
};

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "gpu_bench: %s failed: %s\n", call, cudaGetErrorString(status));
    std::exit(1);
  }
}

// The ceiling: the runtime's own device-to-device copy, on the null stream.
void device_copy(void* dst, const void* src, std::size_t bytes) {
  check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, nullptr), "cudaMemcpyAsync");
}

void print(const char* name, std::int64_t elements, double seconds) {
  std::printf("%s %lld %.6e\n", name, static_cast<long long>(elements), seconds);
  std::fflush(stdout);
}

// Seconds per call of f on the device: events on the null stream around `calls` calls, the median of
// 15 samples after a warm-up.
double device_seconds(int calls, const std::function<void()>& f) {
  const xp::Stream stream = xp::Stream::null(xp::gpu(0));
  for (int i = 0; i < 3; ++i) f();
  std::vector<double> samples;
  for (int s = 0; s < 15; ++s) {
    xp::Event start, end;
    start.record(stream);
    for (int i = 0; i < calls; ++i) f();
    end.record(stream);
    end.synchronize();
    samples.push_back(1e-3 * xp::elapsed_time(start, end) / calls);
  }
  return bench::median(samples);
}

// Host seconds per call of a small launch: batches of 100 calls on the host clock, the device drained
// between batches so that the launch queue never fills and blocks the host.
double host_seconds(const std::function<void()>& f) {
  std::vector<double> samples;
  for (int batch = 0; batch < 51; ++batch) {
    xp::gpu(0).synchronize();
    const double seconds = bench::seconds_per_call(100, f);
    if (batch > 0) samples.push_back(seconds);  // the first batch warms up
  }
  xp::gpu(0).synchronize();
  return bench::median(samples);
}

// Wall seconds of f with the device work it queues, median of `repeats`.
double wall_seconds(int repeats, const std::function<void()>& f) {
  std::vector<double> samples;
  for (int r = 0; r < repeats; ++r) {
    xp::gpu(0).synchronize();
    samples.push_back(bench::seconds_per_call(1, [&] {
      f();
      xp::gpu(0).synchronize();
    }));
  }
  return bench::median(samples);
}

void bandwidth(const xp::ElementwiseKernel& squared_diff) {
  const xp::Device gpu = xp::gpu(0);
  for (int power = 20; power <= 28; ++power) {
    const std::int64_t n = std::int64_t{1} << power;
    const auto x = xp::random::uniform<float>(0, 1, {n}, gpu), y = xp::random::uniform<float>(0, 1, {n}, gpu);
    const auto z = xp::empty<float>({n}, gpu);
    const int calls = power < 24 ? 50 : 5;
    print("copy", n, device_seconds(calls, [&] { device_copy(z.data(), x.data(), n * sizeof(float)); }));
    print("transform_sqdiff", n, device_seconds(calls, [&] { xp::transform(SquaredDifference{}, x, y, xp::out(z)); }));
    print("kernel_sqdiff", n, device_seconds(calls, [&] { squared_diff(x, y, z); }));
    print("sum", n, device_seconds(calls, [&] { bench::escape(xp::sum(x).data()); }));
  }
  constexpr std::int64_t rows = 4096;
  const auto m = xp::random::uniform<float>(0, 1, {rows, rows}, gpu);
  const auto copy = xp::empty<float>({rows, rows}, gpu);
  print("copy_4096x4096", rows * rows,
        device_seconds(20, [&] { device_copy(copy.data(), m.data(), rows * rows * sizeof(float)); }));
  print("sum_all_4096x4096", rows * rows, device_seconds(20, [&] { bench::escape(xp::sum(m).data()); }));
  print("sum_axis0_4096x4096", rows * rows, device_seconds(20, [&] { bench::escape(xp::sum(m, 0).data()); }));
  print("sum_axis1_4096x4096", rows * rows, device_seconds(20, [&] { bench::escape(xp::sum(m, 1).data()); }));
  // sgemm through cuBLAS (FP32, no TF32 unless XP_ALLOW_TF32=1), into an existing array.
  const auto other = xp::random::uniform<float>(0, 1, {rows, rows}, gpu);
  print("matmul_4096", rows * rows, device_seconds(10, [&] { xp::matmul(m, other, copy); }));
}

// 2-byte floats: a built-in operation at 2^26 (three arrays of 2 bytes, against the copy of the same
// size's float32 rows: gpu.sh's table) and 4096 products (cuBLAS GemmEx, float32 accumulation).
void two_byte_floats() {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t n = std::int64_t{1} << 26, rows = 4096;
  const auto x = xp::random::uniform<xp::float16>(0, 1, {n}, gpu), y = xp::random::uniform<xp::float16>(0, 1, {n}, gpu);
  const auto z = xp::empty<xp::float16>({n}, gpu);
  print("subtract_float16", n, device_seconds(20, [&] { xp::subtract(x, y, z); }));
  const auto products = [&]<class T>(const char* name) {
    const auto a = xp::random::uniform<T>(0, 1, {rows, rows}, gpu), b = xp::random::uniform<T>(0, 1, {rows, rows}, gpu);
    const auto c = xp::empty<T>({rows, rows}, gpu);
    print(name, rows * rows, device_seconds(10, [&] { xp::matmul(a, b, c); }));
  };
  products.template operator()<xp::float16>("matmul_4096_float16");
  products.template operator()<xp::bfloat16>("matmul_4096_bfloat16");
}

// xp::fuse of exp(z + 2) * y at 2^24 float32 (two arrays read, one written; a new array each call, as
// cupy.fuse's), against the copy's bytes in the same process.
void fused_expression() {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t n = std::int64_t{1} << 24;
  const auto z = xp::random::uniform<float>(-1, 1, {n}, gpu), y = xp::random::uniform<float>(0, 1, {n}, gpu);
  const auto fused = xp::fuse([](auto a, auto b) { return xp::exp(a + 2) * b; });
  bench::escape(fused(z, y).raw_data());  // traced and compiled before the timing
  print("fused_exp_chain", n, device_seconds(20, [&] { bench::escape(fused(z, y).raw_data()); }));
}

// Sorts, scans and unique at 2^26 (issue sizes; new arrays each call, as CuPy's), against the copy of
// the bandwidth rows at the same size.
void sorting() {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t n = std::int64_t{1} << 26;
  const auto x = xp::random::uniform<float>(0, 1, {n}, gpu);
  print("sort_float32", n, device_seconds(5, [&] { bench::escape(xp::sort(x).data()); }));
  print("argsort_float32", n, device_seconds(5, [&] { bench::escape(xp::argsort(x).data()); }));
  print("cumsum_float32", n, device_seconds(10, [&] { bench::escape(xp::cumsum(x).data()); }));
  const auto repeated = xp::random::uniform<double>(0, 65536, {n}, gpu).astype<std::int32_t>();
  print("unique_int32", n, device_seconds(5, [&] { bench::escape(xp::unique(repeated).values.data()); }));
}

// Random numbers at 2^26 (new arrays each call, as CuPy's Generator's): against the copy's bytes written.
void random_numbers() {
  constexpr std::int64_t n = std::int64_t{1} << 26;
  auto g = xp::random::default_rng(1);
  print("standard_normal_float32", n,
        device_seconds(10, [&] { bench::escape(g.standard_normal<float>({n}, xp::gpu(0)).data()); }));
}

void indexing() {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t n = std::int64_t{1} << 26;
  const auto x = xp::random::uniform<float>(0, 1, {n}, gpu);
  const auto positions = xp::random::uniform<double>(0, static_cast<double>(n), {n}, gpu).astype<std::int64_t>();
  const auto mask = x < 0.5f;
  const auto target = xp::zeros<float>({n}, gpu);
  print("gather_float32", n, device_seconds(10, [&] { bench::escape(x(positions).data()); }));
  print("mask_float32", n, device_seconds(10, [&] { bench::escape(x(mask).data()); }));
  print("scatter_add_float32", n, device_seconds(10, [&] { xp::scatter_add(target, positions, x); }));
}

// Solvers and transforms at the CPU benchmarks' sizes (new arrays each call, as CuPy's): solve of 1024 x
// 1024 float64, eigh of 4096 stacked 8 x 8 float32; fft of 2^20 complex64, rfft of 2^22 float32, fft of a
// prime length (10007 complex128).
void solvers_and_transforms() {
  const xp::Device gpu = xp::gpu(0);
  const auto a =
      xp::add(xp::random::uniform<double>(-1, 1, {1024, 1024}, gpu), xp::eye<double>(1024, 1024, 0, gpu) * 1024.0);
  const auto b = xp::random::uniform<double>(-1, 1, {1024}, gpu);
  print("solve_1024_float64", 1024, device_seconds(5, [&] { bench::escape(xp::linalg::solve(a, b).raw_data()); }));
  const auto small = xp::random::uniform<float>(-1, 1, {4096, 8, 8}, gpu);
  const xp::ndarray<> symmetric = xp::add(small, xp::swapaxes(small, -1, -2));
  print("eigh_4096x8x8_float32", 4096,
        device_seconds(5, [&] { bench::escape(xp::linalg::eigh(symmetric).eigenvalues.raw_data()); }));
#if XP_BENCH_FFT
  const auto complex_values = [&](std::int64_t n, xp::dtype type) {
    return xp::add(xp::ndarray<>(xp::random::uniform<double>(-1, 1, {n}, gpu)).astype(type),
                   xp::multiply(xp::ndarray<>(xp::random::uniform<double>(-1, 1, {n}, gpu)).astype(type),
                                std::complex<double>(0, 1)));
  };
  const xp::ndarray<> c64 = complex_values(1 << 20, xp::dtype::complex64);
  const xp::ndarray<> f32 = xp::random::uniform<float>(-1, 1, {1 << 22}, gpu);
  const xp::ndarray<> prime = complex_values(10007, xp::dtype::complex128);
  print("fft_2^20_complex64", 1 << 20, device_seconds(20, [&] { bench::escape(xp::fft::fft(c64).raw_data()); }));
  print("rfft_2^22_float32", 1 << 22, device_seconds(20, [&] { bench::escape(xp::fft::rfft(f32).raw_data()); }));
  print("fft_10007_complex128", 10007, device_seconds(50, [&] { bench::escape(xp::fft::fft(prime).raw_data()); }));
#endif
}

// A step of 20 operations on 8 elements, captured once (xp::capture) and replayed by one launch: host time per
// operation, against the same step run uncaptured on the same stream.
void captured_step() {
  const xp::Device gpu = xp::gpu(0);
  const xp::Stream stream(gpu);
  const auto x = xp::ones<float>({8}, gpu);
  xp::ndarray<float> result;
  const auto step = [&] {
    auto t = x;
    for (int op = 0; op < 20; ++op) t = t * 1.0001f;
    result = t;
  };
  const xp::Graph graph = xp::capture(stream, step);
  print("captured_20_ops_host", 20, host_seconds([&] { graph.launch(stream); }) / 20);
  const xp::StreamScope on(stream);
  print("uncaptured_20_ops_host", 20, host_seconds(step) / 20);
}

void small_calls(const xp::ElementwiseKernel& squared_diff) {
  const xp::Device gpu = xp::gpu(0);
  const auto a = xp::ones<float>({8}, gpu), b = xp::ones<float>({8}, gpu), out = xp::zeros<float>({8}, gpu);
  print("add_n8_host", 8, host_seconds([&] { xp::add(a, b, out); }));
  print("kernel_n8_host", 8, host_seconds([&] { squared_diff(a, b, out); }));
  captured_step();

  // First calls: a new kernel each time (the cache directory starts empty), then the same kernel
  // after clear_memo, served by the disk cache.
  std::vector<double> elementwise, reduction, disk;
  for (int k = 0; k < 5; ++k) {
    const std::string constant = std::to_string(k + 2);
    const xp::ElementwiseKernel kernel("T x, T y", "T z", "z = (x - y) * (x - y) + " + constant, "cold_" + constant);
    elementwise.push_back(wall_seconds(1, [&] { kernel(a, b, out); }));
    const xp::ReductionKernel norm("T x", "T y", "x * x", "a + b", "y = sqrt(a) + " + constant, "0",
                                   "cold_norm_" + constant);
    reduction.push_back(wall_seconds(1, [&] { bench::escape(norm(a).data()); }));
    xp::clear_memo();
    disk.push_back(wall_seconds(1, [&] { kernel(a, b, out); }));
  }
  print("first_call_elementwise", 8, bench::median(elementwise));
  print("first_call_reduction", 8, bench::median(reduction));
  print("first_call_disk_cache", 8, bench::median(disk));

  xp::MemoryPool& pool = xp::get_default_memory_pool(gpu);
  for (const std::int64_t bytes : {std::int64_t{512}, std::int64_t{1} << 20, std::int64_t{64} << 20}) {
    std::vector<double> samples;
    for (int r = 0; r < 9; ++r)
      samples.push_back(bench::seconds_per_call(20000, [&] {
        xp::Allocation allocation = pool.malloc(static_cast<std::size_t>(bytes));
        bench::escape(allocation.get());
      }));
    print("pool_pair", bytes, bench::median(samples));
  }
}

void transfers() {
  constexpr std::int64_t n = std::int64_t{64} << 20;  // 256 MiB of float32
  constexpr std::size_t bytes = n * sizeof(float);
  const xp::Device gpu = xp::gpu(0);
  const auto pageable = xp::random::uniform<float>(0, 1, {n}, xp::cpu(0));
  const auto pinned = xp::random::uniform<float>(0, 1, {n}, xp::cpu_pinned(0));
  const auto on_gpu = xp::random::uniform<float>(0, 1, {n}, gpu);
  // Into arrays made beforehand, on both sides (bench/cupy_bench.py: set, get(out=)): the copies alone.
  const auto gpu_target = xp::empty<float>({n}, gpu);
  const auto host_target = xp::empty<float>({n}, xp::cpu(0));
  const auto pinned_target = xp::empty<float>({n}, xp::cpu_pinned(0));
  constexpr int repeats = 7;
  print("to_gpu_pageable", n, wall_seconds(repeats, [&] { pageable.copyto(gpu_target); }));
  print("to_cpu_pageable", n, wall_seconds(repeats, [&] { on_gpu.copyto(host_target); }));
  print("to_gpu_pinned", n, wall_seconds(repeats, [&] { pinned.copyto(gpu_target); }));
  print("to_cpu_pinned", n, wall_seconds(repeats, [&] { on_gpu.copyto(pinned_target); }));

  // The ceiling: cudaMemcpy between a device buffer and malloc'd or cudaHostAlloc'd host memory.
  void* device = nullptr;
  void* host_pinned = nullptr;
  check(cudaMalloc(&device, bytes), "cudaMalloc");
  check(cudaHostAlloc(&host_pinned, bytes, cudaHostAllocDefault), "cudaHostAlloc");
  std::vector<float> host(n, 1.0f);
  const auto memcpy_seconds = [&](void* dst, const void* src, cudaMemcpyKind kind) {
    return wall_seconds(repeats, [&] { check(cudaMemcpy(dst, src, bytes, kind), "cudaMemcpy"); });
  };
  print("memcpy_h2d_pageable", n, memcpy_seconds(device, host.data(), cudaMemcpyHostToDevice));
  print("memcpy_d2h_pageable", n, memcpy_seconds(host.data(), device, cudaMemcpyDeviceToHost));
  print("memcpy_h2d_pinned", n, memcpy_seconds(device, host_pinned, cudaMemcpyHostToDevice));
  print("memcpy_d2h_pinned", n, memcpy_seconds(host_pinned, device, cudaMemcpyDeviceToHost));
  check(cudaFreeHost(host_pinned), "cudaFreeHost");
  check(cudaFree(device), "cudaFree");
}

}  // namespace

int main() {
  if (xp::num_gpus() == 0) {
    std::fprintf(stderr, "gpu_bench: no GPU\n");
    return 2;
  }
  // A private kernel cache: first calls really compile.
  const std::filesystem::path cache =
      std::filesystem::temp_directory_path() / ("xparray-gpu-bench-" + std::to_string(::getpid()));
  std::filesystem::remove_all(cache);
  ::setenv("XP_CACHE_DIR", cache.c_str(), 1);
  xp::random::seed(1);

  const xp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff");
  bandwidth(squared_diff);
  two_byte_floats();
  fused_expression();
  sorting();
  random_numbers();
  indexing();
  solvers_and_transforms();
  small_calls(squared_diff);
  transfers();
  std::filesystem::remove_all(cache);
}
