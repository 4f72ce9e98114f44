// NumPy's binary ufuncs beyond the first set (floor_divide, fmod, remainder, divmod, fmax, fmin,
// logical_xor, gcd, lcm, arctan2, hypot, copysign, nextafter, heaviside, ldexp), the two-result
// functions frexp and modf, and around: values by hand (NumPy's), dtypes as NumPy's loops give them,
// errors, and gradients against finite differences. The NumPy differential test covers every dtype
// and layout.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numbers>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// Equal element by element, NaN to NaN and the sign of zero included.
void check_same(const std::vector<double>& got, const std::vector<double>& wanted) {
  REQUIRE(got.size() == wanted.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CAPTURE(got[i]);
    if (std::isnan(wanted[i])) CHECK(std::isnan(got[i]));
    else CHECK((got[i] == wanted[i] && std::signbit(got[i]) == std::signbit(wanted[i])));
  }
}

}  // namespace

XP_TEST_ON_DEVICES("binary ufuncs: floor_divide, fmod, remainder and divmod as Python's and C's") {
  const auto a = xp::array<double>({7, -7, 7, -7, 0, 1, kInf, 5}, {8}, device);
  const auto b = xp::array<double>({2, 2, -2, -2, -3, 0, 2, kInf}, {8}, device);
  check_same(xp::floor_divide(a, b).to_vector(), {3, -4, -4, 3, -0.0, kInf, kNan, 0});
  check_same(xp::fmod(a, b).to_vector(), {1, -1, 1, -1, 0, kNan, kNan, 5});
  check_same(xp::remainder(a, b).to_vector(), {1, 1, -1, -1, -0.0, kNan, kNan, 5});
  const auto [quotient, remainder] = xp::divmod(a, b);
  check_same(quotient.to_vector(), xp::floor_divide(a, b).to_vector());
  check_same(remainder.to_vector(), xp::mod(a, b).to_vector());
  const auto i = xp::array<std::int8_t>({7, -7, -128, 5}, {4}, device);
  const auto j = xp::array<std::int8_t>({-2, 2, -1, 0}, {4}, device);
  CHECK(xp::floor_divide(i, j).to_vector() == std::vector<std::int8_t>{-4, -4, -128, 0});  // min // -1 wraps
  CHECK(xp::fmod(i, j).to_vector() == std::vector<std::int8_t>{1, -1, 0, 0});
  CHECK(xp::floor_divide(xp::array<bool>({true}, {1}, device), true).dtype() == xp::dtype::int8);
  const auto z = xp::array<std::complex<double>>({{1, 1}}, {1}, device);
  CHECK_THROWS_WITH_AS(xp::floor_divide(z, z),
                       "floor_divide: not supported for complex input (complex128), as NumPy's floor_divide",
                       xp::TypeError);
}

XP_TEST_ON_DEVICES("binary ufuncs: fmax and fmin let NaN lose; logical_xor; gcd and lcm of integers") {
  const auto a = xp::array<double>({1, kNan, kNan, -0.5}, {4}, device);
  const auto b = xp::array<double>({2, 3, kNan, -1}, {4}, device);
  check_same(xp::fmax(a, b).to_vector(), {2, 3, kNan, -0.5});
  check_same(xp::fmin(a, b).to_vector(), {1, 3, kNan, -1});
  check_same(xp::maximum(a, b).to_vector(), {2, kNan, kNan, -0.5});  // NaN wins there
  const auto p = xp::array<std::int32_t>({0, 3, -2, 0}, {4}, device);
  CHECK(xp::logical_xor(p, xp::array<double>({0, 0, 1.5, 2}, {4}, device)).to_vector() ==
        std::vector<bool>{false, true, false, true});
  const auto m = xp::array<std::int16_t>({12, -18, 0, 0, 7}, {5}, device);
  const auto n = xp::array<std::int16_t>({18, 12, 5, 0, -3}, {5}, device);
  CHECK(xp::gcd(m, n).to_vector() == std::vector<std::int16_t>{6, 6, 5, 0, 1});
  CHECK(xp::lcm(m, n).to_vector() == std::vector<std::int16_t>{36, 36, 0, 0, 21});
  CHECK(xp::gcd(xp::array<std::uint64_t>({1ull << 63}, {1}, device), std::uint64_t{1} << 62).to_vector()[0] ==
        std::uint64_t{1} << 62);
  CHECK_THROWS_WITH_AS(xp::gcd(xp::array<double>({1.0}, {1}, device), 2),
                       "gcd: not supported for float64 (NumPy's gcd takes integers alone)", xp::TypeError);
  CHECK_THROWS_WITH_AS(xp::lcm(xp::array<bool>({true}, {1}, device), true),
                       "lcm: not supported for bool (NumPy's lcm takes integers alone)", xp::TypeError);
}

