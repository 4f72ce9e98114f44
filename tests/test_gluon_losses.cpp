// Gluon's losses: hand-computed values per sample, and gradients against finite differences.
#include <doctest/doctest.h>

#include <cmath>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/gluon.hpp"

using xp_test::check_gradients;
using xp_test::Inputs;
namespace loss = xp::gluon::loss;

XP_TEST_ON_DEVICES("loss: L2 and L1 give one mean per sample, label reshaped and converted") {
  const auto pred = xp::array<double>({{1, 2}, {3, 4}}, device);
  const auto label = xp::array<float>({1, 0, 5, 4}, device);  // reshaped to (2, 2), converted to float64
  // L2: (0 + 4) / 2 / 2 = 1 and (4 + 0) / 2 / 2 = 1; weight 2 doubles it.
  CHECK(loss::L2Loss()(pred, label).as<double>().to_vector() == std::vector<double>{1, 1});
  CHECK(loss::L2Loss(2.0)(pred, label).as<double>().to_vector() == std::vector<double>{2, 2});
  CHECK(loss::L1Loss()(pred, label).as<double>().to_vector() == std::vector<double>{1, 1});
  CHECK_THROWS_WITH_AS(loss::L2Loss()(pred, xp::array<double>({1, 2, 3}, device)),
                       "loss: a label of shape (3,) does not match the prediction's shape (2, 2)", xp::ValueError);
}

XP_TEST_ON_DEVICES("loss: softmax cross-entropy with sparse and dense labels, from logits or not") {
  const auto pred = xp::array<double>({{1, 2, 3}, {1, 1, 1}}, device);
  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0)), lse1 = std::log(3.0);
  const auto sparse = loss::SoftmaxCrossEntropyLoss()(pred, xp::array<float>({2, 0}, device)).as<double>().to_vector();
  CHECK(sparse[0] == doctest::Approx(lse0 - 3));
  CHECK(sparse[1] == doctest::Approx(lse1));
  const auto dense_label = xp::array<double>({{0, 0.5, 0.5}, {1, 0, 0}}, device);
  const auto dense = loss::SoftmaxCrossEntropyLoss(-1, false)(pred, dense_label).as<double>().to_vector();
  CHECK(dense[0] == doctest::Approx(lse0 - 2.5));
  const auto logits = loss::SoftmaxCrossEntropyLoss(-1, true, true)(pred, xp::array<float>({1, 2}, device));
  CHECK(logits.as<double>().to_vector() == std::vector<double>{-2, -1});
}

XP_TEST_ON_DEVICES("loss: sigmoid binary cross-entropy, stable for large scores") {
  const auto pred = xp::array<double>({{0.0, 800.0}, {-800.0, 2.0}}, device);
  const auto label = xp::array<double>({{1, 1}, {0, 0}}, device);
  const auto l = loss::SigmoidBinaryCrossEntropyLoss()(pred, label).as<double>().to_vector();
  CHECK(l[0] == doctest::Approx(std::log(2.0) / 2));  // (log 2 + 0) / 2
  CHECK(l[1] == doctest::Approx(std::log1p(std::exp(2.0)) / 2));  // (0 + log(1 + e^2)) / 2
  const auto probabilities = xp::array<double>({{0.25}, {0.5}}, device);
  const auto p = loss::SigmoidBinaryCrossEntropyLoss(true)(probabilities, xp::array<double>({1, 0}, device));
  CHECK(p.as<double>().to_vector()[0] == doctest::Approx(-std::log(0.25)));
}

XP_TEST_ON_DEVICES("loss: gradients against finite differences") {
  const auto pred = xp_test::smooth_values({3, 4}, device);
  const auto dense = xp::softmax(xp_test::smooth_values({3, 4}, device, 0.7));
  const auto classes = xp::array<float>({3, 1, 0}, device);
  const auto as_double = [](const xp::ndarray<>& a) { return a.as<double>(); };
  check_gradients([&](const Inputs& x) { return as_double(loss::L2Loss(0.5)(x[0], dense)); }, {pred});
  check_gradients([&](const Inputs& x) { return as_double(loss::L1Loss()(x[0], dense)); }, {pred});
  check_gradients([&](const Inputs& x) { return as_double(loss::SoftmaxCrossEntropyLoss()(x[0], classes)); }, {pred});
  check_gradients([&](const Inputs& x) { return as_double(loss::SoftmaxCrossEntropyLoss(0, false)(x[0], dense)); },
                  {pred});
  check_gradients([&](const Inputs& x) { return as_double(loss::SigmoidBinaryCrossEntropyLoss()(x[0], dense)); },
                  {pred});
}
