// The Trainer and its optimizers: MXNet's formulas against a float64 reference, gradients summed over
// devices (two cpu devices train as one), the stale-gradient report and MXNet's texts.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "device_cases.hpp"
#include "xp/gluon.hpp"

namespace {

// One parameter whose gradient after `backward_of` is `coefficients` (loss = sum(w * coefficients)).
struct Linear {
  xp::gluon::Parameter w;
  xp::ndarray<double> coefficients;

  Linear(const std::vector<double>& start, const std::vector<double>& c, xp::Device device)
      : w("w", {static_cast<std::int64_t>(start.size())}, xp::GradReq::write, xp::dtype::float64),
        coefficients(xp::array<double>(c, device)) {
    w.initialize(nullptr, {device});
    w.set_data(xp::array<double>(start, device));
  }
  void backward() const {
    xp::autograd::record recording;
    (w.data() * coefficients).sum().backward();
  }
  std::vector<double> value() const { return w.data().as<double>().to_vector(); }
  xp::gluon::ParameterDict params() const {
    xp::gluon::ParameterDict dict;
    dict.add(w);
    return dict;
  }
};

double clipped(double g, double clip) { return clip < 0 ? g : std::max(-clip, std::min(clip, g)); }

}  // namespace

XP_TEST_ON_DEVICES("Trainer: SGD with momentum, weight decay and clipping is MXNet's formula") {
  const std::vector<double> start{1.0, 1.0, -0.5}, c{2.0, -4.0, 30.0};
  Linear model(start, c, device);
  xp::gluon::Trainer trainer(model.params(), "sgd",
                             {{"learning_rate", 0.1}, {"momentum", 0.9}, {"wd", 0.01}, {"clip_gradient", 5.0}});
  std::vector<double> w = start, mom(3, 0.0);
  for (int step = 0; step < 3; ++step) {
    model.backward();
    trainer.step(2);
    for (std::size_t i = 0; i < w.size(); ++i) {
      mom[i] = 0.9 * mom[i] - 0.1 * (clipped(c[i] / 2, 5.0) + 0.01 * w[i]);
      w[i] += mom[i];
    }
  }
  const auto got = model.value();
  for (std::size_t i = 0; i < w.size(); ++i) CHECK(got[i] == doctest::Approx(w[i]).epsilon(1e-12));
  // The first two steps by hand: [1, 1] -> [0.899, 1.199] -> [0.707201, 1.576901].
  Linear two({1.0, 1.0}, {2.0, -4.0}, device);
  xp::gluon::Trainer by_hand(two.params(), "sgd", {{"learning_rate", 0.1}, {"momentum", 0.9}, {"wd", 0.01}});
  for (int step = 0; step < 2; ++step) {
    two.backward();
    by_hand.step(2);
  }
  CHECK(two.value()[0] == doctest::Approx(0.707201).epsilon(1e-12));
  CHECK(two.value()[1] == doctest::Approx(1.576901).epsilon(1e-12));
}

XP_TEST_ON_DEVICES("Trainer: plain SGD and Adam with bias correction are MXNet's formulas") {
  const std::vector<double> start{1.0, -2.0, 0.25}, c{0.5, 3.0, -12.0};
  Linear plain(start, c, device), adam(start, c, device);
  xp::gluon::Trainer sgd_trainer(plain.params(), "SGD", {{"learning_rate", 0.5}, {"wd", 0.1}});
  xp::gluon::Trainer adam_trainer(adam.params(), "adam",
                                  {{"learning_rate", 0.01}, {"wd", 0.001}, {"clip_gradient", 2.0}, {"beta2", 0.99}});
  CHECK(adam_trainer.optimizer().name() == "adam");
  std::vector<double> w = start, v = start, m(3, 0.0), s(3, 0.0);
  for (int t = 1; t <= 4; ++t) {
    plain.backward();
    adam.backward();
    sgd_trainer.step(4);
    adam_trainer.step(4);
    const double lr = 0.01 * std::sqrt(1 - std::pow(0.99, t)) / (1 - std::pow(0.9, t));
    for (std::size_t i = 0; i < w.size(); ++i) {
      w[i] -= 0.5 * (c[i] / 4 + 0.1 * w[i]);
      const double g = clipped(c[i] / 4 + 0.001 * v[i], 2.0);
      m[i] = 0.9 * m[i] + 0.1 * g;
      s[i] = 0.99 * s[i] + 0.01 * g * g;
      v[i] -= lr * m[i] / (std::sqrt(s[i]) + 1e-8);
    }
  }
  for (std::size_t i = 0; i < w.size(); ++i) {
    CHECK(plain.value()[i] == doctest::Approx(w[i]).epsilon(1e-12));
    CHECK(adam.value()[i] == doctest::Approx(v[i]).epsilon(1e-12));
  }
  // Adam's first step moves each weight by about the learning rate, whatever the gradient's size.
  Linear first({0.0, 0.0}, {1e-3, -1e3}, device);
  xp::gluon::Trainer once(first.params(), "adam", {{"learning_rate", 0.01}});
  first.backward();
  once.step(1);
  CHECK(first.value()[0] == doctest::Approx(-0.01).epsilon(1e-4));
  CHECK(first.value()[1] == doctest::Approx(0.01).epsilon(1e-6));
}