XP_TEST_ON_DEVICES("binary ufuncs: arctan2, hypot, copysign, nextafter and heaviside") {
  const auto y = xp::array<double>({1, 1, -1, 0, -0.0}, {5}, device);
  const auto x = xp::array<double>({1, -1, -1, -1, -1}, {5}, device);
  const double pi = std::numbers::pi;
  const auto angles = xp::arctan2(y, x).to_vector();
  const std::vector<double> wanted{pi / 4, 3 * pi / 4, -3 * pi / 4, pi, -pi};
  for (std::size_t k = 0; k < wanted.size(); ++k) CHECK(angles[k] == doctest::Approx(wanted[k]).epsilon(1e-15));
  check_same(
      xp::hypot(xp::array<double>({3, 1e300, kInf}, {3}, device), xp::array<double>({4, 1e300, kNan}, {3}, device))
          .to_vector(),
      {5, std::hypot(1e300, 1e300), kInf});  // no overflow in between; inf beats NaN (C's hypot)
  check_same(xp::copysign(xp::array<double>({2, -2, 3}, {3}, device), xp::array<double>({-0.0, 1, kNan}, {3}, device))
                 .to_vector(),
             {-2, 2, 3});
  const auto h = xp::array<float>({1, 0, 0}, {3}, device).astype<xp::float16>();
  const auto next = xp::nextafter(h, xp::array<float>({2, 1, -1}, {3}, device).astype<xp::float16>());
  CHECK(next.dtype() == xp::dtype::float16);
  const auto steps = next.astype<double>().to_vector();  // float16's own steps, not float's
  CHECK(steps == std::vector<double>{1 + std::ldexp(1.0, -10), std::ldexp(1.0, -24), -std::ldexp(1.0, -24)});
  CHECK(xp::nextafter(xp::array<double>({1.0}, {1}, device), 2.0).to_vector()[0] == std::nextafter(1.0, 2.0));
  check_same(xp::heaviside(xp::array<double>({-2, 0, -0.0, 3, kNan}, {5}, device), 0.5).to_vector(),
             {0, 0.5, 0.5, 1, kNan});
  CHECK(xp::arctan2(xp::array<std::int8_t>({1}, {1}, device), std::int8_t{1}).dtype() == xp::dtype::float32);
  CHECK_THROWS_WITH_AS(xp::hypot(xp::array<std::complex<float>>({{1, 1}}, {1}, device), 1.f),
                       "hypot: not supported for complex input (complex64), as NumPy's hypot", xp::TypeError);
}

