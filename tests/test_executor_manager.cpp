// DataParallelExecutorManager and DataParallelExecutorGroup: MXNet 1.x's slices, layouts and texts;
// model.py's training loop over 1, 2 and 3 cpu devices (any work load) ending with the weights of one
// device; copy_to's average; per-device metric updates; the monitor; bucketing with shared parameters.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "xp/gluon.hpp"

namespace {

using Names = std::vector<std::string>;

xp::sym::Symbol mlp() {
  return xp::sym::SoftmaxOutput(
      xp::sym::FullyConnected(xp::sym::Activation(xp::sym::FullyConnected(xp::sym::var("data"), 8, "fc1"), "tanh"), 3,
                              "fc2"),
      xp::sym::var("softmax_label"), "softmax");
}

const Names kParams{"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"};

// 48 samples of 5 features in 3 classes, and initial parameters, all deterministic.
struct Problem {
  xp::ndarray<float> data, label;
  xp::ArrayDict initial;
  Problem() {
    std::vector<float> d, l;
    for (int i = 0; i < 48; ++i) {
      for (int j = 0; j < 5; ++j) d.push_back(static_cast<float>(std::sin(0.37 * i + 1.1 * j)));
      l.push_back(static_cast<float>(i % 3));
    }
    data = xp::array<float>(d, {48, 5}, xp::cpu(0));
    label = xp::array<float>(l, {48}, xp::cpu(0));
    const auto values = [](int n, double phase) {
      std::vector<float> v(static_cast<std::size_t>(n));
      for (int i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = static_cast<float>(0.3 * std::cos(0.9 * i + phase));
      return v;
    };
    initial = {{"fc1_weight", xp::array<float>(values(40, 0.1), {8, 5}, xp::cpu(0))},
               {"fc1_bias", xp::array<float>(values(8, 0.2), {8}, xp::cpu(0))},
               {"fc2_weight", xp::array<float>(values(24, 0.3), {3, 8}, xp::cpu(0))},
               {"fc2_bias", xp::array<float>(values(3, 0.4), {3}, xp::cpu(0))}};
  }
};

// One epoch of MXNet's model.py loop (update not on the kvstore): pushpull every gradient, then each
// device updates its own copy with rescale 1 / global batch. Returns the averaged parameters.
xp::ArrayDict train_one_epoch(const Problem& problem, const std::vector<xp::Device>& devices,
                              const std::vector<double>& work_load, double* accuracy = nullptr) {
  const auto net = mlp();
  xp::io::NDArrayIter it(problem.data, problem.label, 12);
  xp::DataParallelExecutorManager mgr(net, devices, it, net.list_arguments(), kParams, {}, work_load);
  mgr.set_params(problem.initial, {});
  auto kv = xp::kvstore::create("device");
  xp::optimizer::SGD sgd({{"learning_rate", 0.5}, {"momentum", 0.9}, {"rescale_grad", 1.0 / 12}});
  std::vector<std::vector<std::vector<xp::ndarray<>>>> states(kParams.size());
  for (std::size_t p = 0; p < kParams.size(); ++p) {
    kv.init(static_cast<int>(p), mgr.param_arrays()[p][0]);
    for (const auto& w : mgr.param_arrays()[p]) states[p].push_back(sgd.create_state(w));
  }
  xp::metric::Accuracy metric;
  std::int64_t step = 0;
  while (auto batch = it.next()) {
    ++step;
    mgr.load_data_batch(*batch);
    mgr.forward(true);
    mgr.backward();
    for (std::size_t p = 0; p < kParams.size(); ++p) {
      kv.pushpull(static_cast<int>(p), mgr.grad_arrays()[p]);
      for (std::size_t d = 0; d < devices.size(); ++d)
        sgd.update(mgr.param_arrays()[p][d], mgr.grad_arrays()[p][d], states[p][d], step);
    }
    mgr.update_metric(metric, batch->label);
  }
  if (accuracy) *accuracy = metric.get().second;
  xp::ArrayDict arg_params, aux_params;
  mgr.copy_to(arg_params, aux_params);
  return arg_params;
}

// A data source that only describes its batches (for bucketing: data (batch, key, 5)).
class BucketIter : public xp::io::DataIter {
 public:
  std::vector<xp::io::DataDesc> provide_data() const override { return {{"data", {4, 3, 5}}}; }
  std::vector<xp::io::DataDesc> provide_label() const override { return {{"lin_label", {4, 3, 1}}}; }
  std::int64_t batch_size() const override { return 4; }
  void reset() override {}
  std::optional<xp::io::DataBatch> next() override { return std::nullopt; }
  std::optional<std::int64_t> default_bucket_key() const override { return 3; }
};

xp::sym::Symbol bucket_net(std::int64_t) {
  return xp::sym::LinearRegressionOutput(
      xp::sym::FullyConnected(xp::sym::var("data"), 1, "fc", /*no_bias=*/false, /*flatten=*/false),
      xp::sym::var("lin_label"), "lin");
}

}  // namespace

TEST_CASE("executor manager: training on 1, 2 and 3 cpu devices, any work load, gives one device's weights") {
  const Problem problem;
  double reference_accuracy = 0;
  const xp::ArrayDict reference = train_one_epoch(problem, {xp::cpu(0)}, {1}, &reference_accuracy);
  // The run trained: the weights moved.
  CHECK(xp::max(xp::abs(reference.at("fc2_weight") - problem.initial.at("fc2_weight"))).as<float>().item() > 0.05f);
  const std::vector<std::pair<std::vector<xp::Device>, std::vector<double>>> runs{
      {{xp::cpu(0), xp::cpu(1)}, {1, 1}},
      {{xp::cpu(0), xp::cpu(1)}, {1, 2}},
      {{xp::cpu(0), xp::cpu(1), xp::cpu(2)}, {1, 1, 1}},
      {{xp::cpu(1)}, {}}};
  for (const auto& run : runs) {
    const auto& [devices, work_load] = run;
    CAPTURE(run.first.size());  // not the bindings: Clang 14 does not capture them in CAPTURE's lambda
    CAPTURE(run.second.size());
    double accuracy = 0;
    const xp::ArrayDict got = train_one_epoch(problem, devices, work_load, &accuracy);
    CHECK(accuracy == doctest::Approx(reference_accuracy));
    for (const std::string& name : kParams) {
      const std::vector<float> a = got.at(name).as<float>().to_vector(), b = reference.at(name).as<float>().to_vector();
      REQUIRE(a.size() == b.size());
      for (std::size_t i = 0; i < a.size(); ++i) CHECK(a[i] == doctest::Approx(b[i]).epsilon(1e-5));
    }
  }
}

TEST_CASE("executor manager: slices, [param][device] layouts in argument order, data sliced to each device") {
  const Problem problem;
  const auto net = mlp();
  xp::io::NDArrayIter it(problem.data, problem.label, 7);
  // Parameters given out of order come back in the symbol's argument order.
  xp::DataParallelExecutorManager mgr(net, {xp::cpu(0), xp::cpu(1)}, it, net.list_arguments(),
                                      {"fc2_bias", "fc1_weight", "fc2_weight", "fc1_bias"}, {});
  CHECK(mgr.param_names() == kParams);
  REQUIRE(mgr.slices().size() == 2);
  CHECK(mgr.slices()[0].size() == 4);  // round(3.5) = 4, the last truncated to 3
  CHECK(mgr.slices()[1].size() == 3);
  REQUIRE(mgr.param_arrays().size() == 4);
  CHECK(mgr.param_arrays()[0].size() == 2);
  CHECK(mgr.param_arrays()[0][1].device() == xp::cpu(1));
  CHECK(mgr.grad_arrays()[2][0].shape() == xp::Shape{3, 8});
  CHECK(mgr.aux_arrays().empty());

  auto batch = it.next();
  REQUIRE(batch.has_value());
  mgr.load_data_batch(*batch);
  mgr.set_params(problem.initial, {});
  mgr.forward(false);
  // Each device got its rows: the outputs of both devices together are the whole batch's.
  auto single = net.simple_bind(xp::cpu(0), {{"data", {7, 5}}, {"softmax_label", {7}}}, xp::GradReq::null);
  single.copy_params_from(problem.initial);
  batch->data[0].copyto(single.arg_dict().at("data"));
  single.forward(false);
  xp::metric::Accuracy per_device, whole;
  mgr.update_metric(per_device, batch->label);
  whole.update({batch->label[0]}, single.outputs());
  CHECK(per_device.get().second == whole.get().second);
  // pre_sliced: the labels of each device given already split.
  xp::metric::Accuracy pre;
  mgr.update_metric(pre, xp::ArraysByDevice{{batch->label[0](xp::slice(0, 4))}, {batch->label[0](xp::slice(4, 7))}});
  CHECK(pre.get().second == whole.get().second);
  CHECK_THROWS_WITH_AS(mgr.update_metric(pre, xp::ArraysByDevice{{batch->label[0]}}),
                       "update_metric: pre-sliced labels for 1 devices, the group has 2", xp::ValueError);

  CHECK_THROWS_WITH_AS(mgr.set_params({{"fc3_weight", xp::zeros<float>({1}, xp::cpu(0))}}, {}),
                       "Find name \"fc3_weight\" that is not in the arguments", xp::ValueError);
  xp::io::DataBatch short_batch{{problem.data(xp::slice(0, 6))}, {problem.label(xp::slice(0, 6))}, 0, {}, {}, {}};
  CHECK_THROWS_WITH_AS(mgr.load_data_batch(short_batch), "Batch size miss match. Expected 7, got 6", xp::ValueError);
  xp::io::DataBatch no_label{{batch->data[0]}, {}, 0, {}, {}, {}};
  CHECK_THROWS_WITH_AS(mgr.load_data_batch(no_label),
                       "load_data_batch: the batch has 1 data and 0 label arrays, the executors take 1 and 1",
                       xp::ValueError);
}

TEST_CASE("executor manager: MXNet's errors for work loads, slices and arguments") {
  const Problem problem;
  const auto net = mlp();
  const std::vector<xp::Device> two{xp::cpu(0), xp::cpu(1)}, four{xp::cpu(0), xp::cpu(1), xp::cpu(2), xp::cpu(3)};
  xp::io::NDArrayIter it3(problem.data, problem.label, 3), it6(problem.data, problem.label, 6);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, two, it6, net.list_arguments(), kParams, {}, {1, 1, 1}),
                       "Invalid settings for work load: work_load_list has 3 entries for 2 devices", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, four, it3, net.list_arguments(), kParams, {}),
                       "Too many slices. Some splits are empty.", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, four, it6, net.list_arguments(), kParams, {}),
                       "Too many slices. Some splits are empty.", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, two, it6, net.list_arguments(), kParams, {}, {0, 1}),
                       "split_input_slice: work load 0 is 0; every work load must be positive", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, two, it6, kParams, kParams, {}),
                       "DataParallelExecutorGroup: arg_names must be the symbol's list_arguments()", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::DataParallelExecutorManager(net, two, it6, net.list_arguments(), {"fc9_weight"}, {}),
                       "DataParallelExecutorGroup: parameter 'fc9_weight' is not an argument of the symbol",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(
      xp::DataParallelExecutorManager(net, two, it6, net.list_arguments(), kParams, {"bn_moving_mean"}),
      "DataParallelExecutorManager: aux_names must be the symbol's list_auxiliary_states()", xp::ValueError);
  auto twice =
      xp::sym::FullyConnected(xp::sym::var("data"), 2, "f") + xp::sym::FullyConnected(xp::sym::var("data"), 2, "f");
  xp::io::NDArrayIter unlabelled({{"data", problem.data}}, {}, 6);
  CHECK_THROWS_WITH_AS(
      xp::DataParallelExecutorManager(twice, two, unlabelled, twice.list_arguments(), {"f_weight"}, {}),
      doctest::Contains("Find duplicated argument name \"data\""), xp::ValueError);
}

