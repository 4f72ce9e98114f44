// The execution context: current streams, StreamScope, the ordering of work across streams and the
// host-access gate, and the pool's record_stream — checked on the CPU with a fake runtime that
// plays an asynchronous device for cpu devices (tests/fake_runtime.hpp), and on GPUs for real.
#include <doctest/doctest.h>

#include <algorithm>
#include <thread>

#include "api/array/buffer.hpp"
#include "device_cases.hpp"
#include "fake_runtime.hpp"
#include "xp/detail/exec.hpp"

#if defined(__CUDACC__)
#include <thrust/sort.h>

#include "xp/thrust.hpp"
#endif

namespace {

using Log = std::vector<std::string>;
using xp::testing::FakeCpu;

bool contains(const Log& log, const std::string& line) { return std::find(log.begin(), log.end(), line) != log.end(); }

// The position of `line` in the log, which must hold it.
std::ptrdiff_t position(const Log& log, const std::string& line) {
  const auto found = std::find(log.begin(), log.end(), line);
  REQUIRE_MESSAGE(found != log.end(), "no '", line, "' in the log");
  return found - log.begin();
}

}  // namespace

TEST_CASE("StreamScope makes a stream current for its device and restores the previous one") {
  const xp::Stream a(xp::cpu(0)), b(xp::cpu(0)), other(xp::cpu(1));
  CHECK(xp::current_stream(xp::cpu(0)) == xp::Stream::null(xp::cpu(0)));
  {
    const xp::StreamScope outer(a);
    CHECK(xp::current_stream(xp::cpu(0)) == a);
    {
      const xp::StreamScope inner(b);
      const xp::StreamScope elsewhere(other);
      CHECK(xp::current_stream(xp::cpu(0)) == b);
      CHECK(xp::current_stream(xp::cpu(1)) == other);
    }
    CHECK(xp::current_stream(xp::cpu(0)) == a);
    CHECK(xp::current_stream(xp::cpu(1)) == xp::Stream::null(xp::cpu(1)));
    CHECK(xp::current_device() == xp::cpu(0));  // the current device is left alone
  }
  CHECK(xp::current_stream(xp::cpu(0)) == xp::Stream::null(xp::cpu(0)));
}

TEST_CASE("each thread has its own current streams") {
  const xp::Stream mine(xp::cpu(0)), theirs(xp::cpu(0));
  const xp::StreamScope scope(mine);
  xp::Stream seen_there = xp::Stream::null(xp::cpu(1)), inside_there = seen_there;
  std::thread([&] {
    seen_there = xp::current_stream(xp::cpu(0));
    const xp::StreamScope there(theirs);
    inside_there = xp::current_stream(xp::cpu(0));
  }).join();
  CHECK(seen_there == xp::Stream::null(xp::cpu(0)));
  CHECK(inside_there == theirs);
  CHECK(xp::current_stream(xp::cpu(0)) == mine);
}

TEST_CASE("operations take the current stream of their operands' device") {
  FakeCpu cpu;
  const xp::Stream s(xp::cpu(0));
  const xp::StreamScope scope(s);
  CHECK(xp::detail::exec_on(xp::cpu(0)).stream == s);
  CHECK(xp::detail::exec_on(xp::cpu(0)).asynchronous);
  CHECK(xp::detail::exec_on(xp::cpu(1)).stream == xp::Stream::null(xp::cpu(1)));
  CHECK(!xp::detail::exec_on(xp::cpu_pinned(0)).asynchronous);  // the host's own runtime
}

TEST_CASE(
    "work on stream B waits by an event for what stream A wrote: built-ins, reductions, run-time kernels, copies") {
  FakeCpu cpu;
  const xp::Stream a(xp::cpu(0)), b(xp::cpu(0));
  xp::ndarray<float> x;
  {
    const xp::StreamScope scope(a);
    x = xp::arange<float>(0, 6).reshape({2, 3});
  }
  cpu.fake.take_log();
  const xp::ElementwiseKernel twice("T x", "T y", "y = x + x", "twice_on_b");
  SUBCASE("a built-in operation") {
    const xp::StreamScope scope(b);
    const auto y = xp::add(x, 1.0f);
    CHECK(y.to_vector() == std::vector<float>{1, 2, 3, 4, 5, 6});
  }
  SUBCASE("a reduction") {
    const xp::StreamScope scope(b);
    CHECK(xp::sum(x, 1).to_vector() == std::vector<float>{3, 12});
  }
  SUBCASE("a run-time kernel") {
    const xp::StreamScope scope(b);
    CHECK(twice(x).as<float>().to_vector() == std::vector<float>{0, 2, 4, 6, 8, 10});
  }
  SUBCASE("a copy given stream B") {
    CHECK(xp::copy(x, std::nullopt, &b).to_vector() == std::vector<float>{0, 1, 2, 3, 4, 5});
  }
  const Log log = cpu.fake.take_log();
  const std::string b_name = cpu.fake.name_of(b.native_handle());
  CHECK(position(log, "record e1 on " + cpu.fake.name_of(a.native_handle())) <
        position(log, "block " + b_name + " on e1"));
  CHECK(!contains(log, "synchronize_stream " + cpu.fake.name_of(a.native_handle())));  // no host wait
}

