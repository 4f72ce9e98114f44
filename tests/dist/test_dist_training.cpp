// "dist_sync" under mpirun: the kvstore sums over devices and processes and starts from rank 0's
// values; processes that disagree on their keys all fail before any value moves; the Trainer over
// P processes x 1 or 2 devices ends with the weights of one process and one device with the same
// global batch.
#include <doctest/doctest.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "mpirun_world.hpp"
#include "xp/dist.hpp"
#include "xp/gluon.hpp"

namespace {

std::vector<float> floats(const xp::ndarray<>& a) { return a.as<float>().to_vector(); }

// The global batch the Trainer tests split over the processes: 12 rows of 5 features, 3 classes.
struct GlobalBatch {
  static constexpr std::int64_t kRows = 12;
  xp::ndarray<float> x = (xp::random::seed(5), xp::random::normal<float>(0.f, 1.f, {kRows, 5}, xp::cpu(0)));
  xp::ndarray<std::int32_t> y = xp::array<std::int32_t>({0, 2, 1, 1, 0, 2, 2, 1, 0, 0, 1, 2}, xp::cpu(0));
  xp::gluon::loss::SoftmaxCrossEntropyLoss loss;
};

// How many of a process's weights differ from the reference's beyond the rounding of sums taken in
// another order.
std::size_t differing(const std::vector<float>& a, const std::vector<float>& b) {
  REQUIRE(a.size() == b.size());
  std::size_t off = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::abs(a[i] - b[i]) > 1e-5f * (1 + std::abs(b[i]))) ++off;
  return off;
}

}  // namespace

TEST_CASE("dist_sync kvstore: init takes rank 0's values; pushpull sums over devices and processes") {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  auto kv = xp::kvstore::create("dist_sync");
  CHECK(kv.rank() == rank);
  CHECK(kv.num_workers() == size);
  const auto r = static_cast<float>(rank);
  kv.init(std::vector<std::string>{"w", "b"},
          {xp::full<float>({3}, r + 1, xp::cpu(0)), xp::full<float>({2}, 10 * (r + 1), xp::cpu(0))});
  std::vector<xp::ndarray<>> w_out{xp::zeros<float>({3}, xp::cpu(0)), xp::zeros<float>({3}, xp::cpu(1))};
  kv.pull("w", w_out);
  for (const auto& w : w_out) CHECK(floats(w) == std::vector<float>(3, 1.0f));  // rank 0's
  // Two devices per process: device d of rank r holds (r + 1) * (d + 1).
  std::vector<xp::ndarray<>> w_grads, b_grads;
  for (int d = 0; d < 2; ++d) {
    w_grads.push_back(xp::full<float>({3}, (r + 1) * static_cast<float>(d + 1), xp::cpu(d)));
    b_grads.push_back(xp::full<float>({2}, -(r + 1) * static_cast<float>(d + 1), xp::cpu(d)));
  }
  kv.pushpull({"w", "b"}, {w_grads, b_grads});
  const float total = 3.0f * static_cast<float>(size * (size + 1) / 2);  // sum of (r + 1) * (1 + 2)
  for (int d = 0; d < 2; ++d) {
    CHECK(floats(w_grads[static_cast<std::size_t>(d)]) == std::vector<float>(3, total));
    CHECK(floats(b_grads[static_cast<std::size_t>(d)]) == std::vector<float>(2, -total));
  }
  std::vector<xp::ndarray<>> b_out{xp::zeros<float>({2}, xp::cpu(1))};
  kv.pull("b", b_out);  // the store keeps the sum
  CHECK(floats(b_out[0]) == std::vector<float>(2, -total));
  // A single key, as MXNet's model.py pushes them.
  std::vector<xp::ndarray<>> one{xp::full<float>({3}, r, xp::cpu(0))};
  kv.pushpull("w", one);
  CHECK(floats(one[0]) == std::vector<float>(3, static_cast<float>(size * (size - 1) / 2)));
}

TEST_CASE("dist_sync kvstore: processes that initialise different keys all fail, naming the difference" *
          doctest::skip(mpirun_world_size() < 2)) {
  auto kv = xp::kvstore::create("dist_sync");
  const std::int64_t length = xp::dist::rank() == 1 ? 4 : 3;
  const std::string expected =
      "kvstore.init: the processes disagree on the keys: rank 1 has 'fc_weight' float32 "
      "(4,) at position 1 where rank 0 has 'fc_weight' float32 (3,) (2 and 2 keys)";
  CHECK_THROWS_WITH_AS(kv.init(std::vector<std::string>{"fc_bias", "fc_weight"},
                               {xp::zeros<float>({1}, xp::cpu(0)), xp::zeros<float>({length}, xp::cpu(0))}),
                       expected.c_str(), xp::ValueError);
  // Nothing was stored: the same store initialises agreeing keys afterwards.
  kv.init("fc_bias", xp::zeros<float>({1}, xp::cpu(0)));
}