TEST_CASE("Trainer: two cpu devices with split_and_load train as one device with the whole batch") {
  const std::vector<xp::Device> both{xp::cpu(0), xp::cpu(1)};
  const auto make = [](const std::vector<xp::Device>& devices) {
    auto net = std::make_shared<xp::nn::Sequential>();
    {
      // Children named inside the network's prefix: both networks' parameters sort, pair and draw in one
      // order, whatever the name counters were when this case started.
      auto scope = net->name_scope();
      net->add(xp::nn::Dense(16, "relu", true, true, 5), xp::nn::Dense(3, "", true, true, 16));
    }
    xp::random::seed(11);  // the same draw for both networks
    net->initialize(xp::initializer::Xavier(), devices);
    return net;
  };
  const auto one = make({xp::cpu(0)});
  const auto two = make(both);
  std::vector<std::vector<float>> initial;
  for (const auto& [name, p] : one->collect_params()) initial.push_back(p.data().as<float>().to_vector());
  xp::gluon::Trainer single(one->collect_params(), "sgd", {{"learning_rate", 0.2}, {"momentum", 0.9}, {"wd", 1e-3}});
  xp::gluon::Trainer split(two->collect_params(), "sgd", {{"learning_rate", 0.2}, {"momentum", 0.9}, {"wd", 1e-3}});
  const xp::gluon::loss::SoftmaxCrossEntropyLoss loss;
  xp::random::seed(5);
  const auto x = xp::random::normal<float>(0.f, 1.f, {12, 5}, xp::cpu(0));
  const auto y = xp::array<std::int32_t>({0, 2, 1, 1, 0, 2, 2, 1, 0, 0, 1, 2}, xp::cpu(0));
  for (int step = 0; step < 20; ++step) {
    {
      xp::autograd::record recording;
      loss((*one)(x), y).backward();
    }
    single.step(12);
    const auto xs = xp::utils::split_and_load(x, both);
    const auto ys = xp::utils::split_and_load(y, both);
    {
      xp::autograd::record recording;
      std::vector<xp::ndarray<>> losses;
      for (std::size_t d = 0; d < both.size(); ++d) losses.push_back(loss((*two)(xs[d]), ys[d]));
      xp::autograd::backward(losses);
    }
    split.step(12);
  }
  const auto ones = one->collect_params(), twos = two->collect_params();
  REQUIRE(ones.size() == twos.size());
  auto a = ones.begin();
  auto start = initial.begin();
  for (auto b = twos.begin(); b != twos.end(); ++a, ++b, ++start) {
    CAPTURE(b->first);
    const auto reference = a->second.data().as<float>().to_vector();
    const auto on0 = b->second.data(xp::cpu(0)).as<float>().to_vector();
    const auto on1 = b->second.data(xp::cpu(1)).as<float>().to_vector();
    REQUIRE(on0.size() == reference.size());
    CHECK(on0 == on1);  // replicas identical, bit for bit
    CHECK(reference != *start);  // training moved every parameter
    double worst = 0;
    for (std::size_t i = 0; i < reference.size(); ++i)
      worst = std::max(worst, std::abs(double(reference[i]) - on0[i]) / (1e-3 + std::abs(reference[i])));
    CHECK(worst < 1e-4);
  }
}

