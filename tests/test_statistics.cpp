// Searching, unique, partition, lexsort, counting, histograms and order statistics against NumPy's
// answers (computed with NumPy 2.4 and written here), on every device.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/statistics.hpp"

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

bool same(const std::vector<double>& got, const std::vector<double>& expected, double tolerance = 0) {
  if (got.size() != expected.size()) return false;
  for (std::size_t k = 0; k < got.size(); ++k) {
    if (std::isnan(expected[k]) != std::isnan(got[k])) return false;
    if (!std::isnan(expected[k]) && std::abs(got[k] - expected[k]) > tolerance) return false;
  }
  return true;
}

}  // namespace

XP_TEST_ON_DEVICES("searchsorted: left and right, NaNs last, a sorter, promoted dtypes") {
  const auto sorted = xp::array<double>({1, 2, 2, 3, kNan}, {5}, device);
  const auto v = xp::array<double>({2, 0, 3.5, kNan}, {2, 2}, device);
  CHECK(xp::searchsorted(sorted, v).shape() == xp::Shape{2, 2});
  CHECK(xp::searchsorted(sorted, v).to_vector() == std::vector<std::int64_t>{1, 0, 4, 4});
  CHECK(xp::searchsorted(sorted, v, "right").to_vector() == std::vector<std::int64_t>{3, 0, 4, 5});
  const auto unsorted = xp::array<double>({3, 1, 2}, {3}, device);
  const auto queries = xp::array<float>({2.5f, 1.0f}, {2}, device);
  CHECK(xp::searchsorted(unsorted, queries, "left", xp::argsort(unsorted)).to_vector() ==
        std::vector<std::int64_t>{2, 0});
  const auto integers = xp::array<std::int8_t>({-3, 0, 7}, {3}, device);
  CHECK(xp::searchsorted(integers, xp::array<double>({0.5, -3}, {2}, device)).to_vector() ==
        std::vector<std::int64_t>{2, 0});
  CHECK_THROWS_AS(xp::searchsorted(v, v), xp::ValueError);
  CHECK_THROWS_AS(xp::searchsorted(sorted, v, "middle"), xp::ValueError);
  CHECK_THROWS_AS(xp::searchsorted(unsorted, queries, "left", xp::array<std::int64_t>({0, 1, 5}, {3}, device)),
                  xp::ValueError);
}

XP_TEST_ON_DEVICES("digitize: increasing and decreasing bins, right") {
  const auto x = xp::array<double>({0.5, 1, 2.5, 4}, {4}, device);
  const auto up = xp::array<double>({1, 2, 3}, {3}, device), down = xp::array<double>({3, 2, 1}, {3}, device);
  CHECK(xp::digitize(x, up).to_vector() == std::vector<std::int64_t>{0, 1, 2, 3});
  CHECK(xp::digitize(x, up, true).to_vector() == std::vector<std::int64_t>{0, 0, 2, 3});
  CHECK(xp::digitize(x, down).to_vector() == std::vector<std::int64_t>{3, 2, 1, 0});
  CHECK(xp::digitize(x, down, true).to_vector() == std::vector<std::int64_t>{3, 3, 1, 0});
  CHECK_THROWS_WITH_AS(xp::digitize(x, xp::array<double>({0, 2, 1}, {3}, device)),
                       "digitize: bins must be monotonically increasing or decreasing", xp::ValueError);
}

XP_TEST_ON_DEVICES("unique: values, first positions, inverse and counts; NaNs as one; along an axis") {
  const auto x = xp::array<double>({3, 1, 3, kNan, 1, 2, kNan, -0.0, 0.0}, {3, 3}, device);
  const auto u = xp::unique(x, {.return_index = true, .return_inverse = true, .return_counts = true});
  const std::vector<double> values = u.values.to_vector();
  CHECK(same(values, {0, 1, 2, 3, kNan}));
  CHECK(std::signbit(values[0]));  // the first zero in input order
  CHECK(u.index.to_vector() == std::vector<std::int64_t>{7, 1, 5, 0, 3});
  CHECK(u.inverse.shape() == xp::Shape{3, 3});
  CHECK(u.inverse.to_vector() == std::vector<std::int64_t>{3, 1, 3, 4, 1, 2, 4, 0, 0});
  CHECK(u.counts.to_vector() == std::vector<std::int64_t>{2, 2, 1, 2, 2});
  CHECK(xp::unique(x).index.size() == 0);
  const auto rows = xp::array<std::int32_t>({2, 1, -1, 5, 2, 0, 2, 1}, {4, 2}, device);
  const auto by_rows =
      xp::unique(rows, {.return_index = true, .return_inverse = true, .return_counts = true, .axis = 0});
  CHECK(by_rows.values.shape() == xp::Shape{3, 2});
  CHECK(by_rows.values.to_vector() == std::vector<std::int32_t>{-1, 5, 2, 0, 2, 1});
  CHECK(by_rows.index.to_vector() == std::vector<std::int64_t>{1, 2, 0});
  CHECK(by_rows.inverse.to_vector() == std::vector<std::int64_t>{2, 0, 1, 2});
  CHECK(by_rows.counts.to_vector() == std::vector<std::int64_t>{1, 1, 2});
  const auto columns = xp::array<std::int32_t>({3, 1, 3, 1, 2, 1}, {2, 3}, device);
  CHECK(xp::unique(columns, {.axis = 1}).values.to_vector() == std::vector<std::int32_t>{1, 3, 2, 1});
  CHECK(xp::unique(xp::zeros<float>({0}, device)).values.size() == 0);
}

