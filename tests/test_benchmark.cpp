// xp::benchmark (CuPy's cupyx.profiler.benchmark): runs, early stop, CuPy's printed line, errors, and
// the GPU events on each device's current stream (a logging fake runtime plays the GPU here).
#include <doctest/doctest.h>

#include <chrono>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "device_cases.hpp"
#include "fake_runtime.hpp"
#include "xp/xp.hpp"

using namespace std::chrono_literals;

TEST_CASE("benchmark: warm-up runs untimed, then n_repeat timed runs of the function") {
  int calls = 0;
  const auto r = xp::benchmark(
      [&] {
        ++calls;
        std::this_thread::sleep_for(1ms);
      },
      {.name = "sleep", .n_repeat = 5, .n_warmup = 3});
  CHECK(calls == 8);
  CHECK(r.name() == "sleep");
  CHECK(r.devices().empty());  // the current device is cpu(0): nothing to time with events
  REQUIRE(r.cpu_times().size() == 5);
  for (double t : r.cpu_times()) CHECK(t >= 1e-3);
  CHECK_THROWS_WITH_AS(r.gpu_times(0), "gpu_times: device index 0 out of range for 0 timed devices", xp::IndexError);
}

TEST_CASE("benchmark: max_duration stops after the run that passes it") {
  int calls = 0;
  const auto r = xp::benchmark(
      [&] {
        ++calls;
        std::this_thread::sleep_for(2ms);
      },
      {.n_repeat = 100000, .n_warmup = 0, .max_duration = 10ms});
  CHECK(r.cpu_times().size() == static_cast<std::size_t>(calls));
  CHECK(calls >= 1);
  CHECK(calls <= 6);  // 2 ms or more each: the sixth at the latest passes 10 ms
}

TEST_CASE("benchmark: CuPy's printed line") {
  const xp::BenchmarkResult one("add", {}, {2e-6}, {});
  CHECK(one.to_string() == "add                 :    CPU:    2.000 us");
  const std::string long_name(300, 'n');  // longer than the column: printed whole, as Python's format
  CHECK(xp::BenchmarkResult(long_name, {}, {2e-6}, {}).to_string() == long_name + ":    CPU:    2.000 us");
  const xp::BenchmarkResult r("add", {xp::gpu(0), xp::gpu(3)}, {1e-6, 3e-6}, {{4e-6, 4e-6}, {10e-6, 30e-6}});
  const std::string cpu = "    CPU:    2.000 us   +/- 1.000 (min:    1.000 / max:    3.000) us";
  const std::string gpu0 = "    GPU-0:    4.000 us   +/- 0.000 (min:    4.000 / max:    4.000) us";
  const std::string gpu3 = "    GPU-3:   20.000 us   +/-10.000 (min:   10.000 / max:   30.000) us";
  CHECK(r.to_string() == "add                 :" + cpu + " " + gpu0 + " " + gpu3);
  CHECK(r.to_string(/*show_gpu=*/false) == "add                 :" + cpu);
  std::ostringstream printed;
  printed << r;
  CHECK(printed.str() == r.to_string());
  CHECK(r.gpu_times(1)[1] == 30e-6);
  CHECK_THROWS_AS(xp::BenchmarkResult("x", {xp::gpu(0)}, {1e-6}, {}), xp::ValueError);
}

TEST_CASE("benchmark: bad options are ValueErrors naming them") {
  const auto nothing = [] {};
  CHECK_THROWS_WITH_AS(xp::benchmark(nothing, {.n_repeat = 0}), "benchmark: n_repeat must be at least 1, not 0",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::benchmark(nothing, {.n_warmup = -1}), "benchmark: n_warmup must not be negative, not -1",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::benchmark(nothing, {.max_duration = 0s}),
                       "benchmark: max_duration must be positive, not 0 s", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::benchmark(nothing, {.devices = {xp::cpu(1)}}),
                       "benchmark: cpu(1) is not a GPU (the host's time is always measured)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::benchmark(nothing, {.devices = {xp::gpu(0), xp::gpu(0)}}),
                       "benchmark: gpu(0) is listed twice", xp::ValueError);
}

TEST_CASE("benchmark: GPU times come from events around each run on the device's current stream") {
  xp::testing::FakeRuntime fake;
  const xp::detail::ScopedServices installed(xp::DeviceType::gpu, {.runtime = &fake});
  const xp::StreamScope scope(xp::Stream(xp::gpu(0)));
  const std::string stream = fake.name_of(xp::current_stream(xp::gpu(0)).native_handle());
  int calls = 0;
  const auto r = xp::benchmark([&] { ++calls; }, {.n_repeat = 2, .n_warmup = 1, .devices = {xp::gpu(0)}});
  CHECK(calls == 3);
  REQUIRE(r.gpu_times(0).size() == 2);
  CHECK(r.gpu_times(0)[0] == 0);  // the fake's elapsed time
  // Warm-up done, then each run between a start and an end event, waiting for the end.
  CHECK(fake.take_log() ==
        std::vector<std::string>{"record e1 on " + stream, "synchronize e1",  //
                                 "record e1 on " + stream, "record e2 on " + stream, "synchronize e2",  //
                                 "record e1 on " + stream, "record e2 on " + stream, "synchronize e2"});
}

XP_GPU_TEST_CASE("benchmark: a GPU operation's host and device times") {
  const auto a = xp::ones<float>({1 << 20}, xp::gpu(0)), out = xp::zeros<float>({1 << 20}, xp::gpu(0));
  const auto r = xp::benchmark([&] { xp::add(a, a, out); }, {.name = "add", .n_repeat = 20, .devices = {xp::gpu(0)}});
  REQUIRE(r.gpu_times(0).size() == r.cpu_times().size());
  for (double t : r.gpu_times(0)) CHECK(t > 0);
  CHECK(out.to_vector()[7] == 2.0f);
}
