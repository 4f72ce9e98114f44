// The Generator's sampling routines: permutation, shuffle, choice, multinomial and dirichlet, against
// their distributions (random_checks.hpp), the same bits on every device, NumPy's argument errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "device_cases.hpp"
#include "omp_threads.hpp"
#include "random_checks.hpp"

namespace {

// The number of an ordering of 0..n-1 among all n! (its Lehmer code).
std::int64_t ordering_number(const std::vector<std::int64_t>& order) {
  std::int64_t number = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::int64_t smaller_after = 0;
    for (std::size_t j = i + 1; j < order.size(); ++j) smaller_after += order[j] < order[i];
    number = number * static_cast<std::int64_t>(order.size() - i) + smaller_after;
  }
  return number;
}

}  // namespace

TEST_CASE("permutations are uniform over the orderings") {
  auto g = xp::random::default_rng(11);
  std::vector<std::int64_t> numbers;
  for (std::int64_t k = 0; k < kSamples / 40; ++k)
    numbers.push_back(ordering_number(g.permutation(5, xp::cpu(0)).to_vector()));
  check_discrete(numbers, [](std::int64_t k) { return k >= 0 && k < 120 ? 1 / 120.0 : 0; }, 0, 119);
  std::vector<std::int64_t> big = g.permutation(1 << 20, xp::cpu(0)).to_vector();
  std::sort(big.begin(), big.end());
  std::vector<std::int64_t> all(1 << 20);
  std::iota(all.begin(), all.end(), 0);
  CHECK(big == all);
}

XP_TEST_ON_DEVICES("a permutation is the stable order of the generator's 64-bit keys, at any thread count") {
  // The CPU's bucket sort against the library's argsort of the same keys, at sizes around its bucket
  // and batch boundaries.
  for (const std::int64_t n : {1, 2, 3, 127, 128, 129, 4095, 4096, 4097, 100001, (1 << 20) + 3}) {
    for (const int threads : {1, 2, 3}) {
      CAPTURE(n);
      CAPTURE(threads);
      with_threads(threads, [&] {
        auto g = xp::random::default_rng(static_cast<std::uint64_t>(n));
        g.integers(0, 10, {3}, false, device);  // a draw before: the keys start past block 0
        const auto order = g.permutation(n, device);
        auto h = xp::random::default_rng(static_cast<std::uint64_t>(n));
        h.integers(0, 10, {3}, false, device);
        const xp::ndarray<std::uint64_t> keys(h.draw(
            {.distribution = xp::detail::RandomCall::integers, .low = 0, .range = 0}, {n}, xp::dtype::uint64, device));
        CHECK(g.position() == h.position());
        CHECK(same_bits(order, xp::argsort(keys)));
      });
    }
  }
}

XP_TEST_ON_DEVICES("permutation and shuffle reorder whole entries along an axis") {
  auto g = xp::random::default_rng(12);
  const auto a = xp::arange<std::int32_t>(0, 24, 1, device).reshape({2, 3, 4});
  const auto p = g.permutation(a, 2);
  CHECK(p.shape() == xp::Shape(2, 3, 4));
  // Every row is reordered the same way: entry [i, j, k] - 4 j - 12 i is the same for all i, j.
  const auto offsets = (p - xp::arange<std::int32_t>(0, 24, 4, device).reshape({2, 3, 1})).to_vector();
  for (std::size_t r = 1; r < 6; ++r)
    CHECK(std::equal(offsets.begin(), offsets.begin() + 4, offsets.begin() + static_cast<long>(4 * r)));
  std::vector<std::int32_t> first(offsets.begin(), offsets.begin() + 4);
  std::sort(first.begin(), first.end());
  CHECK(first == std::vector<std::int32_t>{0, 1, 2, 3});
  const auto rows = xp::arange<double>(0, 12, 1, device).reshape({6, 2});
  g.shuffle(rows);
  const auto values = rows.to_vector();
  std::vector<double> firsts;
  for (std::size_t r = 0; r < 6; ++r) {
    CHECK(values[2 * r + 1] == values[2 * r] + 1);  // rows stay whole
    firsts.push_back(values[2 * r]);
  }
  std::sort(firsts.begin(), firsts.end());
  CHECK(firsts == std::vector<double>{0, 2, 4, 6, 8, 10});
  CHECK_THROWS_AS(g.shuffle(rows, 2), xp::ValueError);
  CHECK_THROWS_AS(g.permutation(xp::full<double>({}, 1.0, device)), xp::ValueError);
}

