// xp::capture and xp::Graph: a recorded step replayed on its inputs' new values on every device (CUDA
// Graphs on GPUs, the function replayed on CPUs); the capture/launch sequence, the graph's own memory and
// the arrays it keeps, on the CPU through the fake asynchronous runtime; host waits refused during a capture.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "fake_runtime.hpp"
#include "xp/graph.hpp"

namespace {

using Log = std::vector<std::string>;
using xp::testing::FakeCpu;

// One launch of a capture of `fn`: the capture itself refuses on GPUs, the launch on CPUs.
void capture_and_launch(const xp::Stream& stream, std::function<void()> fn) {
  const xp::Graph graph = xp::capture(stream, std::move(fn));
  graph.launch(stream);
}

}  // namespace

XP_TEST_ON_DEVICES("capture: a recorded step replays on its inputs' new values") {
  const xp::Stream stream(device);
  auto x = xp::arange<float>(0, 6, 1, device);
  const auto weight = xp::full<float>({6}, 0.5f, device);
  xp::ndarray<float> y, total;
  const xp::Graph step = xp::capture(stream, [&] {
    y = xp::exp(x + 2.0f) * weight;
    total = xp::sum(y * y);
  });
  CHECK(step.device() == device);
  for (const float start : {1.0f, -3.0f}) {
    const auto batch = xp::arange<float>(start, start + 6, 1, device);
    {
      const xp::StreamScope on(stream);  // ordered before the launch on the same stream
      batch.copyto(x);
    }
    step.launch(stream);
    const auto want = xp::exp(batch + 2.0f) * weight;
    CHECK(y.to_vector() == want.to_vector());
    CHECK(total.to_vector() == xp::sum(want * want).to_vector());
  }
}

XP_TEST_ON_DEVICES("capture: host waits inside a capture are ValueErrors naming them; the stream records again after") {
  const xp::Stream stream(device);
  const auto x = xp::arange<float>(-2, 4, 1, device);
  const auto positions = xp::array<std::int64_t>({0, 5}, device);
  const auto refused = [&](const std::string& name, std::function<void()> fn) {
    const std::string wanted = name + " makes the host wait for " + device.str();
    CHECK_THROWS_WITH_AS(capture_and_launch(stream, std::move(fn)), doctest::Contains(wanted.c_str()), xp::ValueError);
  };
  refused("item", [&] { (void)xp::sum(x).item(); });
  refused("to_vector", [&] { (void)(x * 2.0f).to_vector(); });
  refused("nonzero", [&] { (void)xp::nonzero(x); });
  refused("compress", [&] { (void)xp::compress(x > 0.0f, x); });
  refused("index", [&] { (void)x(x > 0.0f); });
  refused("unique", [&] { (void)xp::unique(x); });
  refused("take with mode 'raise'", [&] { (void)xp::take(x, positions); });
  refused("Stream::synchronize", [&] { stream.synchronize(); });
  refused("Event::synchronize", [&] {
    xp::Event event;
    event.record(stream);
    event.synchronize();
  });
  refused("Device::synchronize", [&] { device.synchronize(); });
  refused("MemoryPool::free_all_blocks", [&] { xp::get_default_memory_pool(device).free_all_blocks(); });

  xp::ndarray<float> y;
  capture_and_launch(stream, [&] { y = xp::take(x, positions, std::nullopt, "wrap") * 3.0f; });
  CHECK(y.to_vector() == std::vector<float>{-6, 9});
}

