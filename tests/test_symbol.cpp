// Symbols and executors: MXNet's argument lists and names, infer_shape with its errors, and executors
// whose outputs and gradients equal those of the same network written with autograd (and the output
// layers' gradients by hand).
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <thread>
#include <vector>

#include "device_cases.hpp"
#include "xp/executor.hpp"
#include "xp/gluon.hpp"
#include "xp/symbol.hpp"

namespace {

using Names = std::vector<std::string>;

// The network of API.md's example: data -> fc1(8) -> relu -> fc2(3) -> SoftmaxOutput.
xp::sym::Symbol mlp(std::int64_t hidden = 8, std::int64_t classes = 3) {
  auto data = xp::sym::var("data");
  auto label = xp::sym::var("softmax_label");
  return xp::sym::SoftmaxOutput(
      xp::sym::FullyConnected(xp::sym::Activation(xp::sym::FullyConnected(data, hidden, "fc1"), "relu"), classes,
                              "fc2"),
      label, "softmax");
}

// Distinct deterministic values.
std::vector<double> values(std::size_t n, double phase) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(1.3 * static_cast<double>(i) + phase);
  return v;
}

void check_close(const xp::ndarray<>& got, const xp::ndarray<>& want, double tolerance) {
  REQUIRE(got.shape() == want.shape());
  const std::vector<double> a = got.astype(xp::dtype::float64).as<double>().to_vector();
  const std::vector<double> b = want.astype(xp::dtype::float64).as<double>().to_vector();
  for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(tolerance));
}

}  // namespace

TEST_CASE("symbol: arguments, outputs and auxiliary states in MXNet's order and names") {
  const auto net = mlp();
  CHECK(net.list_arguments() == Names{"data", "fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias", "softmax_label"});
  CHECK(net.list_outputs() == Names{"softmax_output"});
  CHECK(net.list_auxiliary_states().empty());
  CHECK(net.name() == "softmax");

  auto bn = xp::sym::BatchNorm(xp::sym::FullyConnected(xp::sym::var("x"), 4, "fc", /*no_bias=*/true), "bn1");
  CHECK(bn.list_arguments() == Names{"x", "fc_weight", "bn1_gamma", "bn1_beta"});
  CHECK(bn.list_auxiliary_states() == Names{"bn1_moving_mean", "bn1_moving_var"});
  CHECK(bn.list_outputs() == Names{"bn1_output"});

  // A variable used twice is one argument; Group lists each head's output.
  auto a = xp::sym::var("a");
  auto both = xp::sym::Group({a * a, xp::sym::var("b")});
  CHECK(both.list_arguments() == Names{"a", "b"});
  CHECK(both.list_outputs().size() == 2);
  CHECK(both.list_outputs()[1] == "b");
}

TEST_CASE("symbol: operations without a name count per operator and per thread, as MXNet's NameManager") {
  // A fresh thread starts every counter at 0.
  std::thread([] {
    auto x = xp::sym::var("x");
    auto h = xp::sym::Activation(xp::sym::FullyConnected(x, 4), "tanh");
    auto y = xp::sym::SoftmaxOutput(xp::sym::FullyConnected(h, 2), "");
    CHECK(y.list_arguments() == Names{"x", "fullyconnected0_weight", "fullyconnected0_bias", "fullyconnected1_weight",
                                      "fullyconnected1_bias", "softmaxoutput0_label"});
    CHECK(y.list_outputs() == Names{"softmaxoutput0_output"});
    CHECK((x + x).list_outputs() == Names{"_plus0_output"});
    CHECK((2.0 - x).list_outputs() == Names{"_rminusscalar0_output"});
  }).join();
}

