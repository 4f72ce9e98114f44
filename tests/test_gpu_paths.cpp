// GPU paths that the everyday cases do not reach: offsets past 2^31 in strided kernels (int32 pieces), reductions with
// more outputs than a grid has rows or blocks, the device's own out-of-memory, a kernel fault's sticky
// error, and XP_ALLOW_TF32. Only on a GPU (scripts/gpu.sh); the child cases run in a process of their own.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "child_process.hpp"
#include "device_cases.hpp"
#include "xp/user_kernel.hpp"
#include "xp/xp.hpp"

namespace {

constexpr std::int64_t kPast2To31 = (std::int64_t{1} << 31) + 64;

}  // namespace

XP_GPU_TEST_CASE("gpu: a strided view with offsets past 2^31 runs in pieces that fit in int32") {
  const xp::Device gpu = xp::gpu(0);
  // 2 GiB of bytes; the view's third element lies 2^31 + 32 bytes into them.
  auto bytes = xp::zeros<std::uint8_t>({kPast2To31}, gpu);
  const std::int64_t step = (kPast2To31 - 32) / 2;
  xp::full<std::uint8_t>({1}, 7, gpu).copyto(bytes(xp::slice(step, step + 1)));
  xp::full<std::uint8_t>({1}, 9, gpu).copyto(bytes(xp::slice(2 * step, 2 * step + 1)));
  const auto view = bytes(xp::slice(0, kPast2To31, step));
  REQUIRE(view.shape() == xp::Shape{3});
  CHECK(xp::add(view, view).to_vector() == std::vector<std::uint8_t>{0, 14, 18});
  // Written through the view too: the output's offsets are past 2^31 as well.
  xp::add(view, xp::full<std::uint8_t>({3}, 1, gpu), view);
  CHECK(view.to_vector() == std::vector<std::uint8_t>{1, 8, 10});
}

XP_GPU_TEST_CASE("gpu: reductions with more than 65,535 outputs loop over grid rows") {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t rows = 70001;
  // Row r holds r, r+1, ..., r+7: its sum is 8r + 28, exact in float32 below 2^24.
  const auto values = (xp::arange<float>(0, rows, 1).reshape({rows, 1}) + xp::arange<float>(0, 8, 1)).copyto(gpu);
  const std::vector<float> sums = xp::sum(values, 1).to_vector();
  REQUIRE(sums.size() == static_cast<std::size_t>(rows));
  std::int64_t wrong = 0;
  for (std::int64_t r = 0; r < rows; ++r) wrong += sums[static_cast<std::size_t>(r)] != static_cast<float>(8 * r + 28);
  CHECK(wrong == 0);
  // Two reduced axes: the indexed kernel.
  const std::vector<float> pairs = xp::sum(values.reshape({rows, 2, 4}), xp::Axes{1, 2}).to_vector();
  wrong = 0;
  for (std::int64_t r = 0; r < rows; ++r) wrong += pairs[static_cast<std::size_t>(r)] != static_cast<float>(8 * r + 28);
  CHECK(wrong == 0);
}

XP_GPU_TEST_CASE("gpu: a user reduction with more than 2^20 outputs loops over blocks") {
  const xp::Device gpu = xp::gpu(0);
  constexpr std::int64_t rows = (std::int64_t{1} << 20) + 5;
  const xp::ReductionKernel row_max("T x", "T y", "x", "max(a, b)", "y = a", "-1", "row_max_many");
  // Row r holds r and r - 1: its maximum is r.
  auto pairs = xp::stack({xp::arange<std::int32_t>(0, rows, 1), xp::arange<std::int32_t>(-1, rows - 1, 1)}, 1);
  const std::vector<std::int32_t> maxima = row_max(pairs.copyto(gpu), xp::axis(1)).as<std::int32_t>().to_vector();
  REQUIRE(maxima.size() == static_cast<std::size_t>(rows));
  std::int64_t wrong = 0;
  for (std::int64_t r = 0; r < rows; ++r) wrong += maxima[static_cast<std::size_t>(r)] != r;
  CHECK(wrong == 0);
}

