// Autograd: every recorded operation's gradient against central finite differences in float64
// (broadcast, strided, transposed, keepdims, several axis sets), and the rules of recording.
#include <doctest/doctest.h>

#include <cmath>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

using xp_test::check_gradients;
using xp_test::Inputs;
using xp_test::smooth_values;
using D = xp::ndarray<double>;

XP_TEST_ON_DEVICES("autograd: binary elementwise gradients, broadcast and summed back") {
  const D a = smooth_values({2, 3}, device), b = smooth_values({3}, device, 0.4);
  const D positive = xp::abs(a) + 0.5, column = smooth_values({2, 1}, device, 0.9);
  check_gradients([](const Inputs& x) { return x[0] + x[1]; }, {a, b});
  check_gradients([](const Inputs& x) { return x[0] - x[1]; }, {a, column});
  check_gradients([](const Inputs& x) { return x[0] * x[1]; }, {a, b});
  check_gradients([](const Inputs& x) { return x[0] / x[1]; }, {a, b});
  check_gradients([](const Inputs& x) { return xp::power(x[0], x[1]); }, {positive, b});
  check_gradients([](const Inputs& x) { return xp::maximum(x[0], x[1]); }, {a, b});
  check_gradients([](const Inputs& x) { return xp::minimum(x[0], x[1]); }, {a, column});
  check_gradients([](const Inputs& x) { return xp::mod(x[0], x[1]); }, {positive, xp::abs(b) + 2.0});
  // Scalars on either side, and the same array twice.
  check_gradients([](const Inputs& x) { return 2.0 * x[0] - x[0] / 4.0 + 1.0; }, {a});
  check_gradients([](const Inputs& x) { return 3.0 / x[0]; }, {positive});
  check_gradients([](const Inputs& x) { return xp::power(x[0], 3.0) + xp::power(2.0, x[0]); }, {a});
  check_gradients([](const Inputs& x) { return x[0] * x[0]; }, {a});
}

XP_TEST_ON_DEVICES("autograd: unary elementwise gradients") {
  const D a = smooth_values({2, 3}, device), positive = xp::abs(a) + 0.25;
  check_gradients([](const Inputs& x) { return -x[0]; }, {a});
  check_gradients([](const Inputs& x) { return xp::abs(x[0]); }, {a});
  check_gradients([](const Inputs& x) { return xp::exp(x[0]); }, {a});
  check_gradients([](const Inputs& x) { return xp::log(x[0]); }, {positive});
  check_gradients([](const Inputs& x) { return xp::log1p(x[0]); }, {positive});
  check_gradients([](const Inputs& x) { return xp::expm1(x[0]); }, {a});
  check_gradients([](const Inputs& x) { return xp::sqrt(x[0]); }, {positive});
  check_gradients([](const Inputs& x) { return xp::sin(x[0]) + xp::cos(x[0]); }, {a});
  check_gradients([](const Inputs& x) { return xp::tan(x[0]); }, {a / 2.0});
  check_gradients([](const Inputs& x) { return xp::tanh(x[0]) * xp::sigmoid(x[0]); }, {a});
}

XP_TEST_ON_DEVICES("autograd: where and clip, with array bounds") {
  const D a = smooth_values({2, 3}, device), b = smooth_values({2, 3}, device, 1.3);
  const xp::ndarray<bool> positive = a > 0.0;
  check_gradients([&](const Inputs& x) { return xp::where(positive, x[0], x[1]); }, {a, b});
  check_gradients([&](const Inputs& x) { return xp::where(positive, x[0], 2.0); }, {a});
  check_gradients([](const Inputs& x) { return xp::clip(x[0], -0.6, 0.7); }, {a});
  const D low = smooth_values({3}, device, 0.2) - 0.5;
  check_gradients([](const Inputs& x) { return xp::clip(x[0], x[1], x[1] + 1.0); }, {a, low});
}