TEST_CASE("executor manager: copy_to averages parameters and auxiliary states over devices, in the targets' dtype") {
  const Problem problem;
  auto net = xp::sym::SoftmaxOutput(xp::sym::BatchNorm(xp::sym::FullyConnected(xp::sym::var("data"), 3, "fc"), "bn"),
                                    xp::sym::var("softmax_label"), "softmax");
  xp::io::NDArrayIter it(problem.data, problem.label, 6);
  xp::DataParallelExecutorManager mgr(net, {xp::cpu(0), xp::cpu(1)}, it, net.list_arguments(),
                                      {"fc_weight", "fc_bias", "bn_gamma", "bn_beta"}, net.list_auxiliary_states());
  CHECK(mgr.aux_arrays().size() == 2);
  xp::full<float>({3}, 1.0f, xp::cpu(0)).copyto(mgr.param_arrays()[1][0].as<float>());
  xp::full<float>({3}, 4.0f, xp::cpu(1)).copyto(mgr.param_arrays()[1][1].as<float>());
  xp::full<float>({3}, 2.0f, xp::cpu(0)).copyto(mgr.aux_arrays()[0][0].as<float>());
  xp::full<float>({3}, 3.0f, xp::cpu(1)).copyto(mgr.aux_arrays()[0][1].as<float>());
  xp::ArrayDict args{{"fc_bias", xp::zeros<double>({3}, xp::cpu(0))}}, aux;
  const xp::ndarray<> target = args.at("fc_bias");
  mgr.copy_to(args, aux);
  CHECK(args.at("fc_bias").shares_buffer_with(target));  // in place, converted to float64
  CHECK(args.at("fc_bias").as<double>().to_vector() == std::vector<double>{2.5, 2.5, 2.5});
  CHECK(aux.at("bn_moving_mean").as<float>().to_vector() == std::vector<float>{2.5f, 2.5f, 2.5f});
  CHECK(args.size() == 4);

  // set_params copies the same values to every device.
  mgr.set_params({{"fc_bias", xp::array<double>({1, 2, 3}, xp::cpu(0))}},
                 {{"bn_moving_var", xp::ones<float>({3}, xp::cpu(0))}});
  for (const auto& copy : mgr.param_arrays()[1]) CHECK(copy.as<float>().to_vector() == std::vector<float>{1, 2, 3});
  for (const auto& copy : mgr.aux_arrays()[1]) CHECK(copy.as<float>().to_vector() == std::vector<float>{1, 1, 1});
}

