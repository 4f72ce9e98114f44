// kvstore: sums over devices (cpu devices in one parallel pass; GPUs through NCCL, compiled here and
// run where two GPUs are present), a single value copied and never aliased, and the errors.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "device_cases.hpp"
#include "xp/kvstore.hpp"
#include "xp/xp.hpp"

namespace {

std::vector<xp::ndarray<>> on_devices(const std::vector<std::vector<float>>& values,
                                      const std::vector<xp::Device>& devices) {
  std::vector<xp::ndarray<>> out;
  for (std::size_t i = 0; i < values.size(); ++i) out.push_back(xp::array<float>(values[i], devices[i]));
  return out;
}

std::vector<float> floats(const xp::ndarray<>& a) { return a.as<float>().to_vector(); }

}  // namespace

TEST_CASE("kvstore: pushpull sums over cpu devices into every output, and the store keeps the sum") {
  for (const char* type : {"local", "device", "nccl"}) {
    auto kv = xp::kvstore::create(type);
    CHECK(kv.type() == type);
    const std::vector<xp::Device> devices{xp::cpu(0), xp::cpu(1), xp::cpu(2)};
    kv.init("w", xp::zeros<float>({2}, xp::cpu(0)));
    const auto grads = on_devices({{1, 2}, {10, 20}, {100, 200}}, devices);
    kv.pushpull("w", grads);  // in place
    for (const auto& g : grads) CHECK(floats(g) == std::vector<float>{111, 222});
    const auto outs = on_devices({{0, 0}, {0, 0}}, {xp::cpu(3), xp::cpu(0)});
    kv.pull("w", outs);
    for (const auto& o : outs) CHECK(floats(o) == std::vector<float>{111, 222});
  }
}

TEST_CASE("kvstore: several keys at once; without xp::dist, 'dist_sync' is refused and a store is one worker") {
  auto kv = xp::kvstore::create("device");
  CHECK(kv.rank() == 0);
  CHECK(kv.num_workers() == 1);
  kv.init(std::vector<std::string>{"a", "b"}, {xp::zeros<float>({2}, xp::cpu(0)), xp::zeros<float>({1}, xp::cpu(0))});
  const auto a = on_devices({{1, 2}, {3, 4}}, {xp::cpu(0), xp::cpu(1)});
  const auto b = on_devices({{5}, {6}}, {xp::cpu(0), xp::cpu(1)});
  const auto b_out = on_devices({{0}, {0}}, {xp::cpu(0), xp::cpu(1)});
  kv.pushpull({"a", "b"}, {a, b}, {a, b_out});
  for (const auto& x : a) CHECK(floats(x) == std::vector<float>{4, 6});
  for (const auto& x : b_out) CHECK(floats(x) == std::vector<float>{11});
  CHECK(floats(b[0]) == std::vector<float>{5});  // values apart from their outputs stay
  CHECK_THROWS_WITH_AS(kv.init(std::vector<std::string>{"c", "c"}, {a[0], a[1]}),
                       "kvstore.init: key 'c' is already initialised", xp::ValueError);
  CHECK_THROWS_WITH_AS(kv.pushpull({"a", "b"}, {a}), "kvstore.pushpull: 2 keys for 1 value lists and 1 output lists",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::kvstore::create("dist_sync"),
                       "kvstore: 'dist_sync' needs xp::dist::init first (from the xp::dist library)", xp::ValueError);
}

TEST_CASE("kvstore: push leaves its values alone; one value is copied, never aliased (MXNet issue 15152)") {
  auto kv = xp::kvstore::create("device");
  kv.init(3, xp::zeros<float>({3}, xp::cpu(0)));
  const auto values = on_devices({{1, 2, 3}, {4, 5, 6}}, {xp::cpu(0), xp::cpu(1)});
  kv.push(3, values);
  CHECK(floats(values[0]) == std::vector<float>{1, 2, 3});
  const auto out = on_devices({{0, 0, 0}}, {xp::cpu(1)});
  kv.pull(3, out);
  CHECK(floats(out[0]) == std::vector<float>{5, 7, 9});

  auto single = xp::array<float>({7, 8, 9}, xp::cpu(0));
  kv.push(3, {single});
  xp::add(single, 100.0f, single);  // the store holds a copy
  kv.pull(3, out);
  CHECK(floats(out[0]) == std::vector<float>{7, 8, 9});

  // init copies too.
  auto initial = xp::array<float>({1, 1}, xp::cpu(0));
  kv.init("b", initial);
  xp::subtract(initial, 1.0f, initial);
  const auto b = on_devices({{0, 0}}, {xp::cpu(0)});
  kv.pull("b", b);
  CHECK(floats(b[0]) == std::vector<float>{1, 1});
  // broadcast: init and pull.
  const auto copies = on_devices({{0}, {0}}, {xp::cpu(0), xp::cpu(1)});
  kv.broadcast("c", xp::array<float>({4}, xp::cpu(0)), copies);
  for (const auto& c : copies) CHECK(floats(c) == std::vector<float>{4});
}