XP_TEST_ON_DEVICES("autograd: reductions over several axis sets, keepdims, strided inputs") {
  const D a = smooth_values({2, 3, 4}, device);
  const D strided = smooth_values({4, 3, 2}, device).transpose();  // a (2, 3, 4) view, not C-ordered
  constexpr auto cpu_differences = xp_test::Differences::on_cpu;  // 2 x 24 forward passes per check
  const std::vector<std::vector<int>> axis_sets{{0}, {1}, {-1}, {0, 2}, {0, 1, 2}};
  for (const D& x0 : {a, strided}) {
    for (bool keepdims : {false, true}) {
      for (const auto& axes : axis_sets) {
        INFO("axes ", axes.size(), " starting ", axes[0], ", keepdims ", keepdims);
        const std::vector<xp_test::Function> reductions{
            [&](const Inputs& x) { return xp::sum(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::mean(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::max(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::min(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::prod(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::norm(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::var(x[0], axes, keepdims); },
            [&](const Inputs& x) { return xp::std(x[0], axes, keepdims, 1); }};
        for (const auto& reduction : reductions) check_gradients(reduction, {x0}, 1e-6, cpu_differences);
      }
    }
  }
  check_gradients([](const Inputs& x) { return xp::sum(x[0]); }, {a});
}

XP_TEST_ON_DEVICES("autograd: prod's gradient is the product of the others, also at zeros") {
  for (const std::vector<double>& values : {std::vector<double>{2, 0, 3}, std::vector<double>{0, 0, 5}}) {
    D x = xp::array<double>(values, device);
    x.attach_grad();
    {
      xp::autograd::record recording;
      xp::prod(x).backward();
    }
    const std::vector<double> expected =
        values[0] == 0 && values[1] == 0 ? std::vector<double>{0, 0, 0} : std::vector<double>{0, 6, 0};
    CHECK(x.grad().to_vector() == expected);
  }
}

XP_TEST_ON_DEVICES("autograd: views and copies: reshape, transpose, slicing, broadcast_to, squeeze, split") {
  const D a = smooth_values({2, 3, 4}, device);
  check_gradients([](const Inputs& x) { return x[0].reshape({4, -1}) * 2.0; }, {a});
  check_gradients([](const Inputs& x) { return x[0].transpose(2, 0, 1) * x[0].transpose(2, 0, 1); }, {a});
  check_gradients([](const Inputs& x) { return x[0](1, xp::slice(xp::none, xp::none, -2)) * 3.0; }, {a});
  check_gradients([](const Inputs& x) { return x[0](xp::slice(), 2, xp::slice(1, 3)) + x[0](0, 0, 0); }, {a});
  check_gradients([](const Inputs& x) { return x[0].broadcast_to({2, 2, 3}) * x[0].broadcast_to({2, 2, 3}); },
                  {smooth_values({2, 1, 3}, device)});
  check_gradients([](const Inputs& x) { return xp::expand_dims(xp::squeeze(x[0]), {0, 2}) * 2.0; },
                  {smooth_values({3, 1, 2}, device)});
  check_gradients(
      [](const Inputs& x) {
        const auto parts = xp::split(x[0], {1}, 2);
        return parts[0] * 2.0 + parts[1](xp::slice(), xp::slice(), xp::slice(0, 1));
      },
      {smooth_values({2, 2, 4}, device)});
  check_gradients([](const Inputs& x) { return xp::concatenate({x[0], x[1] * x[1]}, 1); },
                  {a, smooth_values({2, 2, 4}, device)});
  check_gradients([](const Inputs& x) { return xp::stack({x[0], x[1]}, -1) * 3.0; }, {a, a + 1.0});
  // astype: the gradient converted back to the input's dtype.
  xp::ndarray<float> single = xp::array<float>({1, 2}, device);
  single.attach_grad();
  {
    xp::autograd::record recording;
    (single.astype<double>() * 2.5).backward();
  }
  CHECK(single.grad().to_vector() == std::vector<float>{2.5f, 2.5f});
}

XP_TEST_ON_DEVICES("autograd: matmul and dot in every operand arrangement") {
  const auto check_product = [&](const xp::Shape& sa, const xp::Shape& sb, bool dot) {
    INFO((dot ? "dot " : "matmul "), sa, " . ", sb);
    check_gradients([dot](const Inputs& x) { return dot ? xp::dot(x[0], x[1]) : xp::matmul(x[0], x[1]); },
                    {smooth_values(sa, device), smooth_values(sb, device, 0.5)});
  };
  for (bool dot : {false, true}) {
    check_product({2, 3}, {3, 4}, dot);
    check_product({3}, {3, 2}, dot);
    check_product({2, 3}, {3}, dot);
    check_product({3}, {3}, dot);
    check_product({2, 2, 3}, {3, 2}, dot);
  }
  check_product({2, 1, 2, 3}, {3, 3, 2}, false);  // batch axes broadcast both ways
  check_product({3}, {2, 3, 2}, false);
  check_product({2, 3}, {2, 3, 4}, true);  // N-D dot: b's second-to-last axis
  check_product({2, 2, 3}, {4, 3, 2}, true);
  check_product({}, {2, 3}, true);  // 0-d dot is a product by a scalar
  // Transposed operands go to BLAS as they lie; their gradients are still of the views.
  check_gradients([](const Inputs& x) { return xp::matmul(x[0].transpose(), x[1].transpose()); },
                  {smooth_values({3, 2}, device), smooth_values({4, 3}, device)});
}

XP_TEST_ON_DEVICES("autograd: activations, softmax, log_softmax, pick") {
  const D a = smooth_values({3, 4}, device);
  check_gradients([](const Inputs& x) { return xp::relu(x[0]); }, {a});
  check_gradients([](const Inputs& x) { return xp::softrelu(x[0] * 10.0); }, {a});
  check_gradients([](const Inputs& x) { return xp::softsign(x[0]); }, {a});
  for (int axis : {0, -1}) {
    check_gradients([axis](const Inputs& x) { return xp::softmax(x[0], axis); }, {a});
    check_gradients([axis](const Inputs& x) { return xp::log_softmax(x[0], axis); }, {a});
  }
  const auto labels = xp::array<float>({3, 0, 1}, device);
  check_gradients([&](const Inputs& x) { return xp::pick(x[0], labels); }, {a});
  const auto columns = xp::array<std::int64_t>({{2, 0, 1, 9}}, device);  // with the picked axis, as extent 1
  check_gradients([&](const Inputs& x) { return xp::pick(x[0], columns, 0, true); }, {a});
}

XP_TEST_ON_DEVICES("autograd: forward values of the nn functions") {
  const auto x = xp::array<double>({{-1.0, 0.5, 2.0}}, device);
  CHECK(xp::relu(x).to_vector() == std::vector<double>{0.0, 0.5, 2.0});
  CHECK(xp::softsign(x).to_vector() == std::vector<double>{-0.5, 0.5 / 1.5, 2.0 / 3.0});
  const auto soft = xp::softrelu(xp::array<double>({-800.0, 0.0, 800.0}, device)).to_vector();
  CHECK(soft[0] == 0.0);
  CHECK(soft[1] == doctest::Approx(std::log(2.0)));
  CHECK(soft[2] == 800.0);  // no overflow
  const double total = std::exp(-1.0) + std::exp(0.5) + std::exp(2.0);
  const auto p = xp::softmax(x).to_vector();
  CHECK(p[2] == doctest::Approx(std::exp(2.0) / total));
  CHECK(xp::log_softmax(x).to_vector()[0] == doctest::Approx(-1.0 - std::log(total)));
  // pick clips and truncates its indices (MXNet's mode 'clip').
  const auto rows = xp::array<double>({{1, 2, 3}, {4, 5, 6}}, device);
  CHECK(xp::pick(rows, xp::array<float>({2.7f, -4.0f}, device)).to_vector() == std::vector<double>{3, 4});
  CHECK_THROWS_WITH_AS(xp::pick(rows, xp::array<float>({1, 2, 0}, device)),
                       "pick: the index has shape (3,) but an array of shape (2, 3) picked along axis 1 needs (2,)",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::relu(xp::array<std::int32_t>({1, 2}, device)), xp::TypeError);
}

XP_TEST_ON_DEVICES("autograd: fully_connected with and without flattening and bias") {
  const D w = smooth_values({3, 4}, device, 0.3), bias = smooth_values({3}, device, 0.6);
  check_gradients([](const Inputs& x) { return xp::fully_connected(x[0], x[1], x[2]); },
                  {smooth_values({2, 2, 2}, device), w, bias});
  check_gradients([](const Inputs& x) { return xp::fully_connected(x[0], x[1], x[2], /*flatten=*/false); },
                  {smooth_values({2, 2, 4}, device), w, bias});
  check_gradients([](const Inputs& x) { return xp::fully_connected(x[0], x[1], xp::none); },
                  {smooth_values({2, 4}, device), w});
  // y = x . w^T + b by hand.
  const auto y = xp::fully_connected(xp::array<double>({{1, 2}}, device), xp::array<double>({{1, 0}, {2, 3}}, device),
                                     xp::array<double>({10, 20}, device));
  CHECK(y.to_vector() == std::vector<double>{11, 28});
  CHECK_THROWS_WITH_AS(xp::fully_connected(smooth_values({2, 5}, device), w, bias),
                       "fully_connected: an input of shape (2, 5) gives 5 features per row but the weight (3, 4) "
                       "takes 4",
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("autograd: batch_norm in training and inference, running statistics") {
  const D x = smooth_values({4, 3, 2}, device), gamma = smooth_values({3}, device, 0.8) + 2.0;
  const D beta = smooth_values({3}, device, 0.1);
  const D running_mean = xp::zeros<double>({3}, device), running_var = xp::ones<double>({3}, device);
  xp::BatchNormOptions options;
  // Training: the batch's statistics, which depend on x.
  const auto training = [&](const Inputs& v) {
    xp::autograd::train_mode in_training;
    return xp::batch_norm(v[0], v[1], v[2], running_mean, running_var, options);
  };
  check_gradients(training, {x, gamma, beta}, 1e-5);
  // Inference: the running statistics.
  const auto inference = [&](const Inputs& v) {
    xp::autograd::predict_mode predicting;
    return xp::batch_norm(v[0], v[1], v[2], running_mean, running_var, options);
  };
  check_gradients(inference, {x, gamma, beta});
  options.fix_gamma = true;
  const std::vector<double> fixed = check_gradients(training, {x, gamma, beta}, 1e-5)[1];
  CHECK(fixed == std::vector<double>{0, 0, 0});

  // One training step by hand: channel 0 holds 1, 3 (mean 2, biased variance 1).
  const auto one_channel = xp::array<double>({{1.0}, {3.0}}, device);
  auto mean = xp::zeros<double>({1}, device), var = xp::ones<double>({1}, device);
  const auto g1 = xp::ones<double>({1}, device), b0 = xp::zeros<double>({1}, device);
  {
    xp::autograd::train_mode in_training;
    const auto y = xp::batch_norm(one_channel, g1, b0, mean, var, {.eps = 0.0});
    CHECK(y.to_vector() == std::vector<double>{-1.0, 1.0});
  }
  CHECK(mean.to_vector()[0] == doctest::Approx(0.2));  // 0.9 * 0 + 0.1 * 2
  CHECK(var.to_vector()[0] == doctest::Approx(1.0));  // 0.9 * 1 + 0.1 * 1
  const auto predicted = xp::batch_norm(one_channel, g1, b0, mean, var, {.eps = 0.0});  // not training
  CHECK(predicted.to_vector()[0] == doctest::Approx(0.8));  // (1 - 0.2) / 1
  CHECK(mean.to_vector()[0] == doctest::Approx(0.2));  // unchanged
}

XP_TEST_ON_DEVICES("autograd: dropout keeps a scaled mask while training, is the identity otherwise") {
  xp::random::seed(7);
  D x = xp::ones<double>({1000}, device) * 2.0;
  x.attach_grad();
  CHECK(xp::dropout(x, 0.5).shares_buffer_with(x));  // not training
  {
    xp::autograd::record recording;
    const D y = xp::dropout(x, 0.25);
    y.backward();
    const std::vector<double> out = y.to_vector(), grad = x.grad().to_vector();
    std::size_t kept = 0;
    for (std::size_t k = 0; k < out.size(); ++k) {
      CHECK((out[k] == 0.0 || out[k] == doctest::Approx(2.0 / 0.75)));
      CHECK(grad[k] == doctest::Approx(out[k] / 2.0));  // the same mask
      kept += out[k] != 0.0;
    }
    CHECK(kept > 690);
    CHECK(kept < 810);
  }
  CHECK_THROWS_WITH_AS(xp::dropout(x, 1.5), "dropout: the probability p = 1.5 is not in [0, 1]", xp::ValueError);
}

XP_TEST_ON_DEVICES("autograd: float32 gradients match float64 ones") {
  const auto mlp = [](const auto& x, const auto& w1, const auto& w2, const auto& labels) {
    const auto hidden = xp::tanh(xp::fully_connected(x, w1, xp::none));
    const auto out = xp::fully_connected(hidden, w2, xp::none);
    return xp::mean(-xp::pick(xp::log_softmax(out), labels));
  };
  const D x = smooth_values({5, 4}, device), w1 = smooth_values({6, 4}, device, 0.2) * 0.5;
  const D w2 = smooth_values({3, 6}, device, 0.7) * 0.5;
  const auto labels = xp::array<float>({0, 2, 1, 1, 0}, device);
  const auto gradients = [&](auto... arrays) {
    std::vector<xp::ndarray<>> variables{arrays...};
    for (auto& v : variables) v.attach_grad();
    {
      xp::autograd::record recording;
      using T = decltype((arrays, ...));
      using A = std::decay_t<T>;
      mlp(A(variables[0]), A(variables[1]), A(variables[2]), labels).backward();
    }
    std::vector<std::vector<double>> result;
    for (const auto& v : variables) result.push_back(v.grad().astype<double>().to_vector());
    return result;
  };
  check_gradients([&](const Inputs& v) { return mlp(v[0], v[1], v[2], labels); }, {x, w1, w2});
  const auto exact = gradients(x, w1, w2);
  const auto single = gradients(x.astype<float>(), w1.astype<float>(), w2.astype<float>());
  for (std::size_t i = 0; i < exact.size(); ++i)
    for (std::size_t j = 0; j < exact[i].size(); ++j)
      CHECK(single[i][j] == doctest::Approx(exact[i][j]).epsilon(1e-4).scale(1e-3));
}