TEST_CASE("executor manager: a monitor sees each device's outputs and the matching arguments") {
  const Problem problem;
  const auto net = mlp();
  xp::io::NDArrayIter it(problem.data, problem.label, 12);
  xp::DataParallelExecutorManager mgr(net, {xp::cpu(0), xp::cpu(1)}, it, net.list_arguments(), kParams, {});
  mgr.set_params(problem.initial, {});
  xp::Monitor monitor(2, {}, "fc1_", /*sort=*/true);
  mgr.install_monitor(monitor);
  const auto batch = it.next();
  std::vector<std::vector<xp::Monitor::Entry>> tocs;
  for (int i = 0; i < 3; ++i) {
    monitor.tic();
    mgr.load_data_batch(*batch);
    mgr.forward(false);
    tocs.push_back(monitor.toc());
  }
  CHECK(tocs[1].empty());  // batch 1 is not a multiple of the interval
  REQUIRE(tocs[0].size() == 6);  // fc1_bias, fc1_output and fc1_weight, of two devices each, by name
  CHECK(std::get<0>(tocs[0][0]) == 1);
  CHECK(std::get<1>(tocs[0][0]) == "fc1_bias");
  CHECK(std::get<1>(tocs[0][2]) == "fc1_output");
  CHECK(std::get<1>(tocs[0][5]) == "fc1_weight");
  CHECK(std::get<0>(tocs[2][0]) == 3);
  // The default statistic: norm(x) / sqrt(size).
  const std::vector<float> w = problem.initial.at("fc1_weight").as<float>().to_vector();
  double squares = 0;
  for (float v : w) squares += double(v) * v;
  CHECK(std::stod(std::get<2>(tocs[0][5])) == doctest::Approx(std::sqrt(squares / 40)).epsilon(1e-5));
  CHECK(std::get<2>(tocs[0][5]).back() == '\t');
}

