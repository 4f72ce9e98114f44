// NDArrayIter: MXNet 1.x's batches for each last_batch_handle, its descriptions, a seeded shuffle that
// keeps samples and labels together, and its errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "xp/io.hpp"
#include "xp/random.hpp"
#include "xp/xp.hpp"

namespace {

// Samples 0..n-1: data row i is (i, 100 + i), label i is i.
struct Samples {
  xp::ndarray<float> data;
  xp::ndarray<float> label;
  explicit Samples(int n) {
    std::vector<float> d, l;
    for (int i = 0; i < n; ++i) {
      d.push_back(static_cast<float>(i));
      d.push_back(100.0f + static_cast<float>(i));
      l.push_back(static_cast<float>(i));
    }
    data = xp::array<float>(d, {n, 2}, xp::cpu(0));
    label = xp::array<float>(l, {n}, xp::cpu(0));
  }
};

struct Seen {
  std::vector<std::vector<float>> labels;
  std::vector<std::int64_t> pads;
};

Seen epoch(xp::io::NDArrayIter& it) {
  Seen seen;
  while (auto batch = it.next()) {
    const std::vector<float> label = batch->label[0].as<float>().to_vector();
    const std::vector<float> data = batch->data[0].as<float>().to_vector();
    for (std::size_t i = 0; i < label.size(); ++i) {  // the data row belongs to the label
      CHECK(data[2 * i] == label[i]);
      CHECK(data[2 * i + 1] == 100 + label[i]);
    }
    seen.labels.push_back(label);
    seen.pads.push_back(batch->pad);
  }
  return seen;
}

using Batches = std::vector<std::vector<float>>;

}  // namespace

TEST_CASE("NDArrayIter: pad fills the last batch from the start and counts the padding") {
  Samples s(10);
  xp::io::NDArrayIter it(s.data, s.label, 4, false, "pad");
  CHECK(it.provide_data() == std::vector<xp::io::DataDesc>{{"data", {4, 2}, xp::dtype::float32}});
  CHECK(it.provide_label() == std::vector<xp::io::DataDesc>{{"softmax_label", {4}, xp::dtype::float32}});
  CHECK(it.batch_size() == 4);
  const Seen first = epoch(it);
  CHECK(first.labels == Batches{{0, 1, 2, 3}, {4, 5, 6, 7}, {8, 9, 0, 1}});
  CHECK(first.pads == std::vector<std::int64_t>{0, 0, 2});
  CHECK_FALSE(it.next().has_value());
  it.reset();
  CHECK(epoch(it).labels == first.labels);
}

TEST_CASE("NDArrayIter: discard drops the incomplete batch") {
  Samples s(10);
  xp::io::NDArrayIter it(s.data, s.label, 4, false, "discard");
  CHECK(it.num_data() == 8);
  CHECK(epoch(it).labels == Batches{{0, 1, 2, 3}, {4, 5, 6, 7}});
  it.reset();
  CHECK(epoch(it).labels.size() == 2);
}

TEST_CASE("NDArrayIter: roll_over carries the incomplete batch into the next epoch, as MXNet 1.x") {
  Samples s(10);
  xp::io::NDArrayIter it(s.data, s.label, 4, false, "roll_over");
  CHECK(epoch(it).labels == Batches{{0, 1, 2, 3}, {4, 5, 6, 7}});
  it.reset();
  const Seen second = epoch(it);
  CHECK(second.labels == Batches{{8, 9, 0, 1}, {2, 3, 4, 5}, {6, 7, 8, 9}});
  CHECK(second.pads == std::vector<std::int64_t>{2, 0, 0});  // MXNet reports the carried samples as pad
  it.reset();  // this epoch ended on a complete batch: the next starts at 0
  CHECK(epoch(it).labels.front() == std::vector<float>{0, 1, 2, 3});
}

TEST_CASE("NDArrayIter: the shuffle follows xp::random::seed and keeps each label with its sample") {
  Samples s(12);
  const auto order = [&](std::uint64_t seed) {
    xp::random::seed(seed);
    xp::io::NDArrayIter it(s.data, s.label, 4, true, "pad");
    std::vector<float> all;
    for (const auto& b : epoch(it).labels) all.insert(all.end(), b.begin(), b.end());
    it.reset();  // a new order each epoch
    std::vector<float> next;
    for (const auto& b : epoch(it).labels) next.insert(next.end(), b.begin(), b.end());
    CHECK(next != all);
    return all;
  };
  const std::vector<float> a = order(7), b = order(7), c = order(8);
  CHECK(a == b);
  CHECK(a != c);
  std::vector<float> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<float> expected(12);
  std::iota(expected.begin(), expected.end(), 0.0f);
  CHECK(sorted == expected);
  CHECK(a != expected);
}

TEST_CASE("NDArrayIter: named arrays, no label, and its errors") {
  Samples s(6);
  xp::io::NDArrayIter it({{"x", s.data}, {"y", s.label.reshape({6, 1})}}, {}, 3);
  CHECK(it.provide_data().size() == 2);
  CHECK(it.provide_data()[1] == xp::io::DataDesc{"y", {3, 1}, xp::dtype::float32});
  CHECK(it.provide_label().empty());
  auto batch = it.next();
  REQUIRE(batch.has_value());
  CHECK(batch->label.empty());
  CHECK(batch->data[1].shape() == xp::Shape{3, 1});

  CHECK_THROWS_WITH_AS(xp::io::NDArrayIter(s.data, s.label, 4, false, "keep"),
                       "NDArrayIter: last_batch_handle must be 'pad', 'discard' or 'roll_over', not 'keep'",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::io::NDArrayIter(s.data, xp::zeros<float>({5}, xp::cpu(0)), 2),
                       "NDArrayIter: 'softmax_label' has 5 samples but 'data' has 6", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::io::NDArrayIter(s.data, s.label, 7),
                       "NDArrayIter: batch_size needs to be smaller than data size (7 > 6 samples)", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::io::NDArrayIter(s.data, s.label, 0), "NDArrayIter: batch_size must be positive, not 0",
                       xp::ValueError);
}