XP_TEST_ON_DEVICES("binary ufuncs: ldexp, frexp and modf") {
  const auto x = xp::array<float>({1.5f, -3.f, 0.f, 1.f}, {4}, device);
  const auto e = xp::array<std::int64_t>({3, -1, 100, 1000}, {4}, device);
  const auto scaled = xp::ldexp(x, e);
  CHECK(scaled.dtype() == xp::dtype::float32);  // x's type: an int64 exponent does not widen it
  CHECK(scaled.to_vector() == std::vector<float>{12.f, -1.5f, 0.f, std::numeric_limits<float>::infinity()});
  CHECK(xp::ldexp(xp::array<std::int32_t>({3}, {1}, device), 2).to_vector() == std::vector<double>{12});
  CHECK_THROWS_WITH_AS(xp::ldexp(x, 2.0),
                       "ldexp: the exponent must be integers or bool, not float64 (as NumPy's ldexp)", xp::TypeError);
  const auto v = xp::array<double>({8, -0.375, 0, kInf, kNan, 5e-324}, {6}, device);
  const auto [mantissa, exponent] = xp::frexp(v);
  CHECK(exponent.dtype() == xp::dtype::int32);
  check_same(mantissa.to_vector(), {0.5, -0.75, 0, kInf, kNan, 0.5});
  CHECK(exponent.to_vector() == std::vector<std::int32_t>{4, -1, 0, 0, 0, -1073});
  const auto w = xp::array<double>({2.75, -0.5, -3, kInf, -kInf, kNan}, {6}, device);
  const auto [fraction, whole] = xp::modf(w);
  check_same(fraction.to_vector(), {0.75, -0.5, -0.0, 0, -0.0, kNan});
  check_same(whole.to_vector(), {2, -0.0, -3, kInf, -kInf, kNan});
}

XP_TEST_ON_DEVICES("binary ufuncs: around rounds halves to even at any decimal place, as NumPy") {
  check_same(xp::around(xp::array<double>({0.5, 1.5, 2.5, -0.5, 1.25, 123.456}, {6}, device)).to_vector(),
             {0, 2, 2, -0.0, 1, 123});
  check_same(xp::around(xp::array<double>({1.25, 1.35, 123.456}, {3}, device), 1).to_vector(), {1.2, 1.4, 123.5});
  check_same(xp::around(xp::array<double>({1250, 1350, -1251}, {3}, device), -2).to_vector(), {1200, 1400, -1300});
  const auto i = xp::array<std::int16_t>({1250, 1350, -1250, 7}, {4}, device);
  CHECK(xp::around(i, -2).to_vector() == std::vector<std::int16_t>{1200, 1400, -1200, 0});
  CHECK(xp::around(i, 1).to_vector() == std::vector<std::int16_t>{1250, 1350, -1250, 7});
  CHECK(xp::around(xp::array<std::complex<double>>({{1.5, 2.5}}, {1}, device)).to_vector()[0] ==
        std::complex<double>(2, 2));
  CHECK_THROWS_AS(xp::around(xp::array<bool>({true}, {1}, device), -1), xp::TypeError);
}

XP_TEST_ON_DEVICES("binary ufuncs: gradients match finite differences") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto a = xp::array<double>({0.3, -0.6, 2.43, 0.8}, {2, 2}, device);
  const auto b = xp::array<double>({0.7, 0.25, -1.1, 0.5}, {2, 2}, device);
#define XP_GRADIENT_OF(call) check_gradients([](const xp_test::Inputs& in) { return call; }, {a, b}, 1e-6, on_cpu)
  XP_GRADIENT_OF(xp::fmod(in[0], in[1]));
  XP_GRADIENT_OF(xp::floor_divide(in[0], in[1]));
  XP_GRADIENT_OF(xp::fmax(in[0], in[1]));
  XP_GRADIENT_OF(xp::fmin(in[0], in[1]));
  XP_GRADIENT_OF(xp::arctan2(in[0], in[1]));
  XP_GRADIENT_OF(xp::hypot(in[0], in[1]));
  XP_GRADIENT_OF(xp::copysign(in[0], in[1]));
  XP_GRADIENT_OF(xp::heaviside(in[0], in[1]) * in[0]);
  XP_GRADIENT_OF(xp::frexp(in[0]).first * in[1]);
  XP_GRADIENT_OF(xp::modf(in[0]).first + xp::modf(in[1]).second);
  XP_GRADIENT_OF(xp::around(in[0], 1) + in[1]);
#undef XP_GRADIENT_OF
  check_gradients([](const xp_test::Inputs& in) { return xp::ldexp(in[0], 3); }, {a}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::nextafter(in[0], in[1]); }, {a, b}, 1e-6, on_cpu);
}
