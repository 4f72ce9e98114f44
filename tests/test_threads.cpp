// The shared state of the library under 8 threads at once: the pools, memoize, the run-time kernels'
// caches (in memory and on disk), device scopes, autograd's thread-local state, and the executors'
// per-device threads. Every case checks values; under ThreadSanitizer (the tsan preset, run by the test
// command) they must also pass with zero reports. Suite "threads": `xp_tests --test-suite=threads`.
#include <doctest/doctest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "temporary_cache.hpp"
#include "xp/gluon.hpp"
#include "xp/xp.hpp"

namespace {

constexpr int kThreads = 8;

// Runs body(t) on kThreads threads at once and joins them; failures are counted, not thrown across.
template <class Body>
void on_threads(Body body) {
  std::vector<std::thread> threads;
  std::atomic<int> ready{0};
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      ready.fetch_add(1);
      while (ready.load() < kThreads) std::this_thread::yield();  // start together
      body(t);
    });
  for (auto& thread : threads) thread.join();
}

}  // namespace

TEST_CASE("threads: the pools hand out, take back and count blocks from 8 threads" * doctest::test_suite("threads")) {
  const std::vector<xp::Device> devices{xp::cpu(0), xp::cpu_pinned(0)};
  // Pinned blocks an earlier case freed while a GPU stream still read them count as used until the pool
  // sees that work done: let it finish, and let the pools collect them, before counting.
  for (int g = 0; g < xp::num_gpus(); ++g) xp::gpu(g).synchronize();
  std::vector<std::size_t> used_before;
  for (const xp::Device& d : devices) {
    xp::get_default_memory_pool(d).free_all_blocks();
    used_before.push_back(xp::get_default_memory_pool(d).used_bytes());
  }
  std::atomic<int> wrong{0};
  on_threads([&](int t) {
    for (int round = 0; round < 200; ++round) {
      const xp::Device device = devices[static_cast<std::size_t>(round + t) % devices.size()];
      const std::int64_t n = 1 + (round * 37 + t * 101) % 3000;
      const auto a = xp::full<std::int32_t>({n}, t * 1000 + round, device);
      const auto b = a + 1;
      if (xp::sum(b).item() != n * (t * 1000 + round + 1)) wrong.fetch_add(1);
    }
  });
  CHECK(wrong.load() == 0);
  for (std::size_t d = 0; d < devices.size(); ++d)
    CHECK(xp::get_default_memory_pool(devices[d]).used_bytes() == used_before[d]);
}

TEST_CASE("threads: a memoized function answers 8 threads, while another clears the memo" *
          doctest::test_suite("threads")) {
  std::atomic<int> calls{0};
  const auto square = xp::memoize([&](int n) {
    calls.fetch_add(1);
    return n * n;
  });
  std::atomic<int> wrong{0};
  on_threads([&](int t) {
    for (int round = 0; round < 500; ++round) {
      const int n = (round + t) % 17;
      if (square(n) != n * n) wrong.fetch_add(1);
      if (t == 0 && round % 100 == 99) xp::clear_memo();
    }
  });
  CHECK(wrong.load() == 0);
  CHECK(calls.load() >= 17);  // each key at least once, again after each clear
}

TEST_CASE("threads: run-time kernels compile once and load from the disk cache under 8 threads" *
          doctest::test_suite("threads")) {
  const TemporaryCache cache;
  // Names of this process only: a kernel compiled by an earlier run would be found in memory.
  const std::string tag = std::to_string(::getpid());
  const xp::ElementwiseKernel axpy("T a, T x, T y", "T z", "z = a * x + y", "threads_axpy_" + tag);
  const xp::ReductionKernel sum_squares("T x", "T y", "x * x", "a + b", "y = a", "0", "threads_sum_squares_" + tag);
  const auto run = [&](int t) {
    const auto x = xp::arange<float>(64) + static_cast<float>(t);
    const auto z = axpy(2.0f, x, xp::ones<float>({64}));
    const float want_z = 2.0f * (5.0f + static_cast<float>(t)) + 1.0f;
    double want_sum = 0;
    for (int i = 0; i < 64; ++i) want_sum += (i + t) * (i + t);
    return z.as<float>().to_vector()[5] == want_z && sum_squares(x.astype<double>()).as<double>().item() == want_sum;
  };
  std::atomic<int> wrong{0};
  on_threads([&](int t) { wrong.fetch_add(run(t) ? 0 : 1); });
  CHECK(wrong.load() == 0);
  CHECK(axpy.cached_kernels() == 1);
  CHECK(cache.entries().size() == 2);  // one entry per kernel: the threads that lost the race wrote nothing new
  // Forgotten in memory, the kernels come back from disk, to 8 threads at once.
  xp::clear_memo();
  on_threads([&](int t) { wrong.fetch_add(run(t) ? 0 : 1); });
  CHECK(wrong.load() == 0);
  CHECK(cache.entries().size() == 2);
}