XP_TEST_ON_DEVICES("partition, argpartition and lexsort") {
  const auto a = xp::array<std::int32_t>({3, 1, 2, 9, 0}, {5}, device);
  const std::vector<std::int32_t> parted = xp::partition(a, 2).to_vector();
  CHECK(parted[2] == 2);
  CHECK((parted[0] <= 2 && parted[1] <= 2 && parted[3] >= 2 && parted[4] >= 2));
  const auto positions = xp::argpartition(a, {0, 4}).to_vector();
  CHECK((positions.front() == 4 && positions.back() == 3));
  CHECK_THROWS_WITH_AS(xp::partition(a, 5), "partition: kth(=5) out of bounds (5)", xp::ValueError);
  CHECK_THROWS_AS(xp::argpartition(a, {-6}), xp::ValueError);
  const auto first = xp::array<std::int32_t>({1, 2, 1, 3}, {4}, device);
  const auto second = xp::array<std::int32_t>({5, 5, 4, 4}, {4}, device);
  CHECK(xp::lexsort({first, second}).to_vector() == std::vector<std::int64_t>{2, 3, 0, 1});
  CHECK_THROWS_AS(xp::lexsort({first, xp::zeros<std::int32_t>({3}, device)}), xp::ValueError);
}

XP_TEST_ON_DEVICES("count_nonzero, bincount and histogram") {
  const auto m = xp::array<double>({0, 1, 2, 0, -0.0, kNan}, {2, 3}, device);
  CHECK(xp::count_nonzero(m).to_vector() == std::vector<std::int64_t>{3});
  CHECK(xp::count_nonzero(m, 0).to_vector() == std::vector<std::int64_t>{0, 1, 2});
  const auto x = xp::array<std::int32_t>({0, 1, 1, 3, 1}, {5}, device);
  CHECK(xp::bincount(x).to_vector() == std::vector<std::int64_t>{1, 3, 0, 1});
  const auto weights = xp::array<double>({0.5, 1, 2, 3, 0}, {5}, device);
  CHECK(xp::bincount(x, weights, 6).to_vector() == std::vector<double>{0.5, 3, 0, 3, 0, 0});
  CHECK(xp::bincount(xp::zeros<std::int64_t>({0}, device), 2).to_vector() == std::vector<std::int64_t>{0, 0});
  CHECK_THROWS_WITH_AS(xp::bincount(xp::array<std::int32_t>({1, -1}, {2}, device)),
                       "bincount: 'list' argument must have no negative elements (found -1)", xp::ValueError);
  CHECK_THROWS_AS(xp::bincount(weights), xp::TypeError);
  const auto data = xp::array<double>({0, 1, 1.5, 2, 2.5, 3, 7, -1}, {8}, device);
  const auto ranged = xp::histogram(data, 3, {{0.0, 3.0}});
  CHECK(ranged.hist.to_vector() == std::vector<std::int64_t>{1, 2, 3});
  CHECK(ranged.edges.to_vector() == std::vector<double>{0, 1, 2, 3});
  const auto uneven = xp::histogram(data, xp::array<double>({0, 1, 2, 4}, {4}, device));
  CHECK(uneven.hist.to_vector() == std::vector<std::int64_t>{1, 2, 3});
  const auto counted = xp::histogram(xp::array<std::int32_t>({1, 2, 2, 3, 9}, {5}, device), 4);
  static_assert(std::is_same_v<decltype(counted.edges), xp::ndarray<double>>);
  CHECK(counted.hist.to_vector() == std::vector<std::int64_t>{3, 1, 0, 1});
  CHECK(counted.edges.to_vector() == std::vector<double>{1, 3, 5, 7, 9});
  CHECK_THROWS_WITH_AS(xp::histogram(data, xp::array<double>({0, 2, 1}, {3}, device)),
                       "histogram: `bins` must increase monotonically, when an array (2 before 1)", xp::ValueError);
  CHECK_THROWS_AS(xp::histogram(data, 0), xp::ValueError);
  CHECK_THROWS_AS(xp::histogram(xp::array<double>({1, kNan}, {2}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("median, quantile and percentile: NumPy's methods and dtypes") {
  const auto m = xp::array<double>({1, 5, 2, 8, 7, 3, kNan, 1, 4, 4, 6, 0}, {3, 4}, device);
  CHECK(same(xp::median(m, 1).to_vector(), {3.5, kNan, 4}));
  CHECK(same(xp::median(m, 0).to_vector(), {4, 4, kNan, 1}));
  CHECK(xp::median(m, 1, true).shape() == xp::Shape{3, 1});
  const auto integers = xp::array<std::int32_t>({1, 2, 3, 4}, {2, 2}, device);
  static_assert(std::is_same_v<decltype(xp::median(integers)), xp::ndarray<double>>);
  CHECK(xp::median(integers).to_vector() == std::vector<double>{2.5});
  // Complex: NumPy's mean of the middle, a quotient by the count even for one element (inf + 1j -> inf + nanj).
  using C = std::complex<double>;
  const C odd = xp::median(xp::array<C>(std::vector<C>{{INFINITY, 2}, {INFINITY, 1}, {-1, 0}}, device)).item();
  CHECK((odd.real() == INFINITY && std::isnan(odd.imag())));
  CHECK(xp::median(xp::array<C>(std::vector<C>{{1, 1}, {3, 5}}, device)).item() == C(2, 3));
  const auto v = xp::array<double>({3, 1, 4, 1, 5, 9, 2, 6}, {8}, device);
  const std::vector<double> q{0.0, 0.1, 0.25, 0.5, 0.77, 1.0};
  const std::vector<std::pair<std::string, std::vector<double>>> expected{
      {"linear", {1, 1, 1.75, 3.5, 5.390000000000001, 9}},
      {"lower", {1, 1, 1, 3, 5, 9}},
      {"higher", {1, 1, 2, 4, 6, 9}},
      {"nearest", {1, 1, 2, 4, 5, 9}},
      {"midpoint", {1, 1, 1.5, 3.5, 5.5, 9}},
      {"inverted_cdf", {1, 1, 1, 3, 6, 9}},
      {"averaged_inverted_cdf", {1, 1, 1.5, 3.5, 6, 9}},
      {"closest_observation", {1, 1, 1, 3, 5, 9}},
      {"interpolated_inverted_cdf", {1, 1, 1, 3, 5.16, 9}},
      {"hazen", {1, 1, 1.5, 3.5, 5.66, 9}},
      {"weibull", {1, 1, 1.25, 3.5, 5.93, 9}},
      {"median_unbiased", {1, 1, 1.4166666666666665, 3.5, 5.75, 9}},
      {"normal_unbiased", {1, 1, 1.4375, 3.5, 5.7275, 9}}};
  for (const auto& entry : expected) {  // not a structured binding: clang 14 cannot capture one in INFO
    const std::string& method = entry.first;
    const std::vector<double>& values = entry.second;
    INFO(method);
    const auto got = xp::quantile(v, q, std::nullopt, method);
    CHECK(got.shape() == xp::Shape{6});
    CHECK(same(got.astype<double>().to_vector(), values, 1e-12));
  }
  CHECK(xp::quantile(v.astype<float>(), 0.3).dtype() == xp::dtype::float32);
  CHECK(xp::quantile(v.astype<float>(), {0.3}).dtype() == xp::dtype::float64);
  CHECK(xp::quantile(v.astype<std::int32_t>(), 0.5, std::nullopt, "lower").dtype() == xp::dtype::int32);
  CHECK(xp::percentile(v, {25.0, 50.0}).astype<double>().to_vector() == std::vector<double>{1.75, 3.5});
  CHECK(xp::quantile(m, {0.5}, 1, "linear", true).shape() == xp::Shape{1, 3, 1});
  CHECK_THROWS_WITH_AS(xp::quantile(v, 1.5), "Quantiles must be in the range [0, 1] (1.5)", xp::ValueError);
  CHECK_THROWS_AS(xp::percentile(v, 150.0), xp::ValueError);
  CHECK_THROWS_AS(xp::quantile(v, 0.5, std::nullopt, "fastest"), xp::ValueError);
}

XP_TEST_ON_DEVICES("gradients: median and quantile reach the elements they pick") {
  using xp_test::check_gradients;
  // Finite differences on cpu(0): thousands of tiny launches otherwise (minutes under compute-sanitizer).
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto x = xp_test::smooth_values({3, 4}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::median(in[0], 1); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::median(in[0]); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::ndarray<double>(xp::quantile(in[0], {0.3, 0.8}, 0)); },
                  {x}, 1e-6, on_cpu);
}