TEST_CASE("executor manager: buckets share the default bucket's parameters and gradients") {
  BucketIter it;
  const auto net = bucket_net(3);
  xp::DataParallelExecutorManager mgr(net, {xp::cpu(0), xp::cpu(1)}, it, net.list_arguments(), {"fc_weight", "fc_bias"},
                                      {}, {}, bucket_net);
  CHECK_THROWS_WITH_AS(
      [&] {
        xp::Monitor monitor(1);
        mgr.install_monitor(monitor);
      }(),
      "Monitoring is not implemented for bucketing", xp::NotImplementedError);
  xp::ones<float>({1, 5}, xp::cpu(0)).copyto(mgr.param_arrays()[0][0].as<float>());
  xp::ones<float>({1, 5}, xp::cpu(1)).copyto(mgr.param_arrays()[0][1].as<float>());
  // A batch of bucket 2: data (4, 2, 5), all ones; labels zero. Output = 5 per position (weights one, bias zero).
  xp::io::DataBatch batch{{xp::ones<float>({4, 2, 5}, xp::cpu(0))},
                          {xp::zeros<float>({4, 2, 1}, xp::cpu(0))},
                          0,
                          2,
                          {{"data", {4, 2, 5}}},
                          {{"lin_label", {4, 2, 1}}}};
  mgr.load_data_batch(batch);
  mgr.forward(true);
  mgr.backward();
  // Each device has 2 samples of 2 positions, each with gradient (5 - 0) / 2 (LinearRegressionOutput divides
  // by the outputs per sample): 10 per weight and for the bias, in the default bucket's gradient arrays.
  CHECK(mgr.grad_arrays()[0][0].as<float>().to_vector() == std::vector<float>(5, 10.0f));
  CHECK(mgr.grad_arrays()[1][1].as<float>().to_vector() == std::vector<float>{10.0f});
  // A bucket larger than the default one: MXNet's warning, new data arrays, the same parameters.
  std::vector<std::string> warnings;
  xp::utils::set_warning_handler([&](std::string_view message) { warnings.emplace_back(message); });
  xp::io::DataBatch longer{{xp::full<float>({4, 5, 5}, 2.0f, xp::cpu(0))},
                           {xp::zeros<float>({4, 5, 1}, xp::cpu(0))},
                           0,
                           5,
                           {{"data", {4, 5, 5}}},
                           {{"lin_label", {4, 5, 1}}}};
  mgr.load_data_batch(longer);
  xp::utils::set_warning_handler(nullptr);
  REQUIRE(warnings.size() == 4);  // data and label, on each device
  CHECK(warnings[0] ==
        "bucketing: data \"data\" has a shape (2, 5, 5), which is larger than already allocated shape "
        "(2, 3, 5). Need to re-allocate. Consider putting default_bucket_key to be the bucket taking the "
        "largest input for better memory sharing.");
  mgr.forward(true);
  mgr.backward();
  // Data all twos: output 10 per position; 2 samples of 5 positions, each (10 - 0) / 5 = 2 times the
  // input 2: 40 per weight and 20 for the bias, in the same shared gradient arrays.
  CHECK(mgr.grad_arrays()[0][1].as<float>().to_vector() == std::vector<float>(5, 40.0f));
  CHECK(mgr.grad_arrays()[1][0].as<float>().to_vector() == std::vector<float>{20.0f});
  xp::io::DataBatch unkeyed{
      {xp::ones<float>({4, 2, 5}, xp::cpu(0))}, {xp::zeros<float>({4, 2, 1}, xp::cpu(0))}, 0, {}, {}, {}};
  CHECK_THROWS_WITH_AS(mgr.load_data_batch(unkeyed), "load_data_batch: with sym_gen every batch needs a bucket_key",
                       xp::ValueError);
}
