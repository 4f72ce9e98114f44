// Metrics (MXNet 1.x's, MSE weighted by sample as MXNet 2) against hand-computed values.
#include <doctest/doctest.h>

#include <cmath>

#include "device_cases.hpp"
#include "xp/gluon.hpp"

XP_TEST_ON_DEVICES("metric: Accuracy argmaxes predictions of another shape, counts every element") {
  xp::metric::Accuracy accuracy;
  CHECK(accuracy.name() == "accuracy");
  CHECK(std::isnan(accuracy.get().second));
  // Row argmaxes 0, 2, 2, 1 against labels 0, 1, 2, 1: 3 of 4.
  const auto scores =
      xp::array<float>({{0.9f, 0.1f, 0.0f}, {0.2f, 0.3f, 0.5f}, {0.1f, 0.1f, 0.8f}, {0.0f, 1.0f, 0.0f}}, device);
  accuracy.update({xp::array<float>({0, 1, 2, 1}, device)}, {scores});
  CHECK(accuracy.get().second == doctest::Approx(0.75));
  // Predictions of the labels' shape are compared as integers: 1 of 2 more, 4 of 6 in all.
  accuracy.update({xp::array<std::int32_t>({1, 0}, device)}, {xp::array<float>({1.2f, 1.0f}, device)});
  CHECK(accuracy.get() == std::pair<std::string, double>{"accuracy", 4.0 / 6.0});
  accuracy.reset();
  CHECK(std::isnan(accuracy.get().second));
  // axis 0: the argmax down each column, 2 columns: 1 and 0 against labels 1 and 1.
  xp::metric::Accuracy by_columns(0);
  by_columns.update({xp::array<float>({1, 1}, device)}, {xp::array<float>({{0.1f, 0.7f}, {0.9f, 0.2f}}, device)});
  CHECK(by_columns.get().second == doctest::Approx(0.5));
  CHECK_THROWS_WITH_AS(accuracy.update({scores, scores}, {scores}),
                       "Shape of labels 2 does not match shape of predictions 1", xp::ValueError);
  CHECK_THROWS_WITH_AS(accuracy.update({xp::array<float>({0, 1, 2}, device)}, {scores}),
                       "Shape of labels 3 does not match shape of predictions 4", xp::ValueError);
}

XP_TEST_ON_DEVICES("metric: MSE is the mean over samples of each sample's mean square") {
  xp::metric::MSE mse;
  // Samples (1, 2) vs (1, 1) and (3, 4) vs (3, 6): means 0.5 and 2.
  mse.update({xp::array<float>({{1, 2}, {3, 4}}, device)}, {xp::array<float>({{1, 1}, {3, 6}}, device)});
  CHECK(mse.get().second == doctest::Approx(1.25));
  // Three 1-D samples with squares 1, 4, 9: the five samples average (0.5 + 2 + 1 + 4 + 9) / 5.
  mse.update({xp::zeros<double>({3}, device)}, {xp::array<double>({1, 2, 3}, device)});
  CHECK(mse.get() == std::pair<std::string, double>{"mse", 16.5 / 5});
  CHECK_THROWS_AS(mse.update({xp::zeros<float>({2, 2}, device)}, {xp::zeros<float>({2, 3}, device)}), xp::ValueError);
}

XP_TEST_ON_DEVICES("metric: CrossEntropy takes -log of each sample's probability of its label") {
  xp::metric::CrossEntropy ce;
  ce.update({xp::array<float>({0, 1}, device)}, {xp::array<double>({{0.5, 0.5}, {0.1, 0.9}}, device)});
  CHECK(ce.get().first == "cross-entropy");
  CHECK(ce.get().second == doctest::Approx(-(std::log(0.5 + 1e-12) + std::log(0.9 + 1e-12)) / 2));
  CHECK_THROWS_WITH_AS(ce.update({xp::array<float>({2}, device)}, {xp::array<float>({{0.5f, 0.5f}}, device)}),
                       "cross-entropy: label 2 of sample 0 is not a class of 2", xp::ValueError);
  CHECK_THROWS_AS(ce.update({xp::array<float>({0, 1}, device)}, {xp::array<float>({0.5f, 0.5f}, device)}),
                  xp::ValueError);
}