TEST_CASE("Trainer: a stale gradient is MXNet's UserWarning; ignore_stale_grad skips that parameter") {
  xp::nn::Dense used(2, "", true, true, 3), unused(2, "", true, true, 3);
  used.initialize(xp::initializer::One());
  unused.initialize(xp::initializer::One());
  xp::gluon::ParameterDict params;
  for (const auto& [name, p] : used.collect_params()) params.add(p);
  for (const auto& [name, p] : unused.collect_params()) params.add(p);
  xp::gluon::Trainer trainer(params, "sgd", {{"learning_rate", 1.0}});
  {
    xp::autograd::record recording;
    used(xp::ones<float>({1, 3})).sum().backward();
  }
  CHECK_THROWS_WITH_AS(trainer.step(1),
                       ("Gradient of Parameter `" + unused.bias().name() +
                        "` on context cpu(0) has not been updated by backward since last `step`. This could mean a "
                        "bug in your model that made it only use a subset of the Parameters (Blocks) for this "
                        "iteration. If you are intentionally only using a subset, call step with "
                        "ignore_stale_grad=True to suppress this warning and skip updating of Parameters with stale "
                        "gradient")
                           .c_str(),
                       xp::UserWarning);
  trainer.step(1, /*ignore_stale_grad=*/true);
  CHECK(used.weight().data().as<float>().to_vector() == std::vector<float>(6, 0.0f));  // 1 - 1 * 1
  CHECK(unused.weight().data().as<float>().to_vector() == std::vector<float>(6, 1.0f));
  // The gradient is stale again until the next backward.
  CHECK_THROWS_AS(trainer.step(1), xp::UserWarning);
}

TEST_CASE("Trainer: one device list for all parameters, known optimizers, options and kvstores") {
  xp::nn::Dense a(1, "", true, true, 2), b(1, "", true, true, 2);
  a.initialize(xp::cpu(0));
  b.initialize(std::vector<xp::Device>{xp::cpu(0), xp::cpu(1)});
  xp::gluon::ParameterDict params;
  params.add(a.weight());
  params.add(b.weight());
  xp::gluon::Trainer trainer(params, "sgd");
  const bool a_first = a.weight().name() < b.weight().name();
  CHECK_THROWS_WITH_AS(
      trainer.step(1),
      ("All Parameters must be initialized on the same set of contexts, but Parameter " +
       (a_first ? b : a).weight().name() + " is initialized on " + (a_first ? "[cpu(0), cpu(1)]" : "[cpu(0)]") +
       " while previous Parameters are initialized on " + (a_first ? "[cpu(0)]" : "[cpu(0), cpu(1)]") + ".")
          .c_str(),
      xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::gluon::Trainer(params, "sgd", {{"learnig_rate", 0.1}}),
                       "sgd: unknown option 'learnig_rate' (it takes clip_gradient, learning_rate, momentum, "
                       "rescale_grad, wd)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::gluon::Trainer(params, "rmsprop"),
                       "Cannot find optimizer rmsprop (xparray has sgd and adam)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::gluon::Trainer(params, "sgd", {}, "dist_sync"),
                       "kvstore: 'dist_sync' needs xp::dist::init first (from the xp::dist library)", xp::ValueError);
  CHECK(xp::optimizer::Adam().learning_rate == 0.001);
  CHECK(xp::optimizer::SGD().learning_rate == 0.01);
  // The options by name are MXNet's names.
  const xp::optimizer::SGD sgd({.learning_rate = 0.1, .momentum = 0.9, .wd = 1e-4, .clip_gradient = 2});
  CHECK((sgd.learning_rate == 0.1 && sgd.momentum == 0.9 && sgd.wd == 1e-4 && sgd.rescale_grad == 1.0 &&
         sgd.clip_gradient == 2.0));
  const xp::optimizer::Adam adam({.beta2 = 0.99, .epsilon = 1e-6, .rescale_grad = 0.5});
  CHECK((adam.learning_rate == 0.001 && adam.beta1 == 0.9 && adam.beta2 == 0.99 && adam.epsilon == 1e-6 &&
         adam.rescale_grad == 0.5 && adam.clip_gradient == -1.0));
  const xp::gluon::Trainer by_name(params, {.optimizer = "adam", .optimizer_params = {{"learning_rate", 0.25}}});
  CHECK(by_name.optimizer().name() == "adam");
  CHECK(by_name.learning_rate() == 0.25);
  CHECK_THROWS_WITH_AS(xp::gluon::Trainer(params, {.kvstore = "dist_sync"}),
                       "kvstore: 'dist_sync' needs xp::dist::init first (from the xp::dist library)", xp::ValueError);
  trainer.set_learning_rate(0.5);
  CHECK(trainer.learning_rate() == 0.5);
}
