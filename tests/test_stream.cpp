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
