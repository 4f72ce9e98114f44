// Trains a multilayer perceptron on scikit-learn's 8x8 digits (converted by scripts/setup.sh into
// .data/digits.params) with Gluon: once on one device, once on two with split_and_load, the Trainer
// summing the gradients of both. Each epoch prints its mean loss and its training and test accuracy; the
// two runs see the same batches from the same initial weights, so they end with the same weights.
// Exits 1 unless both reach a test accuracy above 95%.
//
//   train_gluon [.data/digits.params] [epochs]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include <xp/gluon.hpp>
#include <xp/utils.hpp>

#include "digits.hpp"

namespace {

double test_accuracy(xp::nn::Sequential& net, const Digits& digits, xp::Device device) {
  xp::metric::Accuracy accuracy;
  accuracy.update({digits.test_labels.copyto(device)}, {net(digits.test_images.copyto(device))});
  return accuracy.get().second;
}

// Trains a fresh 64-128-10 network on `devices` and returns it.
std::shared_ptr<xp::nn::Sequential> train(const Digits& digits, const std::vector<xp::Device>& devices, int epochs) {
  constexpr std::int64_t batch_size = 64, pixels = 64;
  xp::random::seed(0);
  auto net = std::make_shared<xp::nn::Sequential>();
  net->add(xp::nn::Dense(128, "relu", true, true, pixels), xp::nn::Dense(10, "", true, true, 128));
  net->initialize(xp::initializer::Xavier(), devices);
  xp::gluon::Trainer trainer(net->collect_params(), "sgd", {{"learning_rate", 0.05}, {"momentum", 0.9}});
  const xp::gluon::loss::SoftmaxCrossEntropyLoss loss;

  const std::size_t n = digits.train_labels.size();
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::mt19937 shuffle(0);
  for (int epoch = 1; epoch <= epochs; ++epoch) {
    const auto start = std::chrono::steady_clock::now();
    std::shuffle(order.begin(), order.end(), shuffle);
    xp::metric::Accuracy train_accuracy;
    double loss_sum = 0;
    std::size_t seen = 0;
    xp::ProgressLine progress(stdout);
    const std::size_t batches = (n + batch_size - 1) / batch_size;
    for (std::size_t b = 0; b < batches; ++b) {
      const std::size_t first = b * batch_size, count = std::min<std::size_t>(batch_size, n - first);
      std::vector<float> images(count * pixels);
      std::vector<std::int32_t> labels(count);
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t row = order[first + i];
        std::copy_n(digits.train_images.begin() + static_cast<std::ptrdiff_t>(row * pixels), pixels,
                    images.begin() + static_cast<std::ptrdiff_t>(i * pixels));
        labels[i] = digits.train_labels[row];
      }
      const auto shape = xp::Shape{static_cast<std::int64_t>(count), pixels};
      const auto xs = xp::utils::split_and_load(xp::array(images, shape, xp::cpu(0)), devices, 0, false);
      const auto ys = xp::utils::split_and_load(xp::array(labels, xp::cpu(0)), devices, 0, false);
      std::vector<xp::ndarray<>> losses, outputs, targets(ys.begin(), ys.end());
      {
        xp::autograd::record recording;
        for (std::size_t d = 0; d < xs.size(); ++d) {
          outputs.push_back((*net)(xs[d]));
          losses.push_back(loss(outputs.back(), ys[d]));
        }
        xp::autograd::backward(losses);
      }
      trainer.step(static_cast<double>(count));
      for (const auto& l : losses) loss_sum += l.sum().item<double>();
      train_accuracy.update(targets, outputs);
      seen += count;
      show_progress(progress, epoch, b + 1, batches, loss_sum / static_cast<double>(seen), train_accuracy.get().second);
    }
    progress.finish();  // erased: the epoch's line follows
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::printf("  epoch %2d  loss %.4f  train acc %.4f  test acc %.4f  (%.2f s)\n", epoch, loss_sum / n,
                train_accuracy.get().second, test_accuracy(*net, digits, devices[0]), seconds);
  }
  return net;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string path = argc > 1 ? argv[1] : ".data/digits.params";
  const int epochs = argc > 2 ? std::stoi(argv[2]) : 15;
  const Digits digits = read_digits(path);
  std::printf("digits: %zu training and %lld test images of 8x8 pixels, 10 classes\n", digits.train_labels.size(),
              static_cast<long long>(digits.test_labels.size()));

  const int gpus = xp::num_gpus();
  const std::vector<xp::Device> one{gpus > 0 ? xp::gpu(0) : xp::cpu(0)};
  const std::vector<xp::Device> two =
      gpus > 1 ? std::vector<xp::Device>{xp::gpu(0), xp::gpu(1)} : std::vector<xp::Device>{xp::cpu(0), xp::cpu(1)};
  std::printf("\nMLP 64-128-10, SGD (learning rate 0.05, momentum 0.9), batch 64, on %s\n", device_names(one).c_str());
  const auto single = train(digits, one, epochs);
  std::printf("\nthe same on %s, each batch split between them\n", device_names(two).c_str());
  const auto split = train(digits, two, epochs);

  double largest = 0;
  const auto single_params = single->collect_params(), split_params = split->collect_params();
  auto other = split_params.begin();
  for (const auto& [name, p] : single_params) {
    const auto a = p.data().as<float>().to_vector();
    for (const xp::Device d : two) {
      const auto b = other->second.data(d).as<float>().to_vector();
      for (std::size_t i = 0; i < a.size(); ++i)
        largest = std::max(largest, static_cast<double>(std::abs(a[i] - b[i])));
    }
    ++other;
  }
  const double accuracy_one = test_accuracy(*single, digits, one[0]),
               accuracy_two = test_accuracy(*split, digits, two[0]);
  std::printf("\ntest accuracy: %.4f on one device, %.4f on two; largest weight difference between the runs %.2e\n",
              accuracy_one, accuracy_two, largest);
  if (accuracy_one <= 0.95 || accuracy_two <= 0.95) {
    std::printf("FAILED: a test accuracy is not above 0.95\n");
    return 1;
  }
  return 0;
}
