// One training step of a 64-512-512-10 MLP (relu) at batch 256 through MXNet's model.py loop on the
// DataParallelExecutorManager (load_data_batch, forward, backward, kvstore pushpull of every gradient,
// an SGD update per device), on [cpu(0)] and on [cpu(0), cpu(1)] (the same cores, shared between the
// two devices' workers), beside the Gluon Trainer step of bench/train_bench.cpp on cpu(0). The three
// alternate round by round in one process; each round prints every configuration's median seconds per
// step and the ratios (target: two devices within 1.15x of one).
#include <omp.h>
#include <xp/gluon.hpp>

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "timing.hpp"

namespace {

constexpr std::int64_t kBatch = 256;

struct Data {
  xp::ndarray<float> x = xp::random::uniform<float>(-1.f, 1.f, {kBatch, 64}, xp::cpu(0));
  xp::ndarray<> y = xp::ndarray<>(xp::random::uniform<float>(0.f, 10.f, {kBatch}, xp::cpu(0))).astype(xp::dtype::int32);
};

// model.py's step over a manager on `devices`.
class ManagerStep {
 public:
  ManagerStep(const Data& data, const std::vector<xp::Device>& devices)
      : iter_(data.x, data.y, kBatch), batch_(*iter_.next()) {
    auto h = xp::sym::Activation(xp::sym::FullyConnected(xp::sym::var("data"), 512, "fc1"), "relu");
    h = xp::sym::Activation(xp::sym::FullyConnected(h, 512, "fc2"), "relu");
    const auto net =
        xp::sym::SoftmaxOutput(xp::sym::FullyConnected(h, 10, "fc3"), xp::sym::var("softmax_label"), "softmax");
    std::vector<std::string> params;
    for (const auto& name : net.list_arguments())
      if (name != "data" && name != "softmax_label") params.push_back(name);
    manager_ = std::make_unique<xp::DataParallelExecutorManager>(net, devices, iter_, net.list_arguments(), params,
                                                                 net.list_auxiliary_states());
    const auto shapes = net.infer_shape({{"data", {kBatch, 64}}});
    xp::ArrayDict arg_params;
    for (std::size_t i = 0; i < params.size(); ++i) {
      const xp::Shape& shape = shapes.arguments[i + 1];
      arg_params[params[i]] = shape.ndim() == 2 ? xp::initializer::Xavier()(shape, xp::dtype::float32)
                                                : xp::zeros(shape, xp::dtype::float32, xp::cpu(0));
    }
    manager_->set_params(arg_params, {});
    for (std::size_t p = 0; p < params.size(); ++p) {
      kv_.init(static_cast<int>(p), manager_->param_arrays()[p][0]);
      states_.emplace_back();
      for (const auto& w : manager_->param_arrays()[p]) states_.back().push_back(sgd_.create_state(w));
    }
  }
  void operator()() {
    manager_->load_data_batch(batch_);
    manager_->forward(true);
    manager_->backward();
    ++step_;
    for (std::size_t p = 0; p < states_.size(); ++p) {
      kv_.pushpull(static_cast<int>(p), manager_->grad_arrays()[p]);
      for (std::size_t d = 0; d < states_[p].size(); ++d)
        sgd_.update(manager_->param_arrays()[p][d], manager_->grad_arrays()[p][d], states_[p][d], step_);
    }
  }

 private:
  xp::io::NDArrayIter iter_;
  xp::io::DataBatch batch_;
  std::unique_ptr<xp::DataParallelExecutorManager> manager_;
  xp::kvstore::KVStore kv_ = xp::kvstore::create("device");
  xp::optimizer::SGD sgd_{{{"learning_rate", 0.01}, {"momentum", 0.9}, {"rescale_grad", 1.0 / kBatch}}};
  std::vector<std::vector<std::vector<xp::ndarray<>>>> states_;
  std::int64_t step_ = 0;
};

// The Gluon Trainer's step of bench/train_bench.cpp.
class GluonStep {
 public:
  explicit GluonStep(const Data& data) : data_(data) {
    net_.add(xp::nn::Dense(512, "relu", true, true, 64), xp::nn::Dense(512, "relu", true, true, 512),
             xp::nn::Dense(10, "", true, true, 512));
    net_.initialize(xp::initializer::Xavier(), xp::cpu(0));
    trainer_ = std::make_unique<xp::gluon::Trainer>(net_.collect_params(), "sgd",
                                                    xp::optimizer::Options{{"learning_rate", 0.01}, {"momentum", 0.9}});
  }
  void operator()() {
    {
      xp::autograd::record recording;
      loss_(net_(data_.x), data_.y).backward();
    }
    trainer_->step(kBatch);
  }

 private:
  const Data& data_;
  xp::nn::Sequential net_;
  std::unique_ptr<xp::gluon::Trainer> trainer_;
  xp::gluon::loss::SoftmaxCrossEntropyLoss loss_;
};

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 2 && std::string(argv[1]) == "--rounds" ? std::atoi(argv[2]) : 5;
  xp::random::seed(1);
  const Data data;
  GluonStep gluon(data);
  ManagerStep one(data, {xp::cpu(0)}), two(data, {xp::cpu(0), xp::cpu(1)});
  const std::vector<std::pair<const char*, std::function<void()>>> steps{
      {"gluon_trainer_cpu0", std::ref(gluon)}, {"manager_cpu0", std::ref(one)}, {"manager_cpu0_cpu1", std::ref(two)}};
  for (const auto& [name, step] : steps)
    for (int i = 0; i < 20; ++i) step();  // run-time kernels compiled, pools warm
  std::printf("# MLP 64-512-512-10, batch 256, %d threads in all\n", omp_get_max_threads());
  std::vector<double> two_over_one;
  for (int r = 0; r < rounds; ++r) {
    std::vector<double> medians;
    for (const auto& [name, step] : steps) {
      std::vector<double> samples;
      for (int s = 0; s < 5; ++s) samples.push_back(bench::seconds_per_call(10, step));
      medians.push_back(bench::median(samples));
      std::printf("%s %lld %.9f\n", name, static_cast<long long>(kBatch), medians.back());
    }
    std::printf("# round %d: two devices / one = %.3f; one device / Gluon Trainer = %.3f\n", r + 1,
                medians[2] / medians[1], medians[1] / medians[0]);
    two_over_one.push_back(medians[2] / medians[1]);
  }
  const double ratio = bench::median(two_over_one);
  std::printf("# target: two devices within 1.15x of one (median of %d rounds %.3f): %s\n", rounds, ratio,
              ratio <= 1.15 ? "met" : "MISSED");
  return 0;
}
