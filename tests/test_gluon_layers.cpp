// Gluon's names, Parameter (MXNet 1.x's texts), Dense, Sequential, BatchNorm, on one or several devices.
#include <doctest/doctest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

#include "device_cases.hpp"
#include "xp/gluon.hpp"
#include "xp/warnings.hpp"

namespace {

std::string printed(const xp::gluon::Block& block) {
  std::ostringstream out;
  out << block;
  return out.str();
}

}  // namespace

TEST_CASE("gluon: names count per class and thread, and nest inside name_scope") {
  std::thread([] {  // a fresh thread: its counters start at 0
    xp::nn::Dense first(1), second(2);
    CHECK(first.weight().name() == "dense0_weight");
    CHECK(second.bias().name() == "dense1_bias");
    xp::nn::Sequential net;
    CHECK(net.name() == "sequential0");
    {
      auto scope = net.name_scope();
      net.add(xp::nn::Dense(3), xp::nn::Dense(4));
    }
    net.add(xp::nn::Dense(5));  // outside the scope: the thread's counter
    const auto params = net.collect_params();
    std::vector<std::string> names;
    for (const auto& [name, p] : params) names.push_back(name);
    CHECK(names == std::vector<std::string>{"dense2_bias", "dense2_weight", "sequential0_dense0_bias",
                                            "sequential0_dense0_weight", "sequential0_dense1_bias",
                                            "sequential0_dense1_weight"});
    CHECK_THROWS_WITH_AS(net.weight(), "sequential0 has no parameter 'weight'", xp::ValueError);
  })
      .join();
}

TEST_CASE("gluon: Parameter's errors are MXNet 1.x's") {
  xp::gluon::Parameter w("dense0_weight", {2, 3});
  CHECK_THROWS_WITH_AS(w.data(),
                       "Parameter 'dense0_weight' has not been initialized. Note that you should initialize parameters "
                       "and create Trainer with Block.collect_params() instead of Block.params because the later does "
                       "not include Parameters of nested child Blocks",
                       xp::RuntimeError);
  CHECK_THROWS_WITH_AS(w.list_ctx(), "Parameter 'dense0_weight' has not been initialized", xp::RuntimeError);
  CHECK_THROWS_WITH_AS(w.reset_ctx({xp::cpu(0)}),
                       "Cannot reset context for Parameter 'dense0_weight' because it has not been initialized.",
                       xp::RuntimeError);
  w.initialize(nullptr, {xp::cpu(1)});
  CHECK_THROWS_WITH_AS(w.data(xp::cpu(0)),
                       "Parameter 'dense0_weight' was not initialized on context cpu(0). It was only initialized on "
                       "[cpu(1)].",
                       xp::RuntimeError);
  CHECK(w.data().device() == xp::cpu(1));  // the only copy, whatever the current device
  xp::gluon::Parameter deferred("dense1_weight", {4, 0}, xp::GradReq::write, xp::dtype::float32, nullptr, true);
  deferred.initialize();
  CHECK_THROWS_WITH_AS(deferred.data(),
                       "Parameter 'dense1_weight' has not been initialized yet because initialization was deferred. "
                       "Actual initialization happens during the first forward pass. Please pass one batch of data "
                       "through the network before accessing Parameters. You can also avoid deferred initialization "
                       "by specifying in_units, num_features, etc., for network layers.",
                       xp::gluon::DeferredInitializationError);
  xp::gluon::Parameter unknown("dense2_weight", {4, 0});
  CHECK_THROWS_WITH_AS(unknown.initialize(),
                       "Cannot initialize Parameter 'dense2_weight' because it has invalid shape: (4, 0).",
                       xp::ValueError);
  xp::gluon::Parameter frozen("frozen", {2}, xp::GradReq::null);
  frozen.initialize();
  CHECK_THROWS_WITH_AS(frozen.grad(), "Cannot get gradient array for Parameter 'frozen' because grad_req='null'",
                       xp::RuntimeError);
  CHECK_THROWS_WITH_AS(xp::gluon::grad_req_from("sometimes"),
                       "grad_req must be one of 'write', 'add', or 'null', but got 'sometimes'", xp::ValueError);
}

