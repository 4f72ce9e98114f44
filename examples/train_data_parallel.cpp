// Trains the digits MLP of train_gluon the way MXNet 1.x's model.py does: the network as a symbol,
// a DataParallelExecutorManager binding it on several devices, each batch split by a work load list,
// every gradient summed over the devices by a kvstore, and each device updating its own copy of the
// weights with the summed gradient rescaled by 1 / (global batch). Prints the slices, then per epoch
// the training accuracy (one metric update per device) and the test accuracy of the averaged weights
// (copy_to). Exits 1 unless the test accuracy ends above --min-accuracy.
//
//   train_data_parallel [--data .data/digits.params] [--epochs 15] [--devices 2] [--work-load 1,2]
//                       [--kvstore device|dist_sync] [--save params-file] [--min-accuracy 0.95]
// Devices: that many GPUs when present, else cpu(0), cpu(1), ... (sharing the cores).
// Across processes (model.py with a dist kvstore): mpirun -np 2 train_data_parallel --kvstore dist_sync;
// every process trains on its share of each global batch (rows rank * B / P to (rank + 1) * B / P), the
// kvstore sums over devices and processes, and rank 0 prints and saves.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <xp/gluon.hpp>
#ifdef XP_EXAMPLE_HAS_DIST
#include <xp/dist.hpp>
#endif

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

// --name value pairs, with defaults; an unknown name is an error.
std::map<std::string, std::string> parse_options(int argc, char** argv) {
  std::map<std::string, std::string> options{
      {"data", ".data/digits.params"}, {"epochs", "15"}, {"devices", "2"},        {"work-load", ""},
      {"kvstore", "device"},           {"save", ""},     {"min-accuracy", "0.95"}};
  for (int i = 1; i < argc; i += 2) {
    const std::string name = std::string(argv[i]).substr(2);
    XP_CHECK(std::string(argv[i]).starts_with("--") && options.contains(name) && i + 1 < argc, xp::ValueError,
             "train_data_parallel: unknown option or missing value at '", argv[i], "'");
    options[name] = argv[i + 1];
  }
  return options;
}

// This process's share of every batch of a global iterator: rows [rank * B / P, (rank + 1) * B / P),
// and the part of the global batch's padding that falls in them.
class ProcessShare : public xp::io::DataIter {
 public:
  ProcessShare(xp::io::DataIter& global, int rank, int processes)
      : global_(global),
        begin_(rank * global.batch_size() / processes),
        end_((rank + 1) * global.batch_size() / processes) {}
  std::vector<xp::io::DataDesc> provide_data() const override { return local(global_.provide_data()); }
  std::vector<xp::io::DataDesc> provide_label() const override { return local(global_.provide_label()); }
  std::int64_t batch_size() const override { return end_ - begin_; }
  void reset() override { global_.reset(); }
  std::optional<xp::io::DataBatch> next() override {
    std::optional<xp::io::DataBatch> batch = global_.next();
    if (!batch) return batch;
    for (auto* arrays : {&batch->data, &batch->label})
      for (xp::ndarray<>& a : *arrays) a = a(xp::slice(begin_, end_));
    const std::int64_t real = global_.batch_size() - batch->pad;  // rows before the padding
    batch->pad = std::clamp<std::int64_t>(end_ - std::max(real, begin_), 0, end_ - begin_);
    return batch;
  }

 private:
  std::vector<xp::io::DataDesc> local(std::vector<xp::io::DataDesc> descs) const {
    for (auto& d : descs) d.shape[0] = end_ - begin_;
    return descs;
  }
  xp::io::DataIter& global_;
  std::int64_t begin_, end_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::map<std::string, std::string> options = parse_options(argc, argv);
  const std::string kvstore_type = options.at("kvstore");
  int rank = 0, processes = 1;
  if (kvstore_type == "dist_sync") {
#ifdef XP_EXAMPLE_HAS_DIST
    xp::dist::init(argc, argv);
    rank = xp::dist::rank();
    processes = xp::dist::size();
#else
    std::fprintf(stderr, "train_data_parallel: this build has no xp::dist (MPI was not found)\n");
    return 2;
#endif
  }
  const int epochs = std::stoi(options.at("epochs"));
  const int device_count = std::stoi(options.at("devices"));
  const std::vector<double> work_load = parse_work_loads(options.at("work-load"));
  const Digits digits = read_digits(options.at("data"));
  const auto n = static_cast<std::int64_t>(digits.train_labels.size());
  std::vector<xp::Device> devices;
  for (int d = 0; d < device_count; ++d) devices.push_back(xp::num_gpus() >= device_count ? xp::gpu(d) : xp::cpu(d));

