#pragma once
// The arrays of the MXNet parameter-file fixtures (tests/fixtures/mxnet-1.9.1, written by MXNet 1.9.1 with
// tests/mxnet/make_fixture.py): the same values as tests/mxnet/fixture_values.py.
#include <cstdint>
#include <numbers>

#include "xp/serialization.hpp"
#include "xp/xp.hpp"

inline xp::NamedArrays mxnet_fixture_arrays() {
  return {
      {"f32", xp::array<float>({{1.5f, -2.0f, 3.25f}, {0.0f, 1e-3f, -7.0f}})},
      {"f64", xp::array<double>({std::numbers::pi, -1e300})},
      {"i32", xp::array<std::int32_t>({-7, 0, 2147483647})},
      {"i64", xp::array<std::int64_t>({-(std::int64_t{1} << 40), 5})},
      {"u8", xp::array<std::uint8_t>({0, 255, 17})},
      {"i8", xp::array<std::int8_t>({-128, 127})},
  };
}
