// Injected allocation failures: the device pool's raw allocator fails at its N-th call, swept over every
// N an operation reaches (creation, elementwise, reductions, user kernels, matmul, a training step).
// Failing from the N-th call on, every operation ends in an OutOfMemoryError (after the pool's retry),
// its temporaries all go back to the pool (used bytes as before) and the raw allocator gets back every
// block (no leak; the asan build's LeakSanitizer checks the rest). Failing at the N-th call alone, the
// retry succeeds and the operation gives its value.
//
// Every allocation must reach the raw allocator for the sweep to cover it, so these cases run where the
// pools do not cache (XP_DISABLE_POOL=1): ctest's fault_injection runs `xp_tests --test-suite=faults`
// so; elsewhere they are skipped. (With caching, blocks split from earlier allocations would serve some
// requests without a raw call.) The cache's own free-and-retry is tested in test_memory_pool.cpp.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "pool_disabled.hpp"
#include "xp/gluon.hpp"
#include "xp/xp.hpp"

// One body on every kind of device, in suite "faults", skipped unless the pools do not cache.
#define XP_FAULT_CASE(name) XP_FAULT_CASE_IMPL(name, DOCTEST_ANONYMOUS(xp_fault_test_))
#define XP_FAULT_CASE_IMPL(name, body)                                                                               \
  static void body(xp::Device device);                                                                               \
  TEST_CASE(name " @cpu" * doctest::test_suite("faults") * doctest::skip(!pool_disabled())) { body(xp::cpu(0)); }    \
  TEST_CASE(name " @cpu_pinned" * doctest::test_suite("faults") * doctest::skip(!pool_disabled())) {                 \
    body(xp::cpu_pinned(0));                                                                                         \
  }                                                                                                                  \
  TEST_CASE(name " @gpu" * doctest::test_suite("faults") * doctest::skip(!pool_disabled() || xp::num_gpus() == 0)) { \
    body(xp::gpu(0));                                                                                                \
  }                                                                                                                  \
  static void body([[maybe_unused]] xp::Device device)

namespace {

// Hands on to the pool's own raw allocator, failing (returning null, as exhausted memory does) at the
// fail_at-th call, and at every later one when keeps_failing. Installed in the device's default pool
// for its lifetime.
class FailingAllocator final : public xp::RawAllocator {
 public:
  FailingAllocator(xp::Device device, int fail_at, bool keeps_failing)
      : pool_(xp::get_default_memory_pool(device)), fail_at_(fail_at), keeps_failing_(keeps_failing) {
    inner_ = &xp::detail::exchange_raw_allocator(pool_, *this);
  }
  ~FailingAllocator() override { xp::detail::exchange_raw_allocator(pool_, *inner_); }
  FailingAllocator(const FailingAllocator&) = delete;
  FailingAllocator& operator=(const FailingAllocator&) = delete;

  void* allocate(std::size_t bytes) override {
    ++calls_;
    if (calls_ == fail_at_ || (keeps_failing_ && fail_at_ > 0 && calls_ > fail_at_)) return nullptr;
    void* ptr = inner_->allocate(bytes);
    if (ptr) given_[ptr] = bytes;
    return ptr;
  }
  void deallocate(void* ptr, std::size_t bytes) noexcept override {
    given_.erase(ptr);
    inner_->deallocate(ptr, bytes);
  }

  int calls() const { return calls_; }
  // Bytes this allocator gave that the pool holds (in use or cached).
  std::size_t held_bytes() const {
    std::size_t total = 0;
    for (const auto& entry : given_) total += entry.second;
    return total;
  }

