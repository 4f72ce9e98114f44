#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "omp_threads.hpp"
#include "xp/kernels/philox.hpp"

namespace {

// Uniform float32 number i of a fresh generator: the top 24 bits of word i of its stream, word i % 4
// of the block at counter i / 4.
float expected_uniform(std::uint64_t seed, std::uint64_t i) {
  const std::uint64_t counter = i / 4;
  const auto r = xp::kernels::philox4x32_10(
      {{static_cast<std::uint32_t>(counter), static_cast<std::uint32_t>(counter >> 32), 0, 0}},
      static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
  return static_cast<float>(r.word[i % 4] >> 8) / 16777216.0f;
}

}  // namespace

TEST_CASE("Philox4x32-10 reproduces the known-answer vectors of Random123") {
  using xp::kernels::philox4x32_10;
  const auto a = philox4x32_10({{0, 0, 0, 0}}, 0, 0);
  CHECK(a.word[0] == 0x6627e8d5u);
  CHECK(a.word[1] == 0xe169c58du);
  CHECK(a.word[2] == 0xbc57ac4cu);
  CHECK(a.word[3] == 0x9b00dbd8u);
  const auto b = philox4x32_10({{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}}, 0xffffffffu, 0xffffffffu);
  CHECK(b.word[0] == 0x408f276du);
  CHECK(b.word[3] == 0x6d5451fdu);
  const auto c = philox4x32_10({{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}}, 0xa4093822u, 0x299f31d0u);
  CHECK(c.word[0] == 0xd16cfe09u);
  CHECK(c.word[1] == 0x94fdccebu);
  CHECK(c.word[2] == 0x5001e420u);
  CHECK(c.word[3] == 0x24126ea1u);
}

XP_TEST_ON_DEVICES("uniform numbers are the generator's, on every device and thread count") {
  constexpr std::int64_t n = (1 << 20) + 3;  // large enough to run on several threads
  for (const int threads : {1, 2, 3, 8}) {  // (the GPU ignores the host's thread count)
    CAPTURE(threads);
    with_threads(threads, [&] {
      xp::random::seed(42);
      const std::vector<float> u = xp::random::uniform<float>(0, 1, {n}, device).to_vector();
      REQUIRE(u.size() == static_cast<std::size_t>(n));
      std::int64_t differ = 0;
      for (std::int64_t i = 0; i < n; ++i) differ += u[i] != expected_uniform(42, static_cast<std::uint64_t>(i));
      CHECK(differ == 0);
      // The next draw continues the sequence at the next block.
      const float next = xp::random::uniform<float>(0, 1, {1}, device).item();
      CHECK(next == expected_uniform(42, (n + 3) / 4 * 4));
    });
  }
}

XP_TEST_ON_DEVICES("seeds restart and separate sequences") {
  xp::random::seed(7);
  const auto a = xp::random::uniform<double>(-1, 1, {2, 3}, device);
  const auto b = xp::random::uniform<double>(-1, 1, {2, 3}, device);
  xp::random::seed(7);
  const auto c = xp::random::uniform<double>(-1, 1, {2, 3}, device);
  xp::random::seed(8);
  const auto d = xp::random::uniform<double>(-1, 1, {2, 3}, device);
  CHECK(a.shape() == xp::Shape(2, 3));
  CHECK(a.device() == device);
  CHECK(a.to_vector() == c.to_vector());
  CHECK(a.to_vector() != b.to_vector());
  CHECK(a.to_vector() != d.to_vector());
  xp::random::seed(7);
  CHECK(xp::random::uniform<double>(-1, 1, {2, 3}, xp::cpu(3)).to_vector() == a.to_vector());  // any device
}

XP_TEST_ON_DEVICES("uniform and normal have the right moments") {
  xp::random::seed(1234);
  constexpr std::int64_t n = 1 << 20;
  const auto u = xp::random::uniform<float>(2, 5, {n}, device);
  CHECK(xp::min(u).item() >= 2.0f);
  CHECK(xp::max(u).item() < 5.0f);
  CHECK(xp::mean(u).item() == doctest::Approx(3.5).epsilon(0.002));
  CHECK(xp::var(u).item() == doctest::Approx(9.0 / 12).epsilon(0.01));
  const auto z = xp::random::normal<double>(-1, 3, {n}, device);
  CHECK(xp::mean(z).item() == doctest::Approx(-1).epsilon(0.01));
  CHECK(xp::std(z).item() == doctest::Approx(3).epsilon(0.005));
  const double beyond_3_sigma = xp::mean((xp::abs(z + 1) > 9).astype<double>()).item();
  CHECK(beyond_3_sigma == doctest::Approx(0.0027).epsilon(0.15));
  CHECK(xp::random::normal<float>().ndim() == 0);
}

TEST_CASE("uniform bounds in the wrong order are a ValueError") {
  CHECK_THROWS_WITH_AS(xp::random::uniform<float>(2, 1, {3}), "uniform: high - low < 0 (low 2, high 1)",
                       xp::ValueError);
}