TEST_CASE("dist_sync Trainer: P processes x 1 or 2 devices train as 1 process x 1 device on the global batch") {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  const GlobalBatch batch;
  const std::int64_t global_batch = GlobalBatch::kRows;
  const auto& x = batch.x;
  const auto& y = batch.y;
  const auto& loss = batch.loss;
  const xp::optimizer::Options sgd{{"learning_rate", 0.2}, {"momentum", 0.9}, {"wd", 1e-3}};
  const auto make = [](const std::vector<xp::Device>& devices, std::uint64_t seed) {
    auto net = std::make_shared<xp::nn::Sequential>();
    net->add(xp::nn::Dense(16, "relu", true, true, 5), xp::nn::Dense(3, "", true, true, 16));
    xp::random::seed(seed);
    net->initialize(xp::initializer::Xavier(), devices);
    return net;
  };
  // The reference: one process, one device, the whole batch, rank 0's initial draw (seed 100).
  const auto reference = make({xp::cpu(0)}, 100);
  xp::gluon::Trainer single(reference->collect_params(), "sgd", sgd);
  for (int step = 0; step < 5; ++step) {
    {
      xp::autograd::record recording;
      loss((*reference)(x), y).backward();
    }
    single.step(static_cast<double>(global_batch));
  }
  const std::vector<std::vector<xp::Device>> layouts{{xp::cpu(0)}, {xp::cpu(0), xp::cpu(1)}};
  for (const auto& devices : layouts) {
    CAPTURE(devices.size());
    // Each process draws its own initial values (seed 100 + rank): the Trainer must replace them by rank 0's.
    const auto net = make(devices, 100 + static_cast<std::uint64_t>(rank));
    xp::gluon::Trainer trainer(net->collect_params(), "sgd", sgd, "dist_sync");
    // Across processes the gradients of each device lie back to back, in name order: one collective sums
    // them in place. (One process sums within itself as "device" does, where it lays nothing out.)
    for (std::size_t d = 0; size > 1 && d < devices.size(); ++d) {
      const std::byte* next = nullptr;
      for (const auto& [name, p] : net->collect_params()) {
        const xp::ndarray<> g = p.list_grad()[d];
        if (next) CHECK(static_cast<const std::byte*>(g.raw_data()) == next);
        next = static_cast<const std::byte*>(g.raw_data()) + g.size() * xp::itemsize(g.dtype());
      }
    }
    // This process's share of every global batch: rows [rank * B / P, (rank + 1) * B / P).
    const std::int64_t begin = rank * global_batch / size, end = (rank + 1) * global_batch / size;
    const xp::ndarray<float> my_x = x(xp::slice(begin, end));
    const xp::ndarray<std::int32_t> my_y = y(xp::slice(begin, end));
    for (int step = 0; step < 5; ++step) {
      const auto xs = xp::utils::split_and_load(my_x, devices, 0, false);
      const auto ys = xp::utils::split_and_load(my_y, devices, 0, false);
      {
        xp::autograd::record recording;
        std::vector<xp::ndarray<>> losses;
        for (std::size_t d = 0; d < devices.size(); ++d) losses.push_back(loss((*net)(xs[d]), ys[d]));
        xp::autograd::backward(losses);
      }
      trainer.step(static_cast<double>(end - begin));
    }
    const auto got = net->collect_params(), want = reference->collect_params();
    auto g = got.begin();
    for (auto w = want.begin(); w != want.end(); ++w, ++g) {
      CAPTURE(g->first);
      for (const xp::Device d : devices) { CHECK(differing(floats(g->second.data(d)), floats(w->second.data())) == 0); }
    }
  }
}

// Layers that learn their input size at the first forward: the Trainer lays the gradients out for the
// collectives at its first step, after the first backward, and that step must still use them.
TEST_CASE("dist_sync Trainer: deferred initialisation, then P processes train as 1 process on the global batch") {
  const int rank = xp::dist::rank(), size = xp::dist::size();
  const GlobalBatch batch;
  const xp::optimizer::Options sgd{{"learning_rate", 0.2}, {"momentum", 0.9}};
  // Every process draws the same values at its first forward (the same seed just before it).
  const auto train = [&](const std::string& kvstore, const xp::ndarray<float>& xs,
                         const xp::ndarray<std::int32_t>& ys) {
    auto net = std::make_shared<xp::nn::Sequential>();
    net->add(xp::nn::Dense(16, "relu"), xp::nn::Dense(3));
    net->initialize(xp::initializer::Xavier(), {xp::cpu(0)});
    xp::gluon::Trainer trainer(net->collect_params(), "sgd", sgd, kvstore);
    xp::random::seed(100);
    for (int step = 0; step < 4; ++step) {
      {
        xp::autograd::record recording;
        batch.loss((*net)(xs), ys).backward();
      }
      trainer.step(static_cast<double>(xs.shape()[0]));
    }
    return net->collect_params();
  };
  const auto want = train("device", batch.x, batch.y);
  const std::int64_t begin = rank * GlobalBatch::kRows / size, end = (rank + 1) * GlobalBatch::kRows / size;
  const auto got = train("dist_sync", batch.x(xp::slice(begin, end)), batch.y(xp::slice(begin, end)));
  REQUIRE(got.size() == want.size());
  auto g = got.begin();
  for (auto w = want.begin(); w != want.end(); ++w, ++g) {
    CAPTURE(w->first);
    CHECK(differing(floats(g->second.data()), floats(w->second.data())) == 0);
  }
}
