#include <doctest/doctest.h>

#include <chrono>
#include <thread>

#include "device_cases.hpp"

XP_TEST_ON_DEVICES("streams are values bound to one device") {
  const xp::Stream null = xp::Stream::null(device);
  CHECK(null.device() == device);
  CHECK(null.native_handle() == nullptr);
  CHECK(null == xp::Stream::null(device));

  const xp::Stream created(device);
  const xp::Stream copy = created;
  CHECK(created.device() == device);
  CHECK(copy == created);
  CHECK(!(created == null));
  CHECK(!(created == xp::Stream(device, /*non_blocking=*/true)));
  created.synchronize();
  CHECK(created.done());
  null.synchronize();
  CHECK(null.done());
}

XP_TEST_ON_DEVICES("events record on streams and measure elapsed time") {
  const xp::Stream stream(device);
  xp::Event start, end;
  CHECK(!start.recorded());
  CHECK(start.done());  // nothing to wait for
  start.record(stream);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  end.record(stream);
  end.synchronize();
  CHECK(end.done());
  CHECK(start.device() == device);
  const float ms = xp::elapsed_time(start, end);
  if (device.is_host()) CHECK(ms >= 19.0f);  // host events take the time when recorded
  CHECK(ms >= 0.0f);
  CHECK(ms < 5000.0f);
}

TEST_CASE("CPU streams run work in order on the calling thread") {
  const xp::Stream stream(xp::cpu(0));
  const auto a = xp::arange<float>(6);
  const auto b = xp::copy(a, xp::cpu(1), &stream);  // returns with the copy done
  CHECK(stream.done());
  CHECK(b.to_vector() == std::vector<float>{0, 1, 2, 3, 4, 5});
}

TEST_CASE("events must be recorded before use; elapsed_time needs one device") {
  xp::Event never;
  CHECK_THROWS_WITH_AS(never.synchronize(), "Event::synchronize: the event has not been recorded", xp::ValueError);
  CHECK_THROWS_AS((void)never.device(), xp::ValueError);
  xp::Event on_cpu0, on_cpu1;
  on_cpu0.record(xp::Stream::null(xp::cpu(0)));
  CHECK_THROWS_WITH_AS(xp::elapsed_time(never, on_cpu0), "elapsed_time: both events must be recorded first",
                       xp::ValueError);
  on_cpu1.record(xp::Stream(xp::cpu(1)));
  CHECK_THROWS_WITH_AS(xp::elapsed_time(on_cpu0, on_cpu1),
                       "elapsed_time: the start event is on cpu(0) but the end event is on cpu(1)",
                       xp::DeviceMismatchError);
  on_cpu1.record(xp::Stream(xp::cpu(0)));  // re-recorded on another device
  CHECK(on_cpu1.device() == xp::cpu(0));
  CHECK(xp::elapsed_time(on_cpu0, on_cpu1) >= 0.0f);
}

XP_TEST_ON_DEVICES("stream priorities are clamped to the device's range, as CUDA's") {
  const auto [least, greatest] = xp::Stream::priority_range(device);
  CHECK(greatest <= least);  // lower is more urgent
  if (device.is_host()) CHECK((least == 0 && greatest == 0));
  const xp::Stream urgent(device, {.priority = greatest - 5}), relaxed(device, {.non_blocking = true, .priority = 7});
  CHECK(urgent.priority() == greatest);
  CHECK(relaxed.priority() == least);
  CHECK(xp::Stream::null(device).priority() == 0);
  const xp::StreamScope scope(urgent);
  CHECK(xp::ndarray<float>(xp::arange<float>(4, device) * 2).to_vector() == std::vector<float>{0, 2, 4, 6});
}

XP_TEST_ON_DEVICES("a stream waits for an event of another stream; host functions run after the work before them") {
  const xp::Stream producer(device), consumer(device);
  auto x = xp::zeros<float>({1 << 20}, device);
  xp::Event ready;
  consumer.wait_event(ready);  // never recorded: passes at once
  {
    const xp::StreamScope scope(producer);
    x += 1.0f;
    ready.record(producer);
  }
  consumer.wait_event(ready);
  std::vector<float> seen;
  consumer.launch_host_func([&] { seen.push_back(1); });
  {
    const xp::StreamScope scope(consumer);
    x *= 3.0f;  // after the producer's += 1, as the event orders it
  }
  consumer.synchronize();
  CHECK(seen == std::vector<float>{1});
  CHECK(xp::max(x).item<float>() == 3.0f);
  CHECK(xp::min(x).item<float>() == 3.0f);
}

XP_TEST_ON_DEVICES("an external stream is used as a stream and never destroyed here") {
  const xp::Stream owner(device);
  {
    const xp::ExternalStream borrowed(owner.native_handle(), device);
    CHECK(borrowed == owner);
    const xp::StreamScope scope(borrowed);
    CHECK(xp::current_stream(device) == owner);
    CHECK(xp::sum(xp::ones<float>({100}, device)).item<float>() == 100.0f);
  }
  owner.synchronize();  // still alive after the external one is gone
  CHECK(owner.done());
  CHECK_THROWS_WITH_AS(xp::ExternalStream(nullptr, device),
                       ("ExternalStream: the handle is null (use Stream::null(" + device.str() + "))").c_str(),
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("event options: no timing, blocking waits, interprocess only without timing") {
  const xp::Stream stream(device);
  xp::Event untimed({.timing = false}), blocking({.blocking = true}), timed;
  untimed.record(stream);
  blocking.record(stream);
  timed.record(stream);
  blocking.synchronize();
  CHECK(untimed.done());
  CHECK(!untimed.options().timing);
  CHECK(xp::elapsed_time(blocking, timed) >= 0.0f);
  CHECK_THROWS_WITH_AS(xp::elapsed_time(untimed, timed),
                       "elapsed_time: both events must be made with timing (EventOptions::timing)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::Event({.interprocess = true}),
                       "Event: timing must be disabled for interprocess events (.timing = false)", xp::ValueError);
  xp::Event shared({.timing = false, .interprocess = true});
  shared.record(stream);
  shared.synchronize();
  CHECK(shared.done());
}

TEST_CASE("launch_host_func on a CPU stream runs at once, and its exception reaches the caller") {
  const xp::Stream stream(xp::cpu(0));
  int runs = 0;
  stream.launch_host_func([&] { ++runs; });
  CHECK(runs == 1);
  CHECK_THROWS_WITH_AS(stream.launch_host_func([] { throw xp::ValueError("from the host function"); }),
                       "from the host function", xp::ValueError);
}
