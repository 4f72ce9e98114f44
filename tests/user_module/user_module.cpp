// A program's own kernels (xp::transform, xp::transform_reduce) compiled into the program and launched
// through the shared library, linked as users link it. In CUDA builds nvcc compiles this file: the
// program's kernels are registered with the program's CUDA runtime, not the library's, and each launch
// (its occupancy question included) must be answered there. xp_tests links the library's objects into
// one program and cannot see this boundary.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "../device_cases.hpp"
#include "xp/transform.hpp"
#include "xp/transform_reduce.hpp"

namespace {

// More than one block's work, and more than one grid's on small devices: the grid-stride loop runs.
constexpr std::int64_t kElements = (std::int64_t{1} << 22) + 3;

}  // namespace

XP_TEST_ON_DEVICES("a program's kernels run through the shared library: transform") {
  const auto x = xp::arange<float>(0, kElements, 1, device) % 1000;
  const auto y = xp::full<float>({kElements}, 3, device);
  const auto z = xp::transform([] XP_HOST_DEVICE(float a, float b) { return (a - b) * (a - b); }, x, y);
  REQUIRE(z.device() == device);
  const std::vector<float> values = z.to_vector();
  for (const std::int64_t i : {std::int64_t{0}, std::int64_t{3}, std::int64_t{999}, kElements - 1}) {
    const float a = static_cast<float>(i % 1000);
    CHECK(values[static_cast<std::size_t>(i)] == (a - 3) * (a - 3));
  }
}

XP_TEST_ON_DEVICES("a program's kernels run through the shared library: transform_reduce") {
  const auto x = xp::arange<float>(0, kElements, 1, device) % 4;  // 0 1 2 3 0 1 2 3 ...
  const auto count = xp::transform_reduce(
      x, std::nullopt, false, std::int64_t{0}, [] XP_HOST_DEVICE(float v) { return v == 2 ? std::int64_t{1} : 0; },
      [] XP_HOST_DEVICE(std::int64_t a, std::int64_t b) { return a + b; },
      [] XP_HOST_DEVICE(std::int64_t a) { return a; });
  REQUIRE(count.device() == device);
  CHECK(count.item() == (kElements + 1) / 4);  // positions 2, 6, ..., the last one kElements - 2
}
