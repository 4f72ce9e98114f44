// wrap and from_host: arrays over memory the library did not allocate, its deleter called once when the
// last view is gone, and the errors that leave the memory the caller's.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "xp/foreign_memory.hpp"
#include "xp/xp.hpp"

TEST_CASE("wrap: host memory viewed in place; the deleter runs once, after the last view") {
  std::vector<float> values{1, 2, 3, 4, 5, 6};
  int released = 0;
  {
    const auto a = xp::wrap(values.data(), {2, 3}, {}, xp::cpu(0), [&](void* p) {
      CHECK(p == values.data());
      ++released;
    });
    CHECK(a.to_vector() == values);
    const auto flat = xp::ravel(a);  // a view of the same memory
    a.at(0, 2) = 30.0f;  // a write lands in the caller's memory
    CHECK(values[2] == 30.0f);
    CHECK(xp::sum(flat).item() == 48.0f);
    CHECK(released == 0);
  }
  CHECK(released == 1);
  // Strides in elements: the transposed layout, and a reversed one.
  const auto columns = xp::wrap(values.data(), {3, 2}, xp::Strides{1, 3}, xp::cpu(0), nullptr);
  CHECK(columns.to_vector() == std::vector<float>{1, 4, 2, 5, 30, 6});
  const auto reversed = xp::wrap(values.data() + 5, {6}, xp::Strides{-1}, xp::cpu(0), nullptr);
  CHECK(reversed.to_vector() == std::vector<float>{6, 5, 4, 30, 2, 1});
  const auto untyped = xp::wrap(static_cast<void*>(values.data()), {2}, {}, xp::dtype::int32, xp::cpu(0), nullptr);
  CHECK(untyped.dtype() == xp::dtype::int32);
}

TEST_CASE("wrap: errors name the pointer, the shape and the strides, and leave the memory the caller's") {
  std::vector<double> values(4);
  int released = 0;
  const auto count = [&](void*) { ++released; };
  CHECK_THROWS_WITH_AS(xp::wrap(static_cast<double*>(nullptr), {2, 2}, {}, xp::cpu(0), count),
                       "wrap: a null pointer cannot hold 4 elements of shape (2, 2)", xp::ValueError);
  CHECK(xp::wrap(static_cast<double*>(nullptr), {0, 2}, {}, xp::cpu(0), nullptr).size() == 0);
  auto* misaligned = reinterpret_cast<double*>(reinterpret_cast<char*>(values.data()) + 4);
  CHECK_THROWS_WITH_AS(xp::wrap(misaligned, {1}, {}, xp::cpu(0), count),
                       doctest::Contains("is not aligned for float64 (8 bytes)"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::wrap(values.data(), {2, 2}, xp::Strides{1}, xp::cpu(0), count),
                       "wrap: 1 strides for the 2 axes of shape (2, 2)", xp::ValueError);
  CHECK(released == 0);
}

XP_TEST_ON_DEVICES("wrap: any device's memory, here another array's kept alive by the deleter") {
  const auto owner = xp::arange<std::int32_t>(0, 6, 1, device);
  bool released = false;
  {
    const auto view = xp::wrap(owner.data(), {3, 2}, {}, device, [&released, keep = owner](void*) { released = true; });
    CHECK(view.device() == device);
    CHECK(xp::sum(view, 0).to_vector() == std::vector<std::int64_t>{6, 9});
    view.at(2, 1) = -1;
    CHECK(owner.to_vector()[5] == -1);
  }
  CHECK(released);
}

XP_TEST_ON_DEVICES("from_host: a copy of host memory read in C order") {
  std::vector<std::int16_t> values{1, -2, 3, -4};
  const auto a = xp::from_host(values.data(), {2, 2}, device);
  values[0] = 100;  // a copy: the array keeps the old value
  CHECK(a.device() == device);
  CHECK(a.to_vector() == std::vector<std::int16_t>{1, -2, 3, -4});
}
