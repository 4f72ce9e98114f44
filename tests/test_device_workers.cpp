// The data-parallel device workers: every device's task at once, the cpu devices splitting the
// library's threads between them (their loops and large products run on their share), failures
// rethrown in device order.
#include <doctest/doctest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "chunk_recorder.hpp"
#include "omp_threads.hpp"
#include "parallel/device_workers.hpp"
#include "xp/kernels/cpu/parallel_for.hpp"
#include "xp/xp.hpp"

TEST_CASE("device workers: cpu devices split the threads, a GPU's worker takes one") {
  using xp::parallel::core_shares;
  CHECK(core_shares({xp::cpu(0), xp::cpu(1)}, 16) == std::vector<int>{8, 8});
  CHECK(core_shares({xp::cpu(0), xp::cpu(1), xp::cpu(2)}, 8) == std::vector<int>{3, 3, 2});
  CHECK(core_shares({xp::gpu(0), xp::cpu(0), xp::cpu(1)}, 16) == std::vector<int>{1, 8, 7});
  CHECK(core_shares({xp::gpu(0), xp::gpu(1)}, 16) == std::vector<int>{1, 1});
  // Fewer threads than devices: every cpu device still has its own.
  CHECK(core_shares({xp::gpu(0), xp::cpu(0), xp::cpu(1)}, 2) == std::vector<int>{1, 1, 1});
}

TEST_CASE("device workers: each cpu device's loops and products run on its share of the threads") {
  with_threads(4, [] {
    xp::parallel::DeviceWorkers workers({xp::cpu(0), xp::cpu(1)});
    std::vector<int> threads_seen(2);
    std::vector<Chunks> chunks(2);
    // A product large enough to be split into blocks of rows on a share (256^3 multiply-adds).
    const std::int64_t n = 256;
    std::vector<float> a(n * n), b(n * n);
    for (std::int64_t i = 0; i < n * n; ++i) {
      a[static_cast<std::size_t>(i)] = static_cast<float>(std::sin(0.01 * static_cast<double>(i)));
      b[static_cast<std::size_t>(i)] = static_cast<float>(std::cos(0.02 * static_cast<double>(i)));
    }
    std::vector<std::vector<float>> products(2);
    workers.run([&](std::size_t device) {
      threads_seen[device] = xp::detail::cpu_threads();
      xp::detail::parallel_for(8, 1, &Chunks::record, &chunks[device]);
      const xp::Device d = workers.devices()[device];
      products[device] = xp::matmul(xp::array<float>(a, {n, n}, d), xp::array<float>(b, {n, n}, d)).to_vector();
    });
    CHECK(threads_seen == std::vector<int>{2, 2});
    for (std::size_t device = 0; device < 2; ++device) {
      CHECK(chunks[device].seen.size() == 2);
      std::int64_t covered = 0;
      for (const auto& [begin, end] : chunks[device].seen) covered += end - begin;
      CHECK(covered == 8);
      // Against a float64 product, at rows and columns in every block of rows.
      for (std::int64_t i = 0; i < n; i += 37) {
        for (std::int64_t j = 0; j < n; j += 41) {
          double expected = 0;
          for (std::int64_t k = 0; k < n; ++k)
            expected += double{a[static_cast<std::size_t>(i * n + k)]} * double{b[static_cast<std::size_t>(k * n + j)]};
          CHECK(products[device][static_cast<std::size_t>(i * n + j)] == doctest::Approx(expected).epsilon(1e-4));
        }
      }
    }
    // Outside the workers the caller's threads are back.
    CHECK(xp::detail::cpu_threads() == 4);
  });
}

TEST_CASE("device workers: a failing device's error reaches the caller, after every device ran") {
  xp::parallel::DeviceWorkers workers({xp::cpu(0), xp::cpu(1), xp::cpu(2)});
  std::vector<int> ran(3);
  CHECK_THROWS_WITH_AS(workers.run([&](std::size_t device) {
    ran[device] = 1;
    if (device >= 1) throw std::runtime_error("device " + std::to_string(device) + " failed");
  }),
                       "device 1 failed", std::runtime_error);
  CHECK(ran == std::vector<int>{1, 1, 1});
}