TEST_CASE("capture: what the graph needs, and NumPy-style errors for what it cannot take") {
  const xp::Stream stream(xp::cpu(0));
  CHECK_THROWS_WITH_AS((void)xp::capture(xp::Stream::null(xp::cpu(0)), [] {}),
                       "xp::capture: the null stream of cpu(0) cannot be captured (CUDA's rule): capture a stream "
                       "made with xp::Stream(cpu(0))",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS((void)xp::capture(stream, nullptr), "xp::capture: the function is empty", xp::ValueError);
  const xp::Graph empty;
  CHECK_THROWS_WITH_AS(empty.launch(stream), "Graph::launch: the graph is empty (make one with xp::capture)",
                       xp::ValueError);
  const xp::Graph graph = xp::capture(stream, [] {});
  CHECK_THROWS_WITH_AS(graph.launch(xp::Stream(xp::cpu(1))),
                       "Graph::launch: the graph was captured on cpu(0) but the stream is on cpu(1)",
                       xp::DeviceMismatchError);
}

TEST_CASE("capture: the fake asynchronous runtime is asked to begin, end, launch and destroy, in order") {
  FakeCpu cpu;
  const xp::Stream s(xp::cpu(0));
  const std::string name = cpu.fake.name_of(s.native_handle());
  const auto x = xp::arange<float>(0, 4, 1, xp::cpu(0));
  xp::ndarray<float> y;
  cpu.fake.take_log();
  {
    const xp::Graph graph = xp::capture(s, [&] { y = x * 2.0f; });
    CHECK(cpu.fake.take_log() ==
          Log{"synchronize_device cpu(0)", "begin capture on " + name, "end capture on " + name + " as g1"});
    graph.launch(s);
    graph.launch(s);
    CHECK(cpu.fake.take_log() == Log{"launch g1 on " + name, "launch g1 on " + name});
  }
  // The host waits for the launches before the graph and its memory go.
  CHECK(cpu.fake.take_log() == Log{"synchronize_stream " + name, "destroy g1"});
  CHECK(y.to_vector() == std::vector<float>{0, 2, 4, 6});  // the fake ran the work as the capture queued it

  SUBCASE("a failing function abandons the capture, and the exception propagates") {
    cpu.fake.take_log();
    CHECK_THROWS_WITH_AS((void)xp::capture(s, [] { throw std::runtime_error("step failed"); }), "step failed",
                         std::runtime_error);
    CHECK(cpu.fake.take_log() ==
          Log{"synchronize_device cpu(0)", "begin capture on " + name, "abandon capture on " + name});
  }
  SUBCASE("one capture per thread") {
    cpu.fake.take_log();
    CHECK_THROWS_WITH_AS((void)xp::capture(s, [&] { (void)xp::capture(xp::Stream(xp::cpu(0)), [] {}); }),
                         "xp::capture: this thread is already capturing a stream of cpu(0) (one capture per thread "
                         "at a time)",
                         xp::ValueError);
  }
}

TEST_CASE("capture: a launch waits for the last users of the graph's arrays by events; host reads wait for it") {
  FakeCpu cpu;
  const xp::Stream s(xp::cpu(0)), other(xp::cpu(0));
  const std::string captured = cpu.fake.name_of(s.native_handle()), launched = cpu.fake.name_of(other.native_handle());
  const auto x = xp::arange<float>(0, 4, 1, xp::cpu(0));
  xp::ndarray<float> y;
  const xp::Graph graph = xp::capture(s, [&] { y = x + 1.0f; });
  cpu.fake.take_log();
  graph.launch(other);
  const Log log = cpu.fake.take_log();
  // x and y were last used by the capture's stream: the launch's stream waits for it, not the host.
  REQUIRE(log.size() == 5);
  CHECK(log[0].starts_with("record e") == true);
  CHECK(log[0].ends_with(" on " + captured) == true);
  CHECK(log[1] == "block " + launched + " on " + log[0].substr(7, log[0].find(' ', 7) - 7));
  CHECK(log[4] == "launch g1 on " + launched);
  CHECK(y.to_vector() == std::vector<float>{1, 2, 3, 4});
  // The read (a copy on the null stream of the fake's device) waits for the launch's stream.
  const Log after = cpu.fake.take_log();
  REQUIRE(after.size() == 2);
  CHECK(after[0].ends_with(" on " + launched) == true);
  CHECK(after[1].starts_with("block null on ") == true);
}

TEST_CASE("capture: arrays made in it come from the graph's memory; those it uses are kept by the graph") {
  FakeCpu cpu;
  xp::MemoryPool& pool = xp::get_default_memory_pool(xp::cpu(0));
  const xp::Stream s(xp::cpu(0));
  xp::ndarray<double> y;
  xp::Graph graph;
  std::size_t used_with_input = 0;
  {
    const auto x = xp::full<double>({1000}, 1.5, xp::cpu(0));
    used_with_input = pool.used_bytes();
    graph = xp::capture(s, [&] { y = xp::sqrt(x) + x; });
    CHECK(pool.used_bytes() == used_with_input);  // y and the temporary are the graph's
  }
  // x is kept, since each replay reads it; a released block would be free once the capture's stream passed it.
  cpu.fake.pass_events();
  pool.free_all_blocks();
  CHECK(pool.used_bytes() == used_with_input);
  graph = xp::Graph();
  cpu.fake.pass_events();
  pool.free_all_blocks();
  CHECK(pool.used_bytes() < used_with_input);
  CHECK(y.to_vector() == std::vector<double>(1000, std::sqrt(1.5) + 1.5));  // y keeps the graph's memory
}

TEST_CASE("capture: the capture's arrays stay its own until it ends; it records one stream") {
  FakeCpu cpu;
  const xp::Stream s(xp::cpu(0)), other(xp::cpu(0));
  const auto x = xp::ones<float>({8}, xp::cpu(0));
  CHECK_THROWS_WITH_AS((void)xp::capture(s,
                                         [&] {
                                           const auto y = x + 1.0f;
                                           const xp::StreamScope elsewhere(other);
                                           (void)(y * 2.0f);
                                         }),
                       "an array the capture of a stream of cpu(0) uses is used on another stream before the "
                       "capture ends (xp::capture: the capture does not run its work)",
                       xp::ValueError);
  const auto untouched = xp::ones<float>({8}, xp::cpu(0));  // not used by a capture yet
  CHECK_THROWS_WITH_AS((void)xp::capture(s,
                                         [&] {
                                           const xp::StreamScope elsewhere(other);
                                           (void)(untouched * 2.0f);
                                         }),
                       "xp::capture records one stream: work on another stream of cpu(0) during the capture",
                       xp::ValueError);
}