XP_GPU_TEST_CASE("gpu: out of memory under set_limit and from the device itself; the device still works") {
  const xp::Device gpu = xp::gpu(0);
  xp::MemoryPool& pool = xp::get_default_memory_pool(gpu);
  const std::size_t limit = pool.get_limit();
  pool.free_all_blocks();  // a cached block of the size asked for would serve it within any limit
  pool.set_limit(std::size_t{1} << 20);
  CHECK_THROWS_WITH_AS(xp::empty<float>({1 << 20}, gpu), doctest::Contains("limit: 1048576 bytes"),
                       xp::OutOfMemoryError);
  pool.set_limit(0);
  // More than the device has: cudaMalloc itself refuses, the pool frees its cache, retries, then says so.
  const std::size_t total = xp::gpu_memory_info(0).total;
  CHECK_THROWS_WITH_AS(xp::empty<std::uint8_t>({static_cast<std::int64_t>(total + (std::size_t{1} << 30))}, gpu),
                       doctest::Contains("out of memory on gpu(0)"), xp::OutOfMemoryError);
  pool.set_limit(limit);
  // Not a sticky error: the next work on the device succeeds.
  CHECK(xp::full<float>({3}, 2.0f, gpu).to_vector() == std::vector<float>{2, 2, 2});
}

// In a child: a kernel reads a terabyte past its array; the next call that waits reports the fault,
// and so does every call after it (the context is lost).
TEST_CASE("child: a kernel that faults" * doctest::skip(!is_child_case("fault"))) {
  const xp::Device gpu = xp::gpu(0);
  const auto x = xp::zeros<float>({4}, gpu);
  const xp::ElementwiseKernel wild("T a, raw T x", "T y", "y = x[i + (1LL << 40)]", "wild_read");
  const auto y = wild(x, x);
  for (const char* when : {"first", "then"}) {
    try {
      gpu.synchronize();
      std::printf("XP_CHILD %s: no error\n", when);
    } catch (const xp::CudaError& e) { std::printf("XP_CHILD %s: CudaError %s\n", when, e.what()); }
  }
  std::fflush(stdout);
}

XP_GPU_TEST_CASE("gpu: a kernel fault is a CudaError naming the call, and it stays (seen in a child process)") {
  const ChildResult child = run_child_case("fault", "child: a kernel that faults");
  INFO(child.output);
  CHECK(child.exit_status == 0);
  CHECK(child.output.find("XP_CHILD first: CudaError cudaDeviceSynchronize") != std::string::npos);
  CHECK(child.output.find("cudaErrorIllegalAddress") != std::string::npos);
  CHECK(child.output.find("XP_CHILD then: CudaError") != std::string::npos);
}

// In a child: 1024 x 1024 float32 matrices, A filled with 1 + 2^-12 and B the identity. In float32, A B = A;
// TF32 keeps 10 bits of mantissa, so A's entries round to 1.
TEST_CASE("child: a float32 product with and without TF32" * doctest::skip(!is_child_case("tf32"))) {
  const xp::Device gpu = xp::gpu(0);
  const float entry = 1.0f + std::ldexp(1.0f, -12);
  const auto a = xp::full<float>({1024, 1024}, entry, gpu);
  const auto product = xp::matmul(a, xp::eye<float>(1024, std::nullopt, 0, gpu));
  std::printf("XP_CHILD c00=%.9g\n", static_cast<double>(product(0, 0).item()));
  std::fflush(stdout);
}

XP_GPU_TEST_CASE("gpu: XP_ALLOW_TF32=1 rounds float32 products to TF32, unset they are exact (in child processes)") {
  const ChildResult exact = run_child_case("tf32", "child: a float32 product*", {{"XP_ALLOW_TF32", std::nullopt}});
  INFO(exact.output);
  CHECK(exact.exit_status == 0);
  CHECK(exact.output.find("XP_CHILD c00=1.00024414") != std::string::npos);
  const ChildResult tf32 = run_child_case("tf32", "child: a float32 product*", {{"XP_ALLOW_TF32", "1"}});
  INFO(tf32.output);
  CHECK(tf32.exit_status == 0);
  CHECK(tf32.output.find("XP_CHILD c00=1\n") != std::string::npos);
}
