// Trains the digits MLP of train_gluon the way MXNet 1.x's model.py does: the network as a symbol,
// a DataParallelExecutorManager binding it on several devices, each batch split by a work load list,
// every gradient summed over the devices by a kvstore, and each device updating its own copy of the
// weights with the summed gradient rescaled by 1 / (global batch). Prints the slices, then per epoch
// the training accuracy (one metric update per device) and the test accuracy of the averaged weights
// (copy_to). Exits 1 unless the test accuracy ends above 95%.
//
//   train_data_parallel [.data/digits.params] [epochs] [work loads, e.g. 1,2]
// Devices: two GPUs when present, else cpu(0) and cpu(1) (sharing the cores).
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include <xp/gluon.hpp>

#include "digits.hpp"

namespace {

constexpr std::int64_t kBatch = 64, kPixels = 64;

xp::sym::Symbol mlp() {
  auto data = xp::sym::var("data");
  auto hidden = xp::sym::Activation(xp::sym::FullyConnected(data, 128, "fc1"), "relu", "relu1");
  return xp::sym::SoftmaxOutput(xp::sym::FullyConnected(hidden, 10, "fc2"), xp::sym::var("softmax_label"), "softmax");
}

double test_accuracy(const xp::sym::Symbol& net, const xp::ArrayDict& arg_params, const Digits& digits) {
  auto exe = net.simple_bind(xp::cpu(0), {{"data", digits.test_images.shape()}}, xp::GradReq::null);
  exe.copy_params_from(arg_params);
  digits.test_images.copyto(exe.arg_dict().at("data").as<float>());
  exe.forward(false);
  xp::metric::Accuracy accuracy;
  accuracy.update({digits.test_labels}, exe.outputs());
  return accuracy.get().second;
}

std::vector<double> parse_work_loads(const std::string& text) {
  std::vector<double> loads;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) loads.push_back(std::stod(item));
  return loads;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : ".data/digits.params";
  const int epochs = argc > 2 ? std::stoi(argv[2]) : 15;
  const std::vector<double> work_load = parse_work_loads(argc > 3 ? argv[3] : "1,1");
  const Digits digits = read_digits(path);
  const auto n = static_cast<std::int64_t>(digits.train_labels.size());
  const std::vector<xp::Device> devices = xp::num_gpus() > 1 ? std::vector<xp::Device>{xp::gpu(0), xp::gpu(1)}
                                                             : std::vector<xp::Device>{xp::cpu(0), xp::cpu(1)};

  xp::random::seed(0);
  xp::io::NDArrayIter train_iter(xp::array(digits.train_images, {n, kPixels}, xp::cpu(0)),
                                 xp::array(digits.train_labels, xp::cpu(0)), kBatch, /*shuffle=*/true, "pad");
  const xp::sym::Symbol net = mlp();
  const std::vector<std::string> arg_names = net.list_arguments();
  const std::vector<std::string> param_names{"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"};
  xp::DataParallelExecutorManager manager(net, devices, train_iter, arg_names, param_names,
                                          net.list_auxiliary_states(), work_load);

  // Xavier weights and zero biases, made once on cpu(0); set_params copies them to every device.
  const auto shapes = net.infer_shape({{"data", {kBatch, kPixels}}});
  xp::ArrayDict arg_params, aux_params;
  for (std::size_t i = 0; i < arg_names.size(); ++i) {
    const std::string& name = arg_names[i];
    if (name.ends_with("_weight")) arg_params[name] = xp::initializer::Xavier()(shapes.arguments[i], xp::dtype::float32);
    if (name.ends_with("_bias")) arg_params[name] = xp::zeros(shapes.arguments[i], xp::dtype::float32, xp::cpu(0));
  }
  manager.set_params(arg_params, aux_params);

  // model.py's _update_params: the kvstore sums each gradient into every device's gradient, then each
  // device's optimizer updates its copy (its own momentum state).
  auto kv = xp::kvstore::create("device");
  xp::optimizer::SGD sgd({{"learning_rate", 0.05}, {"momentum", 0.9}, {"rescale_grad", 1.0 / kBatch}});
  std::vector<std::vector<std::vector<xp::ndarray<>>>> states(param_names.size());
  for (std::size_t p = 0; p < param_names.size(); ++p) {
    kv.init(static_cast<int>(p), manager.param_arrays()[p][0]);
    for (const xp::ndarray<>& weight : manager.param_arrays()[p]) states[p].push_back(sgd.create_state(weight));
  }

  std::printf("digits: %lld training and %lld test images; MLP 64-128-10 as a symbol; SGD (0.05, momentum 0.9)\n",
              static_cast<long long>(n), static_cast<long long>(digits.test_labels.size()));
  std::printf("devices %s, batch %lld split as", device_names(devices).c_str(), static_cast<long long>(kBatch));
  for (const xp::BatchSlice& s : manager.slices()) std::printf(" %lld", static_cast<long long>(s.size()));
  std::printf("\n");

  const std::size_t batches = static_cast<std::size_t>((n + kBatch - 1) / kBatch);
  std::int64_t step = 0;
  double accuracy = 0;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    train_iter.reset();
    xp::metric::Accuracy train_accuracy;
    std::size_t done = 0;
    while (auto batch = train_iter.next()) {
      ++step;
      manager.load_data_batch(*batch);
      manager.forward(/*is_train=*/true);
      manager.backward();
      for (std::size_t p = 0; p < param_names.size(); ++p) {
        kv.pushpull(static_cast<int>(p), manager.grad_arrays()[p]);
        for (std::size_t d = 0; d < devices.size(); ++d)
          sgd.update(manager.param_arrays()[p][d], manager.grad_arrays()[p][d], states[p][d], step);
      }
      manager.update_metric(train_accuracy, batch->label);
      show_progress(++done, batches);
    }
    manager.copy_to(arg_params, aux_params);
    accuracy = test_accuracy(net, arg_params, digits);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  epoch %2d  train acc %.4f  test acc %.4f  (%.2f s)\n", epoch, train_accuracy.get().second, accuracy,
                seconds);
  }
  if (accuracy <= 0.95) {
    std::printf("FAILED: the test accuracy is not above 0.95\n");
    return 1;
  }
  return 0;
}
