// MXNet 1.x's _split_input_slice: the table of notes/peers-wave2.md §1.1 (Python 3's round, half to
// even; the shortfall to the last slice; an excess truncates the tail) and its errors.
#include <doctest/doctest.h>

#include <vector>

#include "xp/error.hpp"
#include "xp/slicing.hpp"

namespace {

std::vector<std::int64_t> sizes(std::int64_t batch, std::vector<double> work_load) {
  std::vector<std::int64_t> out;
  std::int64_t expected_begin = 0;
  for (const auto& s : xp::split_input_slice(batch, work_load)) {
    CHECK(s.begin == expected_begin);  // contiguous, in order
    expected_begin = s.end;
    out.push_back(s.size());
  }
  CHECK(expected_begin == batch);
  return out;
}

using Sizes = std::vector<std::int64_t>;

}  // namespace

TEST_CASE("split_input_slice: MXNet 1.x's slices") {
  CHECK(sizes(5, {1, 1}) == Sizes{2, 3});  // round(2.5) = 2, the shortfall to the last
  CHECK(sizes(7, {1, 1}) == Sizes{4, 3});  // round(3.5) = 4 twice: the last is truncated
  CHECK(sizes(10, {1, 1, 1, 1}) == Sizes{2, 2, 2, 4});
  CHECK(sizes(14, {1, 1, 1, 1}) == Sizes{4, 4, 4, 2});
  CHECK(sizes(20, std::vector<double>(8, 1)) == Sizes{2, 2, 2, 2, 2, 2, 2, 6});
  CHECK(sizes(36, std::vector<double>(8, 1)) == Sizes{4, 4, 4, 4, 4, 4, 4, 8});
  CHECK(sizes(10, {1, 1, 1}) == Sizes{3, 3, 4});
  CHECK(sizes(8, {1, 3}) == Sizes{2, 6});
  CHECK(sizes(12, {0.5, 1.5}) == Sizes{3, 9});
  CHECK(sizes(1, {1}) == Sizes{1});
}

TEST_CASE("split_input_slice: empty slices and bad work loads are errors") {
  using xp::split_input_slice;
  const std::vector<double> four(4, 1);
  CHECK_THROWS_WITH_AS(split_input_slice(6, four), "Too many slices. Some splits are empty.", xp::ValueError);
  CHECK_THROWS_WITH_AS(split_input_slice(3, four), "Too many slices. Some splits are empty.", xp::ValueError);
  const std::vector<double> zero_first{0, 1};
  CHECK_THROWS_WITH_AS(split_input_slice(10, zero_first),
                       "split_input_slice: work load 0 is 0; every work load must be positive", xp::ValueError);
  const std::vector<double> negative{1, -2};
  CHECK_THROWS_WITH_AS(split_input_slice(10, negative),
                       "split_input_slice: work load 1 is -2; every work load must be positive", xp::ValueError);
  CHECK_THROWS_WITH_AS(split_input_slice(0, four), "split_input_slice: the batch size must be positive, not 0",
                       xp::ValueError);
}