 private:
  xp::MemoryPool& pool_;
  xp::RawAllocator* inner_ = nullptr;
  int fail_at_, calls_ = 0;
  bool keeps_failing_;
  std::map<void*, std::size_t> given_;
};

// What an operation computed, read back to the host inside it: checks must not allocate on the device,
// or the injected failure would surface in them instead of in the operation.
using Values = std::vector<double>;

// Sweeps the failure over every raw allocation `operation` makes; whenever it completes, its values
// must be `want` (to `epsilon`).
void sweep(xp::Device device, const std::function<Values()>& operation, const Values& want, double epsilon = 1e-6) {
  xp::MemoryPool& pool = xp::get_default_memory_pool(device);
  const auto check_values = [&](const Values& got) {
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(epsilon));
  };
  // What a device keeps once made for a stream (cuBLAS's workspace) is made by a first call outside the
  // sweep: the sweep counts the allocations every call makes.
  check_values(operation());
  int calls = 0;
  {
    const FailingAllocator never(device, 0, false);
    check_values(operation());
    calls = never.calls();
  }
  REQUIRE(calls > 0);
  for (int n = 1; n <= calls; ++n) {
    CAPTURE(n);
    {
      FailingAllocator exhausted(device, n, true);
      const std::size_t used = pool.used_bytes();
      CHECK_THROWS_AS(operation(), xp::OutOfMemoryError);
      CHECK(pool.used_bytes() == used);
      CHECK(exhausted.held_bytes() == 0);
    }
    {
      FailingAllocator once(device, n, false);
      const std::size_t used = pool.used_bytes();
      check_values(operation());
      CHECK(pool.used_bytes() == used);
      CHECK(once.held_bytes() == 0);
      CHECK(once.calls() > n);  // the retry came after the failure
    }
  }
}

std::vector<float> ramp(std::size_t n, float scale) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = scale * static_cast<float>(i % 7) - 1.0f;
  return v;
}

}  // namespace

XP_FAULT_CASE("fault injection: array creation") {
  sweep(device,
        [&] {
          const auto a = xp::arange<float>(4096, device).reshape({64, 64});
          const auto b = xp::full<double>({3, 5}, 2.5, device);
          const auto c = xp::array<std::int32_t>({{1, 2}, {3, 4}}, device);
          return Values{a.to_vector()[4095], b.to_vector()[14], static_cast<double>(c.to_vector()[3])};
        },
        {4095, 2.5, 4});
}

XP_FAULT_CASE("fault injection: elementwise operations, broadcasting and casts") {
  const std::vector<float> xs = ramp(3000, 0.5f), ys = ramp(100, 0.25f);
  const auto x = xp::array<float>(xs, {30, 100}, device);
  const auto y = xp::array<float>(ys, {100}, device);
  const double d = xs[199] - ys[99];
  sweep(device,
        [&] {
          const auto z = xp::exp((x - y) * (x - y) * -0.1f).astype<double>() + 1.0;
          return Values{z.to_vector()[199]};
        },
        {std::exp(-0.1 * d * d) + 1.0});
}

XP_FAULT_CASE("fault injection: reductions") {
  const std::vector<float> xs = ramp(60000, 1.0f);
  const auto x = xp::array<float>(xs, {300, 200}, device);
  double total = 0, column = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    total += xs[i];
    if (i % 200 == 7) column += xs[i];
  }
  sweep(
      device,
      [&] {
        const auto columns = xp::sum(x.transpose(), 1);  // reduced along the strided axis
        return Values{xp::sum(x).astype<double>().item(), columns.astype<double>().to_vector()[7], xp::max(x).item(),
                      static_cast<double>(xp::var(x, 0).size())};
      },
      {total, column, 5, 200}, 1e-5);
}

XP_FAULT_CASE("fault injection: user kernels") {
  const xp::ElementwiseKernel squared_diff("T x, T y", "T z", "z = (x - y) * (x - y)", "fault_squared_diff");
  const xp::ReductionKernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "fault_l2");
  const std::vector<float> xs = ramp(2000, 0.5f), ys = ramp(100, 1.0f);
  const auto x = xp::array<float>(xs, {20, 100}, device);
  const auto y = xp::array<float>(ys, {100}, device);
  squared_diff(x, y);  // compiled before the sweep
  l2(x, xp::axis(1));
  const double d = xs[150] - ys[50];
  double row = 0;
  for (std::size_t i = 100; i < 200; ++i) row += static_cast<double>(xs[i]) * xs[i];
  sweep(
      device,
      [&] {
        const auto z = squared_diff(x, y).as<float>();
        const auto norms = l2(x, xp::axis(1)).as<float>();
        return Values{z.to_vector()[150], norms.to_vector()[1]};
      },
      {d * d, std::sqrt(row)}, 1e-5);
}