TEST_CASE("threads: device scopes are each thread's own" * doctest::test_suite("threads")) {
  std::atomic<int> wrong{0};
  const xp::DeviceScope outer(xp::cpu(5));  // the main thread's scope is not the others'
  on_threads([&](int t) {
    if (xp::current_device() != xp::cpu(0)) wrong.fetch_add(1);
    for (int round = 0; round < 100; ++round) {
      const xp::DeviceScope scope(xp::cpu(t));
      {
        const xp::DeviceScope inner(xp::cpu_pinned(t));
        if (xp::zeros<float>({2}).device() != xp::cpu_pinned(t)) wrong.fetch_add(1);
      }
      if (xp::current_device() != xp::cpu(t) || xp::ones<float>({3}).device() != xp::cpu(t)) wrong.fetch_add(1);
    }
    if (xp::current_device() != xp::cpu(0)) wrong.fetch_add(1);
  });
  CHECK(wrong.load() == 0);
  CHECK(xp::current_device() == xp::cpu(5));
}

TEST_CASE("threads: autograd records each thread's graph alone" * doctest::test_suite("threads")) {
  std::atomic<int> wrong{0};
  on_threads([&](int t) {
    for (int round = 0; round < 50; ++round) {
      auto x = xp::array<double>({1.0, 2.0, 3.0}) + static_cast<double>(t);
      x.attach_grad();
      if (t % 2 == 0) {
        xp::autograd::record recording;
        const auto y = xp::sum(x * x * static_cast<double>(round + 1));
        y.backward();
      } else {
        // Odd threads do not record: their operations leave no graph, whatever the even ones do.
        if (xp::autograd::is_recording()) wrong.fetch_add(1);
        const auto y = xp::sum(x * x);
        (void)y;
        continue;
      }
      const std::vector<double> g = x.grad().to_vector();
      for (int i = 0; i < 3; ++i)
        if (g[static_cast<std::size_t>(i)] != 2.0 * (round + 1) * (i + 1 + t)) wrong.fetch_add(1);
    }
  });
  CHECK(wrong.load() == 0);
}

TEST_CASE("threads: the executor manager steps 8 cpu devices at once, as one device" * doctest::test_suite("threads")) {
  const auto net = xp::sym::LinearRegressionOutput(xp::sym::FullyConnected(xp::sym::var("data"), 1, "fc"),
                                                   xp::sym::var("lin_label"), "lin");
  std::vector<float> d, l;
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 4; ++j) d.push_back(static_cast<float>(std::sin(0.3 * i + 0.7 * j)));
    l.push_back(static_cast<float>(std::cos(0.2 * i)));
  }
  const auto data = xp::array<float>(d, {64, 4}), label = xp::array<float>(l, {64});
  const auto train = [&](const std::vector<xp::Device>& devices) {
    xp::io::NDArrayIter it(data, label, 32, false, "pad", "data", "lin_label");
    xp::DataParallelExecutorManager mgr(net, devices, it, net.list_arguments(), {"fc_weight", "fc_bias"}, {});
    mgr.set_params({{"fc_weight", xp::array<float>(std::vector<float>{0.1f, -0.2f, 0.3f, 0.05f}, {1, 4})},
                    {"fc_bias", xp::array<float>(std::vector<float>{0.5f}, {1})}},
                   {});
    for (int epoch = 0; epoch < 3; ++epoch) {
      it.reset();
      while (auto batch = it.next()) {
        mgr.load_data_batch(*batch);
        mgr.forward(true);
        mgr.backward();
        for (std::size_t p = 0; p < 2; ++p) {
          auto total = mgr.grad_arrays()[p][0].copyto(xp::cpu(0));
          for (std::size_t k = 1; k < devices.size(); ++k) total = total + mgr.grad_arrays()[p][k].copyto(xp::cpu(0));
          const auto step = total * (0.1f / 32);
          for (const auto& w : mgr.param_arrays()[p]) (w - step.as_in_context(w.device())).copyto(w);
        }
      }
    }
    xp::ArrayDict args, aux;
    mgr.copy_to(args, aux);
    return args.at("fc_weight").as<float>().to_vector();
  };
  std::vector<xp::Device> eight;
  for (int k = 0; k < kThreads; ++k) eight.push_back(xp::cpu(k));
  const std::vector<float> one = train({xp::cpu(0)}), many = train(eight);
  REQUIRE(one.size() == many.size());
  for (std::size_t i = 0; i < one.size(); ++i) CHECK(many[i] == doctest::Approx(one[i]).epsilon(1e-5));
}