  xp::random::seed(0);
  xp::io::NDArrayIter global_iter(xp::array(digits.train_images, {n, kPixels}, xp::cpu(0)),
                                  xp::array(digits.train_labels, xp::cpu(0)), kBatch, /*shuffle=*/true, "pad");
  ProcessShare train_iter(global_iter, rank, processes);
  const xp::sym::Symbol net = mlp();
  const std::vector<std::string> arg_names = net.list_arguments();
  const std::vector<std::string> param_names{"fc1_weight", "fc1_bias", "fc2_weight", "fc2_bias"};
  xp::DataParallelExecutorManager manager(net, devices, train_iter, arg_names, param_names, net.list_auxiliary_states(),
                                          work_load);

  // Xavier weights and zero biases, made once on cpu(0); set_params copies them to every device.
  const auto shapes = net.infer_shape({{"data", {kBatch, kPixels}}});
  xp::ArrayDict arg_params, aux_params;
  for (std::size_t i = 0; i < arg_names.size(); ++i) {
    const std::string& name = arg_names[i];
    if (name.ends_with("_weight"))
      arg_params[name] = xp::initializer::Xavier()(shapes.arguments[i], xp::dtype::float32);
    if (name.ends_with("_bias")) arg_params[name] = xp::zeros(shapes.arguments[i], xp::dtype::float32, xp::cpu(0));
  }
  manager.set_params(arg_params, aux_params);

  // model.py's _update_params: the kvstore sums each gradient into every device's gradient, then each
  // device's optimizer updates its copy (its own momentum state).
  auto kv = xp::kvstore::create(kvstore_type);
  xp::optimizer::SGD sgd({{"learning_rate", 0.05}, {"momentum", 0.9}, {"rescale_grad", 1.0 / kBatch}});
  std::vector<std::vector<std::vector<xp::ndarray<>>>> states(param_names.size());
  for (std::size_t p = 0; p < param_names.size(); ++p) {
    kv.init(static_cast<int>(p), manager.param_arrays()[p][0]);
    for (const xp::ndarray<>& weight : manager.param_arrays()[p]) states[p].push_back(sgd.create_state(weight));
  }

  const bool prints = rank == 0;
  if (prints) {
    std::printf("digits: %lld training and %lld test images; MLP 64-128-10 as a symbol; SGD (0.05, momentum 0.9)\n",
                static_cast<long long>(n), static_cast<long long>(digits.test_labels.size()));
    std::printf("%d process(es) x devices %s, kvstore %s; batch %lld, this process's %lld split as", processes,
                device_names(devices).c_str(), kvstore_type.c_str(), static_cast<long long>(kBatch),
                static_cast<long long>(train_iter.batch_size()));
    for (const xp::BatchSlice& s : manager.slices()) std::printf(" %lld", static_cast<long long>(s.size()));
    std::printf("\n");
  }

  const std::size_t batches = static_cast<std::size_t>((n + kBatch - 1) / kBatch);
  std::int64_t step = 0;
  double accuracy = 0;
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    train_iter.reset();
    xp::metric::Accuracy train_accuracy;
    std::size_t done = 0;
    xp::ProgressLine progress(stdout);
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
      if (prints) show_progress(progress, epoch, ++done, batches, std::nullopt, train_accuracy.get().second);
    }
    progress.finish();  // erased: the epoch's line follows
    manager.copy_to(arg_params, aux_params);
    accuracy = test_accuracy(net, arg_params, digits);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (prints)
      std::printf("  epoch %2d  train acc %.4f%s  test acc %.4f  (%.2f s)\n", epoch, train_accuracy.get().second,
                  processes > 1 ? " (rank 0's share)" : "", accuracy, seconds);
  }
  if (prints && !options.at("save").empty())
    xp::save(options.at("save"), xp::NamedArrays(arg_params.begin(), arg_params.end()));
#ifdef XP_EXAMPLE_HAS_DIST
  if (xp::dist::initialized()) xp::dist::finalize();
#endif
  const double required = std::stod(options.at("min-accuracy"));
  if (accuracy <= required) {
    std::printf("FAILED: the test accuracy %.4f is not above %.4f\n", accuracy, required);
    return 1;
  }
  return 0;
}