TEST_CASE("work on the stream that wrote the memory needs no event") {
  FakeCpu cpu;
  const xp::Stream a(xp::cpu(0));
  const xp::StreamScope scope(a);
  const auto x = xp::ones<float>({4});
  const auto y = xp::multiply(x, 3.0f);
  const auto total = xp::sum(y);
  CHECK(cpu.fake.take_log().empty());
  CHECK(y.to_vector() == std::vector<float>{3, 3, 3, 3});
  CHECK(total.to_vector() == std::vector<float>{12});
}

TEST_CASE("a write on A after a read on B waits for B") {
  FakeCpu cpu;
  const xp::Stream a(xp::cpu(0)), b(xp::cpu(0));
  xp::ndarray<float> x;
  {
    const xp::StreamScope scope(a);
    x = xp::zeros<float>({3});
  }
  xp::ndarray<float> y;
  {
    const xp::StreamScope scope(b);
    y = xp::add(x, 1.0f);  // reads x on B
  }
  cpu.fake.take_log();
  {
    const xp::StreamScope scope(a);
    xp::add(x, 2.0f, x);  // writes x on A
  }
  const Log log = cpu.fake.take_log();
  const std::string a_name = cpu.fake.name_of(a.native_handle()), b_name = cpu.fake.name_of(b.native_handle());
  REQUIRE(log.size() == 2);
  CHECK(log[0].starts_with("record ") == true);
  CHECK(log[0].ends_with(" on " + b_name) == true);
  CHECK(log[1].starts_with("block " + a_name + " on ") == true);
  CHECK(x.to_vector() == std::vector<float>{2, 2, 2});
}

TEST_CASE("the host waits for an asynchronous copy into pinned memory before reading it") {
  FakeCpu cpu;  // cpu(0) plays the GPU; cpu_pinned(0) is read by the host
  const xp::Stream a(xp::cpu(0));
  const std::string a_name = cpu.fake.name_of(a.native_handle());
  const auto x = xp::arange<float>(1, 5, 1, xp::cpu(0));
  xp::ndarray<float> pinned;
  {
    const xp::StreamScope scope(a);
    pinned = x.copyto(xp::cpu_pinned(0));
  }
  const Log copied = cpu.fake.take_log();
  CHECK(contains(copied, "copy 16 bytes on " + a_name));
  CHECK(!contains(copied, "synchronize_stream " + a_name));  // the copy itself does not wait
  SUBCASE("a reduction on the host") { CHECK(xp::sum(pinned).to_vector() == std::vector<float>{10}); }
  SUBCASE("an elementwise operation on the host") {
    CHECK(xp::multiply(pinned, 2.0f).to_vector() == std::vector<float>{2, 4, 6, 8});
  }
  SUBCASE("a run-time kernel on the host") {
    const xp::ElementwiseKernel twice("T x", "T y", "y = x + x", "twice_pinned");
    CHECK(twice(pinned).as<float>().to_vector() == std::vector<float>{2, 4, 6, 8});
  }
  CHECK(cpu.fake.take_log() == Log{"synchronize_stream " + a_name});
  // The host has seen the copy finish: later host reads wait no more.
  CHECK(pinned.to_vector() == std::vector<float>{1, 2, 3, 4});
  CHECK(cpu.fake.take_log().empty());
}