TEST_CASE("symbol: infer_shape from the data and label shapes, and its errors") {
  const auto net = mlp();
  const auto shapes = net.infer_shape({{"data", {12, 5}}, {"softmax_label", {12}}});
  CHECK(shapes.arguments == std::vector<xp::Shape>{{12, 5}, {8, 5}, {8}, {3, 8}, {3}, {12}});
  CHECK(shapes.outputs == std::vector<xp::Shape>{{12, 3}});
  // The label's shape is inferred from the data.
  CHECK(net.infer_shape({{"data", {4, 2, 3}}}).arguments[5] == xp::Shape{4});
  CHECK(net.infer_shape({{"data", {4, 2, 3}}}).arguments[1] == xp::Shape{8, 6});

  CHECK_THROWS_WITH_AS(net.infer_shape({{"data", {12, 5}}, {"fc2_weight", {3, 4}}}),
                       "infer_shape: argument 'fc2_weight' has shape (3, 4) but fc2 (FullyConnected) needs (3, 8)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(net.infer_shape({{"data", {12, 5}}, {"softmax_label", {11}}}),
                       "infer_shape: argument 'softmax_label' has shape (11,) but softmax (SoftmaxOutput) needs (12,)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(net.infer_shape({}),
                       "infer_shape: cannot infer the shape of argument 'data', which fc1 (FullyConnected) needs; "
                       "give its shape",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(net.infer_shape({{"date", {12, 5}}}),
                       "infer_shape: 'date' is neither an argument nor an auxiliary state of the symbol; its "
                       "arguments are ['data', 'fc1_weight', 'fc1_bias', 'fc2_weight', 'fc2_bias', 'softmax_label']",
                       xp::ValueError);
  auto a = xp::sym::var("a"), b = xp::sym::var("b");
  CHECK_THROWS_WITH_AS((a + b).infer_shape({{"a", {2, 3}}, {"b", {3, 2}}}),
                       doctest::Contains("argument 'b' has shape (3, 2) but _plus"), xp::ValueError);
  // A variable's declared shape counts as given.
  CHECK(xp::sym::FullyConnected(xp::sym::var("v", xp::Shape{7, 2}), 3, "f").infer_shape({}).arguments[1] ==
        xp::Shape{3, 2});
}

XP_TEST_ON_DEVICES("executor: forward and backward equal the same network under autograd") {
  const auto net = mlp();
  auto exe = net.simple_bind(device, {{"data", {6, 5}}, {"softmax_label", {6}}});
  CHECK(exe.device() == device);
  CHECK(exe.grad_dict().size() == 6);  // grad_req write for every argument, as MXNet's simple_bind
  const auto set = [&](const std::string& name, double phase) {
    const auto& a = exe.arg_dict().at(name);
    const std::vector<double> v = values(a.size(), phase);
    xp::array<float>(std::vector<float>(v.begin(), v.end()), a.shape(), device).copyto(a.as<float>());
  };
  set("data", 0.1);
  set("fc1_weight", 0.2);
  set("fc1_bias", 0.3);
  set("fc2_weight", 0.4);
  set("fc2_bias", 0.5);
  xp::array<float>({0, 2, 1, 1, 0, 2}, device).copyto(exe.arg_dict().at("softmax_label").as<float>());
  exe.forward(true);
  exe.backward();

  // The same network with autograd: SoftmaxOutput's gradient is that of the summed cross-entropy.
  std::vector<xp::ndarray<>> params;
  for (const char* name : {"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"}) {
    params.push_back(exe.arg_dict().at(name).copyto(device));
    params.back().attach_grad();
  }
  const xp::ndarray<> label = exe.arg_dict().at("softmax_label");
  xp::ndarray<> probabilities;
  {
    xp::autograd::record recording;
    const auto z = xp::fully_connected(xp::relu(xp::fully_connected(exe.arg_dict().at("data"), params[0], params[1])),
                                       params[2], params[3]);
    probabilities = xp::softmax(z);
    (-xp::sum(xp::pick(xp::log_softmax(z), label))).backward();
  }
  REQUIRE(exe.outputs().size() == 1);
  check_close(exe.outputs()[0], probabilities, 1e-5);
  const char* names[] = {"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"};
  for (std::size_t i = 0; i < 4; ++i) check_close(exe.grad_dict().at(names[i]), params[i].grad(), 1e-4);
  // The label gets a zero gradient; the data a real one.
  CHECK(xp::sum(xp::abs(exe.grad_dict().at("softmax_label"))).as<float>().item() == 0.0f);
  CHECK(xp::sum(xp::abs(exe.grad_dict().at("data"))).as<float>().item() > 0.0f);

  // forward(false) records nothing: a backward then has no graph.
  exe.forward(false);
  check_close(exe.outputs()[0], probabilities, 1e-5);
  CHECK_THROWS_WITH_AS(exe.backward(), "Executor.backward: there is no forward(is_train=true) to run backward from",
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("executor: grad_req add sums backwards, null leaves no gradient") {
  auto x = xp::sym::var("x"), y = xp::sym::var("y");
  const auto f = (x * y + 3.0 * x) / 2.0 - y;  // df/dx = (y + 3) / 2, df/dy = x / 2 - 1
  auto exe = f.simple_bind(device, {{"x", {3}}, {"y", {3}}}, {{"x", xp::GradReq::add}},
                           {{"x", xp::dtype::float64}, {"y", xp::dtype::float64}});
  CHECK(exe.grad_dict().size() == 1);
  CHECK(exe.grad_reqs() == std::vector<xp::GradReq>{xp::GradReq::add, xp::GradReq::null});
  xp::array<double>({1, 2, 3}, device).copyto(exe.arg_dict().at("x").as<double>());
  xp::array<double>({4, 5, 6}, device).copyto(exe.arg_dict().at("y").as<double>());
  for (int pass = 0; pass < 2; ++pass) {
    exe.forward(true);
    exe.backward({xp::array<double>({1, 10, 100}, device)});
  }
  CHECK(exe.outputs()[0].as<double>().to_vector() ==
        std::vector<double>{(4 + 3) / 2.0 - 4, (10 + 6) / 2.0 - 5, (18 + 9) / 2.0 - 6});
  CHECK(exe.grad_dict().at("x").as<double>().to_vector() == std::vector<double>{2 * 3.5, 2 * 40.0, 2 * 450.0});
  CHECK_THROWS_WITH_AS(exe.backward(), doctest::Contains("no forward(is_train=true)"), xp::ValueError);
}

XP_TEST_ON_DEVICES("executor: BatchNorm's moving statistics are auxiliary states updated by forward(true)") {
  auto net = xp::sym::BatchNorm(xp::sym::var("x"), "bn", {.eps = 1e-3, .momentum = 0.9, .axis = 1, .fix_gamma = false});
  auto exe = net.simple_bind(device, {{"x", {2, 2}}}, xp::GradReq::null);
  xp::ones<float>({2}, device).copyto(exe.arg_dict().at("bn_gamma").as<float>());
  xp::ones<float>({2}, device).copyto(exe.aux_dict().at("bn_moving_var").as<float>());
  xp::array<float>({{1, 10}, {3, 30}}, device).copyto(exe.arg_dict().at("x").as<float>());
  exe.forward(true);
  // Batch means (2, 20), biased variances (1, 100): running = 0.9 * running + 0.1 * batch.
  check_close(exe.aux_dict().at("bn_moving_mean"), xp::array<float>({0.2f, 2.0f}, device), 1e-6);
  check_close(exe.aux_dict().at("bn_moving_var"), xp::array<float>({0.9f + 0.1f, 0.9f + 10.0f}, device), 1e-6);
  check_close(
      exe.outputs()[0],
      xp::array<float>({{static_cast<float>(-1 / std::sqrt(1.001)), static_cast<float>(-10 / std::sqrt(100.001))},
                        {static_cast<float>(1 / std::sqrt(1.001)), static_cast<float>(10 / std::sqrt(100.001))}},
                       device),
      1e-5);
  // Inference normalises by the moving statistics and leaves them alone.
  exe.forward(false);
  check_close(exe.aux_dict().at("bn_moving_mean"), xp::array<float>({0.2f, 2.0f}, device), 1e-6);
  check_close(exe.outputs()[0].reshape({4}),
              xp::array<float>({static_cast<float>(0.8 / std::sqrt(1.001)), static_cast<float>(8 / std::sqrt(10.901)),
                                static_cast<float>(2.8 / std::sqrt(1.001)), static_cast<float>(28 / std::sqrt(10.901))},
                               device),
              1e-5);
}

XP_TEST_ON_DEVICES("SoftmaxOutput and LinearRegressionOutput: hand-computed gradients, whatever the head gradient") {
  auto x = xp::array<double>({{1, 2, 3}, {0, 0, std::log(2.0)}}, device);
  const auto label = xp::array<double>({2, 0}, device);
  x.attach_grad();
  xp::ndarray<double> p;
  {
    xp::autograd::record recording;
    p = xp::softmax_output(x, label,
                           {.grad_scale = 2.0, .normalization = xp::SoftmaxOutputOptions::Normalization::batch});
    p.backward(xp::full<double>({2, 3}, 7.0, device));  // ignored, as in MXNet
  }
  const double e = std::exp(1.0), s = 1 + e + e * e;
  const std::vector<double> want_p{1 / s, e / s, e * e / s, 0.25, 0.25, 0.5};
  const std::vector<double> got_p = p.to_vector();
  for (std::size_t i = 0; i < 6; ++i) CHECK(got_p[i] == doctest::Approx(want_p[i]).epsilon(1e-12));
  // (p - one_hot) * 2 / 2 (batch normalisation).
  const std::vector<double> want_g{1 / s, e / s, e * e / s - 1, 0.25 - 1, 0.25, 0.5};
  const std::vector<double> got_g = x.grad().to_vector();
  for (std::size_t i = 0; i < 6; ++i) CHECK(got_g[i] == doctest::Approx(want_g[i]).epsilon(1e-12));

  // use_ignore: the second sample (label 0 = ignore_label) gets nothing; valid: divided by the 1 kept.
  {
    xp::autograd::record recording;
    xp::softmax_output(x, label,
                       {.grad_scale = 1.0,
                        .ignore_label = 0,
                        .use_ignore = true,
                        .normalization = xp::SoftmaxOutputOptions::Normalization::valid})
        .backward();
  }
  const std::vector<double> ignored = x.grad().to_vector();
  CHECK(ignored[2] == doctest::Approx(e * e / s - 1).epsilon(1e-12));
  CHECK(ignored[3] == 0.0);
  CHECK(ignored[5] == 0.0);

  // LinearRegressionOutput: (x - label) * grad_scale / outputs per sample (3 here).
  auto y = xp::array<double>({{1, 2, 3}, {4, 5, 6}}, device);
  y.attach_grad();
  {
    xp::autograd::record recording;
    const auto out = xp::linear_regression_output(y, xp::array<double>({{0, 0, 0}, {1, 1, 1}}, device), 3.0);
    CHECK(out.to_vector() == y.to_vector());
    out.backward();
  }
  CHECK(y.grad().to_vector() == std::vector<double>{1, 2, 3, 3, 4, 5});
  CHECK_THROWS_WITH_AS(xp::softmax_output(x, xp::array<double>({1, 2, 3}, device)),
                       "SoftmaxOutput: a label of shape (3,) does not fit data of shape (2, 3) (2 labels expected)",
                       xp::ValueError);
}

TEST_CASE("executor: LinearRegressionOutput takes one label per sample for outputs of shape (batch, 1)") {
  auto net = xp::sym::LinearRegressionOutput(xp::sym::FullyConnected(xp::sym::var("data"), 1, "fc"),
                                             xp::sym::var("lin_label"), "lin");
  const auto shapes = net.infer_shape({{"data", {4, 3}}, {"lin_label", {4}}});
  CHECK(shapes.arguments.back() == xp::Shape{4});
  CHECK(net.infer_shape({{"data", {4, 3}}}).arguments.back() == xp::Shape{4, 1});
  auto exe = net.simple_bind(xp::cpu(0), {{"data", {4, 3}}, {"lin_label", {4}}}, {{"fc_bias", xp::GradReq::write}});
  xp::array<float>({1, 2, 3, 4}, xp::cpu(0)).copyto(exe.arg_dict().at("lin_label").as<float>());
  exe.forward(true);
  exe.backward();
  // Weights zero: the output is 0, the bias gradient is sum(0 - label) = -10.
  CHECK(exe.grad_dict().at("fc_bias").as<float>().to_vector() == std::vector<float>{-10.0f});
}

TEST_CASE("executor: bind checks every array, copy_params_from names what it does not know") {
  const auto net = mlp(2, 2);
  const xp::Device cpu = xp::cpu(0);
  xp::ArrayDict args{{"data", xp::zeros<float>({3, 4}, cpu)},  {"fc1_weight", xp::zeros<float>({2, 4}, cpu)},
                     {"fc1_bias", xp::zeros<float>({2}, cpu)}, {"fc2_weight", xp::zeros<float>({2, 2}, cpu)},
                     {"fc2_bias", xp::zeros<float>({2}, cpu)}, {"softmax_label", xp::zeros<float>({3}, cpu)}};
  xp::ArrayDict grads{{"fc1_weight", xp::zeros<float>({2, 4}, cpu)}};
  auto exe = net.bind(cpu, args, grads, {{"fc1_weight", xp::GradReq::write}});
  // The executor uses the given arrays in place.
  CHECK(exe.arg_dict().at("data").shares_buffer_with(args.at("data")));
  CHECK(exe.grad_dict().at("fc1_weight").shares_buffer_with(grads.at("fc1_weight")));

  auto extra = args;
  extra["fc3_bias"] = xp::zeros<float>({2}, cpu);
  CHECK_THROWS_WITH_AS(net.bind(cpu, extra, {}, {}),
                       "bind: 'fc3_bias' is not an argument of the symbol, whose arguments are ['data', 'fc1_weight', "
                       "'fc1_bias', 'fc2_weight', 'fc2_bias', 'softmax_label']",
                       xp::ValueError);
  auto missing = args;
  missing.erase("fc2_bias");
  CHECK_THROWS_WITH_AS(net.bind(cpu, missing, {}, {}), "bind: no array for argument 'fc2_bias'", xp::ValueError);
  auto elsewhere = args;
  elsewhere["fc2_bias"] = xp::zeros<float>({2}, xp::cpu(1));
  CHECK_THROWS_WITH_AS(net.bind(cpu, elsewhere, {}, {}),
                       "bind: argument 'fc2_bias' is on cpu(1) but the executor's device is cpu(0)",
                       xp::DeviceMismatchError);
  auto wrong = args;
  wrong["fc1_weight"] = xp::zeros<float>({2, 5}, cpu);
  CHECK_THROWS_WITH_AS(net.bind(cpu, wrong, {}, {}),
                       "infer_shape: argument 'fc1_weight' has shape (2, 5) but fc1 (FullyConnected) needs (2, 4)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(net.bind(cpu, args, {}, {{"fc1_bias", xp::GradReq::write}}),
                       "bind: argument 'fc1_bias' asks for a gradient but args_grad has no array for it",
                       xp::ValueError);

  auto twice = xp::sym::FullyConnected(xp::sym::var("x"), 2, "f") + xp::sym::FullyConnected(xp::sym::var("x"), 2, "g");
  CHECK_THROWS_WITH_AS(twice.simple_bind(cpu, {{"x", {1, 2}}}),
                       "Find duplicated argument name \"x\", please make the weight name non-duplicated(using name "
                       "arguments), arguments are ['x', 'f_weight', 'f_bias', 'x', 'g_weight', 'g_bias']",
                       xp::ValueError);
  // Two BatchNorms of one name: their gamma collides before their moving averages could.
  auto norms = xp::sym::BatchNorm(xp::sym::var("u"), "bn") + xp::sym::BatchNorm(xp::sym::var("v"), "bn");
  CHECK_THROWS_WITH_AS(norms.simple_bind(cpu, {{"u", {2, 3}}, {"v", {2, 3}}}),
                       doctest::Contains("Find duplicated argument name \"bn_gamma\""), xp::ValueError);

  exe.copy_params_from({{"fc1_bias", xp::array<double>({1.5, -2}, cpu)}});  // converted to float32
  CHECK(exe.arg_dict().at("fc1_bias").as<float>().to_vector() == std::vector<float>{1.5f, -2.0f});
  CHECK_THROWS_WITH_AS(exe.copy_params_from({{"fc3_bias", xp::zeros<float>({2}, cpu)}}),
                       "Find name \"fc3_bias\" that is not in the arguments", xp::ValueError);
  exe.copy_params_from({{"fc3_bias", xp::zeros<float>({2}, cpu)}}, {}, /*allow_extra_params=*/true);
  CHECK_THROWS_WITH_AS(exe.copy_params_from({}, {{"bn_moving_mean", xp::zeros<float>({2}, cpu)}}),
                       "Find name bn_moving_mean that is not in the auxiliary states", xp::ValueError);
}
