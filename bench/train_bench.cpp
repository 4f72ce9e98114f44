// One Gluon training step of a 64-512-512-10 MLP (relu) at batch 256 on cpu(0): forward, softmax
// cross-entropy, backward, SGD with momentum, the model and step of bench/mxnet_train_bench.py and
// bench/torch_train_bench.py. Prints "xp_mlp_step 256 <seconds per step>" per round (the median of its
// samples).
#include <omp.h>
#include <xp/gluon.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "timing.hpp"

int main(int argc, char** argv) {
  const int rounds = argc > 2 && std::string(argv[1]) == "--rounds" ? std::atoi(argv[2]) : 5;
  constexpr std::int64_t batch = 256;
  xp::random::seed(1);
  xp::nn::Sequential net;
  net.add(xp::nn::Dense(512, "relu", true, true, 64), xp::nn::Dense(512, "relu", true, true, 512),
          xp::nn::Dense(10, "", true, true, 512));
  net.initialize(xp::initializer::Xavier(), xp::cpu(0));
  xp::gluon::Trainer trainer(net.collect_params(), "sgd", {{"learning_rate", 0.01}, {"momentum", 0.9}});
  const xp::gluon::loss::SoftmaxCrossEntropyLoss loss;
  const auto x = xp::random::uniform<float>(-1.f, 1.f, {batch, 64}, xp::cpu(0));
  const auto y = xp::ndarray<>(xp::random::uniform<float>(0.f, 10.f, {batch}, xp::cpu(0))).astype(xp::dtype::int32);

  const auto step = [&] {
    {
      xp::autograd::record recording;
      loss(net(x), y).backward();
    }
    trainer.step(batch);
  };
  for (int i = 0; i < 20; ++i) step();  // run-time kernels compiled, pools warm
  std::printf("# xparray on cpu(0), %d threads\n", omp_get_max_threads());
  for (int r = 0; r < rounds; ++r) {
    std::vector<double> samples;
    for (int s = 0; s < 5; ++s) samples.push_back(bench::seconds_per_call(20, step));
    std::printf("xp_mlp_step %lld %.9f\n", static_cast<long long>(batch), bench::median(samples));
  }
  return 0;
}
