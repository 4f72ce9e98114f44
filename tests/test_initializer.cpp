// Initializers (mx.init): shapes, dtypes, devices, ranges and spreads, Xavier's scale and errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "device_cases.hpp"
#include "xp/gluon.hpp"

namespace {

struct Spread {
  double low, high, mean, deviation;
};

Spread spread_of(const xp::ndarray<>& a) {
  const std::vector<double> v = a.astype<double>().to_vector();
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  double squares = 0;
  for (const double x : v) squares += (x - mean) * (x - mean);
  return {*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()), mean,
          std::sqrt(squares / static_cast<double>(v.size()))};
}

}  // namespace

XP_TEST_ON_DEVICES("initializer: Uniform, Normal, Constant, Zero, One") {
  xp::random::seed(7);
  const xp::ndarray<> u = xp::initializer::Uniform()({200, 500}, xp::dtype::float32, device);
  CHECK(u.dtype() == xp::dtype::float32);
  CHECK(u.device() == device);
  CHECK(u.shape() == xp::Shape{200, 500});
  const Spread us = spread_of(u);
  CHECK(us.low >= -0.07);
  CHECK(us.high < 0.07);
  CHECK(us.high > 0.0699);  // 10^5 draws reach the ends
  CHECK(us.deviation == doctest::Approx(0.07 / std::sqrt(3.0)).epsilon(0.01));
  // The same seed gives the same numbers, on any device.
  xp::random::seed(7);
  CHECK(xp::initializer::Uniform()({200, 500}, xp::dtype::float32, xp::cpu(1)).as<float>().to_vector() ==
        u.as<float>().to_vector());

  const Spread ns = spread_of(xp::initializer::Normal(0.5)({100000}, xp::dtype::float64, device));
  CHECK(std::abs(ns.mean) < 0.01);
  CHECK(ns.deviation == doctest::Approx(0.5).epsilon(0.01));
  CHECK(xp::initializer::Normal().str() == "Normal(0.01)");

  CHECK(xp::initializer::Constant(2.5)({2, 2}, xp::dtype::float64, device).as<double>().to_vector() ==
        std::vector<double>(4, 2.5));
  CHECK(xp::initializer::One()({3}, xp::dtype::int32, device).as<std::int32_t>().to_vector() ==
        std::vector<std::int32_t>{1, 1, 1});
  CHECK(xp::initializer::Zero()({3}, xp::dtype::float32, device).as<float>().to_vector() ==
        std::vector<float>(3, 0.0f));
  const xp::ndarray<> ints = xp::initializer::Uniform(100)({50}, xp::dtype::int16, device);
  CHECK(ints.dtype() == xp::dtype::int16);
  CHECK(spread_of(ints).high <= 100);
}

XP_TEST_ON_DEVICES("initializer: Xavier's scale from the fans, and MXNet's errors") {
  xp::random::seed(3);
  // (64, 32, 3, 3): fan_in 288, fan_out 576; avg 432, in 288, out 576; scale sqrt(3 / factor).
  const xp::Shape shape{64, 32, 3, 3};
  const Spread avg = spread_of(xp::initializer::Xavier()(shape, xp::dtype::float32, device));
  CHECK(avg.low >= -std::sqrt(3.0 / 432));
  CHECK(avg.high < std::sqrt(3.0 / 432));
  CHECK(avg.deviation == doctest::Approx(std::sqrt(3.0 / 432) / std::sqrt(3.0)).epsilon(0.02));
  const Spread in = spread_of(xp::initializer::Xavier("gaussian", "in", 2)(shape, xp::dtype::float64, device));
  CHECK(in.deviation == doctest::Approx(std::sqrt(2.0 / 288)).epsilon(0.02));
  const Spread out = spread_of(xp::initializer::Xavier("uniform", "out")(shape, xp::dtype::float64, device));
  CHECK(out.high < std::sqrt(3.0 / 576));
  CHECK(out.high > 0.99 * std::sqrt(3.0 / 576));
  CHECK_THROWS_WITH_AS(xp::initializer::Xavier()({5}, xp::dtype::float32, device),
                       "Xavier initializer cannot be applied to vector of shape (5,). It requires at least 2D.",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::initializer::Xavier("normal"), "Xavier: unknown random type 'normal' (uniform or gaussian)",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::initializer::Xavier("uniform", "mean"), xp::ValueError);
  CHECK(xp::initializer::Xavier().str() == "Xavier(uniform, avg, 3)");
}