XP_FAULT_CASE("fault injection: matmul of strided operands") {
  const std::vector<float> as = ramp(40 * 30, 0.25f), bs = ramp(40 * 20, 0.5f);
  const auto a = xp::array<float>(as, {40, 30}, device);
  const auto b = xp::array<float>(bs, {40, 20}, device);
  double want = 0;  // (a^T b)[3, 7]
  for (std::size_t k = 0; k < 40; ++k) want += static_cast<double>(as[k * 30 + 3]) * bs[k * 20 + 7];
  sweep(
      device,
      [&] {
        const auto c = xp::matmul(a.transpose(), b);  // a's transpose is not contiguous
        return Values{static_cast<double>(c.size()), c.to_vector()[3 * 20 + 7]};
      },
      {600, want}, 1e-5);
}

XP_FAULT_CASE("fault injection: a training step (forward, backward, update)") {
  // The step's loss on fixed parameters: every completed step gives the same, whatever failed before.
  xp::random::seed(3);
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(16, "relu"), xp::nn::Dense(4));
  net.initialize(xp::initializer::Xavier(), device);
  const auto x = xp::random::uniform<float>(-1, 1, {8, 5}, device);
  const auto label = xp::random::uniform<float>(-1, 1, {8, 4}, device);
  xp::gluon::loss::L2Loss loss;
  xp::gluon::Trainer trainer(net.collect_params(), "sgd", {{"learning_rate", 0.01}});
  const xp::gluon::ParameterDict params = net.collect_params();
  std::vector<std::pair<xp::gluon::Parameter, xp::ndarray<>>> initial;
  const auto step = [&] {
    xp::autograd::record recording;
    const auto l = loss(net(x), label);
    l.backward();
    return xp::mean(l).astype<double>().item();
  };
  step();  // deferred initialization, before the sweep
  for (const auto& entry : params) initial.emplace_back(entry.second, entry.second.data(device).copyto(device));
  const double first_loss = step();
  sweep(
      device,
      [&] {
        for (auto& [param, value] : initial) param.set_data(value.copyto(device));
        const double l = step();
        trainer.step(8);
        return Values{l};
      },
      {first_loss}, 1e-6);
}

// cuBLAS's workspace is made once per (thread, stream), outside the sweeps' counting: its own failure is
// checked here. A product on a fresh stream allocates its output, then the workspace; the workspace
// failing, the product fails, and the stream's next product allocates the workspace again.
TEST_CASE("fault injection: a failed cuBLAS workspace is allocated again by the stream's next product @gpu" *
          doctest::test_suite("faults") * doctest::skip(!pool_disabled() || xp::num_gpus() == 0)) {
  const xp::Device gpu = xp::gpu(0);
  const auto a = xp::array<float>({1, 2, 3, 4, 5, 6}, {2, 3}, gpu);
  const auto b = xp::array<float>({1, 0, 0, 1, 1, 1}, {3, 2}, gpu);
  const xp::StreamScope scope(xp::Stream{gpu});
  {
    const FailingAllocator workspace_fails(gpu, 2, true);
    CHECK_THROWS_AS((void)xp::matmul(a, b), xp::OutOfMemoryError);
    CHECK(workspace_fails.calls() >= 2);
  }
  const FailingAllocator counting(gpu, 0, false);
  CHECK(xp::matmul(a, b).to_vector() == std::vector<float>{4, 5, 10, 11});
  CHECK(counting.calls() == 2);  // the output and, again, the workspace
}