TEST_CASE("kvstore: every dtype but bool, large and strided arrays") {
  auto kv = xp::kvstore::create("device");
  const std::vector<xp::Device> two{xp::cpu(0), xp::cpu(1)};
  std::vector<xp::ndarray<>> ints{xp::array<std::int64_t>({1, -2}, two[0]), xp::array<std::int64_t>({3, 4}, two[1])};
  kv.init("i", ints[0]);
  kv.pushpull("i", ints);
  CHECK(ints[1].as<std::int64_t>().to_vector() == std::vector<std::int64_t>{4, 2});

  // 10^5 elements: several threads' chunks and blocks.
  const std::int64_t n = 100000;
  std::vector<xp::ndarray<>> big{xp::arange<double>(0, n, 1, two[0]), xp::full<double>({n}, 0.5, two[1])};
  kv.init("big", big[0]);
  kv.pushpull("big", big);
  const std::vector<double> sum = big[1].as<double>().to_vector();
  for (std::int64_t i = 0; i < n; i += 997) CHECK(sum[static_cast<std::size_t>(i)] == static_cast<double>(i) + 0.5);
  CHECK(sum.back() == static_cast<double>(n - 1) + 0.5);

  // Transposed (not contiguous) inputs and outputs.
  const auto a = xp::array<float>({{1, 2}, {3, 4}}, two[0]).transpose();
  const auto b = xp::array<float>({{10, 20}, {30, 40}}, two[1]).transpose();
  kv.init("t", xp::zeros<float>({2, 2}, two[0]));
  kv.pushpull("t", {a, b});
  CHECK(a.to_vector() == std::vector<float>{11, 33, 22, 44});
  CHECK(b.to_vector() == std::vector<float>{11, 33, 22, 44});

  kv.init("flags", xp::zeros<bool>({2}, two[0]));
  CHECK_THROWS_WITH_AS(kv.pushpull("flags", {xp::zeros<bool>({2}, two[0]), xp::zeros<bool>({2}, two[1])}),
                       "allreduce: cannot sum bool arrays", xp::TypeError);
}

TEST_CASE("kvstore: errors name the key, the shapes and the devices") {
  auto kv = xp::kvstore::create("local");
  CHECK_THROWS_WITH_AS(xp::kvstore::create("dist_async"),
                       "kvstore: unknown type 'dist_async' (known: 'local', 'device', 'nccl', 'dist_sync')",
                       xp::ValueError);
  const auto values = on_devices({{1, 2}, {3, 4}}, {xp::cpu(0), xp::cpu(1)});
  CHECK_THROWS_WITH_AS(kv.push("w", values), "kvstore.push: key 'w' has not been initialised", xp::ValueError);
  kv.init("w", values[0]);
  CHECK_THROWS_WITH_AS(kv.init("w", values[0]), "kvstore.init: key 'w' is already initialised", xp::ValueError);
  CHECK_THROWS_WITH_AS(kv.push("w", {xp::zeros<float>({3}, xp::cpu(0))}),
                       "kvstore.push: key 'w' holds float32 (2,), not float32 (3,)", xp::ValueError);
  CHECK_THROWS_WITH_AS(kv.push("w", {}), "kvstore.push: an empty list for key 'w'", xp::ValueError);
  CHECK_THROWS_WITH_AS(kv.pushpull("w", values, on_devices({{0, 0}, {0, 0}}, {xp::cpu(1), xp::cpu(0)})),
                       "allreduce: output 0 is on cpu(1) but input 0 is on cpu(0)", xp::DeviceMismatchError);
  CHECK_THROWS_WITH_AS(kv.pushpull("w", on_devices({{1, 2}, {3, 4}}, {xp::cpu(0), xp::cpu(0)})),
                       "allreduce: cpu(0) appears twice; each device contributes one array", xp::ValueError);
}

XP_GPU_TEST_CASE("kvstore: a GPU with cpu devices sums on the first device; 'local' sums in host memory") {
  for (const char* type : {"local", "device"}) {
    auto kv = xp::kvstore::create(type);
    const auto values = on_devices({{1, 2}, {10, 20}}, {xp::gpu(0), xp::cpu(0)});
    kv.init("w", values[0]);
    kv.pushpull("w", values);
    for (const auto& v : values) CHECK(floats(v) == std::vector<float>{11, 22});
  }
}

XP_MULTI_GPU_TEST_CASE("kvstore: NCCL sums over two GPUs, in place and into other outputs", 2) {
  if (!xp::built_with_nccl()) {  // a CUDA build configured without NCCL says so
    auto kv = xp::kvstore::create("device");
    const auto values = on_devices({{1}, {2}}, {xp::gpu(0), xp::gpu(1)});
    kv.init("w", values[0]);
    CHECK_THROWS_WITH_AS(kv.pushpull("w", values), doctest::Contains("needs NCCL"), xp::NotImplementedError);
    return;
  }
  for (const char* type : {"device", "nccl", "local"}) {
    auto kv = xp::kvstore::create(type);
    const std::vector<xp::Device> gpus{xp::gpu(0), xp::gpu(1)};
    const auto values = on_devices({{1, 2, 3}, {10, 20, 30}}, gpus);
    kv.init("w", values[0]);
    const auto outs = on_devices({{0, 0, 0}, {0, 0, 0}}, gpus);
    kv.pushpull("w", values, outs);
    for (const auto& o : outs) CHECK(floats(o) == std::vector<float>{11, 22, 33});
    CHECK(floats(values[0]) == std::vector<float>{1, 2, 3});
    kv.pushpull("w", values);
    for (const auto& v : values) CHECK(floats(v) == std::vector<float>{11, 22, 33});
  }
}