TEST_CASE("gluon: a Parameter is drawn once on cpu and copied to every device; reset_ctx averages") {
  xp::random::seed(3);
  xp::gluon::Parameter w("w", {3, 2});
  w.initialize(nullptr, {xp::cpu(0), xp::cpu(1)});
  CHECK(w.list_ctx() == std::vector<xp::Device>{xp::cpu(0), xp::cpu(1)});
  const auto copies = w.list_data();
  CHECK(copies[1].device() == xp::cpu(1));
  CHECK(copies[0].as<float>().to_vector() == copies[1].as<float>().to_vector());
  for (float v : copies[0].as<float>().to_vector()) CHECK(std::abs(v) <= 0.07f);  // Uniform(0.07)
  CHECK(w.list_grad()[1].as<float>().to_vector() == std::vector<float>(6, 0.0f));
  CHECK(w.grad(xp::cpu(1)).device() == xp::cpu(1));
  // Initialized again without force_reinit: MXNet's warning, the values kept.
  std::vector<std::string> warnings;
  xp::utils::set_warning_handler([&](std::string_view message) { warnings.emplace_back(message); });
  const xp::initializer::One one;
  w.initialize(&one, {xp::cpu(0)});
  xp::utils::set_warning_handler(nullptr);
  CHECK(warnings == std::vector<std::string>{
                        "Parameter 'w' is already initialized, ignoring. Set force_reinit=True to re-initialize."});
  CHECK(w.list_data()[0].as<float>().to_vector() == copies[1].as<float>().to_vector());
  // Gradient buffers of one's own (a Trainer's packed gradients): the current gradient moves in.
  xp::ones<float>({3, 2}, xp::cpu(1)).copyto(w.grad(xp::cpu(1)).as<float>());
  const auto packed = xp::zeros<float>({20}, xp::cpu(1));
  w.set_grad_buffers({xp::zeros<float>({3, 2}, xp::cpu(0)), packed(xp::slice(4, 10)).reshape({3, 2})});
  CHECK(w.grad(xp::cpu(1)).raw_data() == packed.data() + 4);
  CHECK(packed.to_vector()[4] == 1.0f);
  CHECK_THROWS_WITH_AS(
      w.set_grad_buffers({xp::zeros<float>({3, 2}, xp::cpu(0)), xp::zeros<double>({3, 2}, xp::cpu(1))}),
      "Parameter 'w': a gradient buffer of float64 (3, 2) on cpu(1) for float32 (3, 2) on cpu(1)", xp::ValueError);
  w.set_data(xp::ones<float>({3, 2}));
  CHECK(w.data(xp::cpu(1)).as<float>().to_vector() == std::vector<float>(6, 1.0f));
  xp::ones<float>({3, 2}).copyto(w.data(xp::cpu(0)).as<float>());
  xp::full<float>({3, 2}, 3.0f, xp::cpu(1)).copyto(w.data(xp::cpu(1)).as<float>());
  w.reset_ctx({xp::cpu(2)});
  CHECK(w.data().device() == xp::cpu(2));
  CHECK(w.data().as<float>().to_vector() == std::vector<float>(6, 2.0f));
}

TEST_CASE("gluon: Dense infers in_units at the first forward and prints as MXNet") {
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(1));
  CHECK(printed(net) == "Sequential(\n  (0): Dense(None -> 1, linear)\n)");
  net.initialize(xp::cpu(0));
  CHECK_THROWS_AS(net[0].weight().data(), xp::gluon::DeferredInitializationError);
  const auto x = xp::array<float>({{1, 2, 3}, {4, 5, 6}});
  const auto y = net(x);
  CHECK(y.shape() == xp::Shape{2, 1});
  CHECK(printed(net[0]) == "Dense(3 -> 1, linear)");
  const auto w = net[0].weight().data().as<float>().to_vector();
  CHECK(y.as<float>().to_vector()[1] == doctest::Approx(4 * w[0] + 5 * w[1] + 6 * w[2]));  // bias 0
  CHECK(printed(xp::nn::Dense(4, "relu", true, true, 3)) == "Dense(3 -> 4, Activation(relu))");
  // The options by name are the positional ones.
  CHECK(printed(xp::nn::Dense(4, {.activation = "relu", .in_units = 3})) == "Dense(3 -> 4, Activation(relu))");
  xp::nn::Dense by_name(2, {.use_bias = false, .in_units = 5, .type = xp::dtype::float64});
  by_name.initialize(xp::cpu(0));
  CHECK(by_name.collect_params().size() == 1);
  CHECK(by_name.weight().data().dtype() == xp::dtype::float64);
  CHECK(by_name.weight().data().shape() == xp::Shape{2, 5});
  CHECK_THROWS_WITH_AS(xp::nn::Activation("swish"),
                       "Activation: unknown act_type 'swish' (relu, sigmoid, tanh, softrelu or softsign)",
                       xp::ValueError);
  CHECK(printed(xp::nn::BatchNorm()) ==
        "BatchNorm(axis=1, eps=1e-05, momentum=0.9, fix_gamma=False, use_global_stats=False, in_channels=None)");
  CHECK(printed(xp::nn::Dropout(0.5)) == "Dropout(p = 0.5, axes=())");
}

XP_TEST_ON_DEVICES("gluon: a Sequential MLP's forward is the functions' forward; its gradients reach every parameter") {
  xp::random::seed(5);
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(4, "tanh"), xp::nn::BatchNorm(), xp::nn::Dropout(0.5), xp::nn::Dense(2));
  net.initialize(xp::initializer::Xavier(), device);
  const auto x = xp::random::uniform<float>(-1, 1, {6, 3}, device);
  const auto y = net(x);  // not training: dropout and batch_norm's running statistics pass through
  const auto p = net.collect_params();
  const auto d0 = net[0].weight().data(device).as<float>(), b0 = net[0].bias().data(device).as<float>();
  const auto h = xp::tanh(xp::fully_connected(x, d0, b0)) / std::sqrt(1.0f + 1e-5f);
  const auto expected =
      xp::fully_connected(h, net[3].weight().data(device).as<float>(), net[3].bias().data(device).as<float>());
  const auto got = y.as<float>().to_vector(), want = expected.to_vector();
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == doctest::Approx(want[i]).epsilon(1e-5));
  {
    xp::autograd::record recording;
    xp::sum(net(x)).backward();
  }
  for (const auto& entry : p) {
    const auto& param = entry.second;
    if (param.grad_req() == xp::GradReq::null) continue;
    INFO(entry.first);  // not a binding: Clang 14 does not capture one in INFO's lambda
    CHECK(param.grad(device).device() == device);
    CHECK(xp::norm(param.grad(device)).astype<double>().item() > 0);
  }
  // BatchNorm's running statistics moved while training, and only then.
  const auto moved = net[1].own("running_mean").data(device).as<float>().to_vector();
  CHECK(std::abs(moved[0]) > 0);
}
