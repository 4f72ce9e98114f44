// The device-switching logic, checked against a fake runtime that records what is asked of it.
#include <doctest/doctest.h>

#include <stdexcept>
#include <vector>

#include "core/device_guard.hpp"

namespace {

class FakeGuardImpl final : public xp::detail::DeviceGuardImpl {
 public:
  int current_device() const override { return current; }
  void set_device(int id) const override {
    if (id >= device_count) throw std::runtime_error("no such device");
    calls.push_back(id);
    current = id;
  }
  void restore_device(int id) const noexcept override {
    calls.push_back(id);
    current = id;
  }

  int device_count = 4;
  mutable int current = 0;
  mutable std::vector<int> calls;
};

}  // namespace

TEST_CASE("a device guard switches only when needed and restores") {
  FakeGuardImpl impl;
  {
    const xp::detail::DeviceGuard same(impl, 0);
    CHECK(impl.current == 0);
  }
  CHECK(impl.calls.empty());
  {
    const xp::detail::DeviceGuard other(impl, 2);
    CHECK(impl.current == 2);
  }
  CHECK(impl.current == 0);
  CHECK(impl.calls == std::vector<int>{2, 0});
}

TEST_CASE("device guards nest") {
  FakeGuardImpl impl;
  impl.current = 1;
  {
    const xp::detail::DeviceGuard outer(impl, 2);
    {
      const xp::detail::DeviceGuard inner(impl, 3);
      CHECK(impl.current == 3);
      const xp::detail::DeviceGuard same(impl, 3);
    }
    CHECK(impl.current == 2);
  }
  CHECK(impl.current == 1);
  CHECK(impl.calls == std::vector<int>{2, 3, 2, 1});
}

TEST_CASE("a device guard restores when the guarded code throws, and a failed switch changes nothing") {
  FakeGuardImpl impl;
  CHECK_THROWS_AS(
      [&] {
        const xp::detail::DeviceGuard guard(impl, 1);
        throw std::logic_error("work failed");
      }(),
      std::logic_error);
  CHECK(impl.current == 0);
  CHECK_THROWS_AS(xp::detail::DeviceGuard(impl, 7), std::runtime_error);
  CHECK(impl.current == 0);
  CHECK(impl.calls == std::vector<int>{1, 0});
}