TEST_CASE("record_stream: a block another stream used is reused only after that stream passes it") {
  xp::testing::FakeRuntime fake;
  const xp::detail::ScopedServices installed(xp::DeviceType::cpu, {.runtime = &fake});
  struct Raw final : xp::RawAllocator {
    void* allocate(std::size_t bytes) override {
      ++allocations;
      return ::operator new(bytes);
    }
    void deallocate(void* p, std::size_t) noexcept override { ::operator delete(p); }
    int allocations = 0;
  } raw;
  const xp::Stream a(xp::cpu(0)), b(xp::cpu(0));
  {
    xp::MemoryPool pool(raw, xp::cpu(0));
    xp::Allocation first = pool.malloc(1000, a);
    void* const address = first.get();
    pool.record_stream(first, a);  // its own stream: nothing to do
    pool.record_stream(first, b);
    first.free();
    CHECK(fake.take_log() == Log{"record e1 on " + fake.name_of(b.native_handle())});
    CHECK(pool.used_bytes() == 1024);  // not reusable yet
    const xp::Allocation second = pool.malloc(1000, a);
    CHECK(second.get() != address);
    CHECK(raw.allocations == 2);
    fake.pass_events();
    const xp::Allocation third = pool.malloc(1000, a);
    CHECK(third.get() == address);
    CHECK(raw.allocations == 2);
  }
  SUBCASE("an array used on another stream than its own is returned the same way") {
    xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(0));
    xp::ndarray<float> x;
    {
      const xp::StreamScope scope(a);
      x = xp::zeros<float>({300});
    }
    {
      const xp::StreamScope scope(b);
      (void)xp::sum(x);
    }
    fake.take_log();
    const std::size_t used = pool.used_bytes();
    x = {};
    CHECK(pool.used_bytes() == used);  // waits for b
    CHECK(fake.take_log() == Log{"record e3 on " + fake.name_of(b.native_handle())});
    fake.pass_events();
    pool.free_all_blocks();
    CHECK(pool.used_bytes() == used - 1536);
  }
}

#if defined(__CUDACC__)
// Building the policy launches nothing, so the fake stands in for the GPU runtime here.
TEST_CASE("the Thrust policy of a GPU runs on the current stream, or on the one it is given") {
  xp::testing::FakeRuntime fake;
  const xp::detail::ScopedServices installed(xp::DeviceType::gpu, {.runtime = &fake});
  const auto stream_of = [](auto policy) -> void* { return thrust::cuda_cub::stream(policy); };
  const xp::Stream s(xp::gpu(0)), t(xp::gpu(0));
  CHECK(stream_of(xp::execution_policy(xp::cuda_backend{0})) == nullptr);
  const xp::StreamScope scope(s);
  CHECK(stream_of(xp::execution_policy(xp::cuda_backend{0})) == s.native_handle());
  CHECK(stream_of(xp::execution_policy(xp::cuda_backend{0}, &t)) == t.native_handle());
  const xp::Stream elsewhere(xp::gpu(1));
  CHECK_THROWS_AS(xp::execution_policy(xp::cuda_backend{0}, &elsewhere), xp::DeviceMismatchError);
}
#endif

XP_GPU_TEST_CASE("GPU work inside a StreamScope runs on its stream") {
  const xp::Device device = xp::gpu(0);
  const xp::Stream s(device, /*non_blocking=*/true);
  const xp::StreamScope scope(s);
  CHECK(xp::detail::exec_on(device).stream == s);
  // A long chain on s, read back through a copy on s: no null-stream work is needed to see it.
  auto x = xp::arange<float>(0, 1 << 20, 1, device);
  for (int i = 0; i < 8; ++i) x = xp::add(x, 1.0f);
  const auto total = xp::sum(x);
  const xp::ElementwiseKernel twice("T x", "T y", "y = x + x", "twice_gpu_stream");
  const auto doubled = twice(total).as<float>();
  const auto pinned = doubled.copyto(xp::cpu_pinned(0));
  const double n = 1 << 20;
  CHECK(xp::sum(pinned).to_vector()[0] == doctest::Approx(2 * (n * (n - 1) / 2 + 8 * n)).epsilon(1e-5));
#if defined(__CUDACC__)
  // Thrust on the scope's stream, after the chain above on the same stream.
  auto descending = xp::subtract(float(n), x);
  thrust::sort(xp::execution_policy(xp::cuda_backend{0}), descending.data(), descending.data() + descending.size());
  const auto sorted = descending.to_vector();
  CHECK(sorted.front() == -7.0f);
  CHECK(sorted.back() == float(n) - 8.0f);
  CHECK(std::is_sorted(sorted.begin(), sorted.end()));
#endif
  s.synchronize();
}

TEST_CASE("on an asynchronous runtime, wait_event blocks the stream, host functions are queued on it") {
  FakeCpu cpu;
  const xp::Stream a(xp::cpu(0)), b(xp::cpu(0));
  const std::string first = cpu.fake.name_of(a.native_handle()), second = cpu.fake.name_of(b.native_handle());
  xp::Event event({.timing = false});
  event.record(a);
  b.wait_event(event);
  int runs = 0;
  b.launch_host_func([&] { ++runs; });
  const xp::ExternalStream borrowed(a.native_handle(), xp::cpu(0));
  xp::Event later;
  later.record(borrowed);  // the same stream as a's
  const Log log = cpu.fake.take_log();
  CHECK(runs == 1);
  CHECK(position(log, "block " + second + " on e1") > position(log, "record e1 on " + first));
  CHECK(position(log, "host function on " + second) > position(log, "block " + second + " on e1"));
  CHECK(contains(log, "record e2 on " + first));
}