TEST_CASE("choice with and without replacement follows its probabilities") {
  auto g = xp::random::default_rng(13);
  const std::vector<double> p{0.1, 0.2, 0.3, 0.4};
  check_discrete(
      g.choice(4, {kSamples}, true, p).to_vector(), [&](std::int64_t k) { return k >= 0 && k < 4 ? p[k] : 0; }, 0, 3);
  check_discrete(
      g.choice(7, {kSamples}).to_vector(), [](std::int64_t k) { return k >= 0 && k < 7 ? 1 / 7.0 : 0; }, 0, 6);
  // Without replacement, the ordered pair (i, j) has probability p_i p_j / (1 - p_i).
  std::vector<std::int64_t> pairs;
  for (std::int64_t k = 0; k < kSamples / 50; ++k) {
    const auto two = g.choice(4, {2}, false, p, xp::cpu(0)).to_vector();
    REQUIRE(two[0] != two[1]);
    pairs.push_back(4 * two[0] + two[1]);
  }
  check_discrete(
      pairs,
      [&](std::int64_t k) {
        const std::int64_t i = k / 4, j = k % 4;
        return k < 0 || k >= 16 || i == j ? 0 : p[i] * p[j] / (1 - p[i]);
      },
      0, 15);
  auto unique = g.choice(10, {10}, false).to_vector();
  std::sort(unique.begin(), unique.end());
  CHECK(unique == std::vector<std::int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto a = xp::array<float>({1.5f, 2.5f, 3.5f});
  const auto picked = g.choice(a, {2, 5}).to_vector();
  CHECK(picked.size() == 10);
  for (const float v : picked) CHECK((v == 1.5f || v == 2.5f || v == 3.5f));
  CHECK(g.choice(5).ndim() == 0);
}

TEST_CASE("choice's errors are NumPy's") {
  auto g = xp::random::default_rng(14);
  CHECK_THROWS_WITH_AS(g.choice(3, {4}, false),
                       "choice: Cannot take a larger sample than population when replace is False (4 > 3)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.choice(3, {2}, true, {0.5, 0.6, -0.1}), "choice: Probabilities are not non-negative (-0.1)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.choice(3, {2}, true, {0.5, 0.6, 0.1}), "choice: probabilities do not sum to 1 (sum 1.2)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.choice(3, {2}, true, {0.5, 0.5}), "choice: a and p must have same size (3 and 2)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.choice(3, {2}, false, {1.0, 0.0, 0.0}),
                       "choice: Fewer non-zero entries in p than size (1 < 2)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.choice(0, {1}), "choice: a must be greater than 0 unless no samples are taken (a = 0)",
                       xp::ValueError);
}

TEST_CASE("multinomial counts add up and have binomial margins") {
  auto g = xp::random::default_rng(15);
  const std::vector<double> p{0.2, 0.5, 0.3};
  const auto counts = g.multinomial(40, p, {kSamples / 4});
  CHECK(counts.shape() == xp::Shape(kSamples / 4, 3));
  const auto values = counts.to_vector();
  std::vector<std::int64_t> first, last;
  bool sums = true;
  for (std::size_t r = 0; r < values.size(); r += 3) {
    sums = sums && values[r] + values[r + 1] + values[r + 2] == 40;
    first.push_back(values[r]);
    last.push_back(values[r + 2]);
  }
  CHECK(sums);
  const auto binomial = [](std::int64_t n, double q) {
    return [n, q](std::int64_t k) {
      return k < 0 || k > n ? 0
                            : std::exp(std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) +
                                       k * std::log(q) + (n - k) * std::log1p(-q));
    };
  };
  check_discrete(first, binomial(40, 0.2), 0, 40);
  check_discrete(last, binomial(40, 0.3), 0, 40);
  CHECK(g.multinomial(5, {1.0}).to_vector() == std::vector<std::int64_t>{5});
  CHECK_THROWS_WITH_AS(g.multinomial(5, {0.7, 0.7, 0.1}), "multinomial: sum(pvals[:-1]) > 1.0 (1.4)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.multinomial(-1, {1.0}), "multinomial: n < 0 (n = -1)", xp::ValueError);
}

TEST_CASE("dirichlet points lie on the simplex with beta margins") {
  auto g = xp::random::default_rng(16);
  const auto points = g.dirichlet({2, 3, 5}, {kSamples / 2});
  CHECK(points.shape() == xp::Shape(kSamples / 2, 3));
  const auto values = points.to_vector();
  std::vector<double> first;
  double worst = 0;
  for (std::size_t r = 0; r < values.size(); r += 3) {
    worst = std::max(worst, std::abs(values[r] + values[r + 1] + values[r + 2] - 1));
    first.push_back(values[r]);
  }
  CHECK(worst < 1e-15);
  // The first coordinate is Beta(2, 8): 1 - (1 - x)^9 - 9 x (1 - x)^8.
  check_continuous(first, [](double x) { return 1 - std::pow(1 - x, 9) - 9 * x * std::pow(1 - x, 8); });
  // Every alpha below 0.1: the stick-breaking path; Beta(0.05, 0.05) margins.
  const auto sparse = g.dirichlet({0.05, 0.05}, {kSamples / 2}).to_vector();
  std::vector<double> sparse_first;
  for (std::size_t r = 0; r < sparse.size(); r += 2) sparse_first.push_back(sparse[r]);
  check_moments(sparse_first, 0.5, 0.0025 / (0.01 * 1.1));
  CHECK_THROWS_WITH_AS(g.dirichlet({1.0, -1.0}), "dirichlet: alpha < 0 (-1)", xp::ValueError);
}

XP_TEST_ON_DEVICES("the sampling routines give the same bits on every device") {
  const auto draws = [](xp::Device on) {
    auto g = xp::random::default_rng(99);
    std::vector<xp::ndarray<>> d;
    d.emplace_back(g.permutation(100003, on));
    d.emplace_back(g.choice(1000, {5000}, true, {}, on));
    std::vector<double> p(1000, 0.0005);
    p[7] = 0.5005;
    d.emplace_back(g.choice(1000, {5000}, true, p, on));
    d.emplace_back(g.choice(1000, {500}, false, p, on));
    d.emplace_back(g.multinomial(1000, {0.1, 0.2, 0.3, 0.4}, {4096}, on));
    d.emplace_back(g.dirichlet({0.5, 1.5, 2.5}, {4096}, on));
    d.emplace_back(g.dirichlet({0.01, 0.02, 0.03}, {4096}, on));
    return d;
  };
  const auto reference = draws(xp::cpu(0));
  const auto d = draws(device);
  for (std::size_t k = 0; k < d.size(); ++k) {
    CAPTURE(k);
    CHECK(same_bits(d[k], reference[k]));
  }
}
