// The Generator's distributions: each sampler against its distribution (random_checks.hpp), the same
// bits on every device and thread count, NumPy's argument errors.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>
#include <vector>

#include "device_cases.hpp"
#include "omp_threads.hpp"
#include "random_checks.hpp"
#include "xp/kernels/rejection_samplers.hpp"

namespace {

constexpr double kPi = std::numbers::pi;

double normal_cdf(double z) { return 0.5 * std::erfc(-z / std::sqrt(2.0)); }

double log_binomial_pmf(std::int64_t n, double p, std::int64_t k) {
  return std::lgamma(n + 1.0) - std::lgamma(k + 1.0) - std::lgamma(n - k + 1.0) + k * std::log(p) +
         (n - k) * std::log1p(-p);
}

}  // namespace

TEST_CASE("uniform, normal and lognormal numbers follow their distributions") {
  auto g = xp::random::default_rng(101);
  check_continuous(as_doubles(g.uniform(2, 5, {kSamples})), [](double x) { return (x - 2) / 3; });
  check_continuous(as_doubles(g.random<float>({kSamples})), [](double x) { return x; });
  const auto normal = as_doubles(g.normal(-1, 3, {kSamples}));
  check_continuous(normal, [](double x) { return normal_cdf((x + 1) / 3); });
  check_moments(normal, -1, 9);
  const auto normal32 = as_doubles(g.standard_normal<float>({kSamples}));
  check_continuous(normal32, normal_cdf);
  check_moments(normal32, 0, 1);
  // The ziggurat's tail beyond r = 3.654 and its wedges are where a sampler goes wrong first.
  std::vector<double> tail;
  for (const double z : normal) tail.push_back(std::abs(z + 1) / 3);
  const double beyond_r =
      static_cast<double>(std::count_if(tail.begin(), tail.end(), [](double z) { return z > 3.6541528853610088; }));
  const double expected = kSamples * 2 * (1 - normal_cdf(3.6541528853610088));
  CHECK(std::abs(beyond_r - expected) < 5.5 * std::sqrt(expected));
  const auto lognormal = as_doubles(g.lognormal(0.5, 0.75, {kSamples}));
  check_continuous(lognormal, [](double x) { return normal_cdf((std::log(x) - 0.5) / 0.75); });
}

TEST_CASE("exponential, laplace, logistic, gumbel and weibull numbers follow their distributions") {
  auto g = xp::random::default_rng(202);
  const auto exponential = as_doubles(g.exponential(2, {kSamples}));
  check_continuous(exponential, [](double x) { return -std::expm1(-x / 2); });
  check_moments(exponential, 2, 4);
  check_continuous(as_doubles(g.standard_exponential<float>({kSamples})), [](double x) { return -std::expm1(-x); });
  const auto laplace = as_doubles(g.laplace(1, 2, {kSamples}));
  check_continuous(laplace,
                   [](double x) { return x < 1 ? 0.5 * std::exp((x - 1) / 2) : 1 - 0.5 * std::exp(-(x - 1) / 2); });
  check_moments(laplace, 1, 8);
  const auto logistic = as_doubles(g.logistic(1, 2, {kSamples}));
  check_continuous(logistic, [](double x) { return 1 / (1 + std::exp(-(x - 1) / 2)); });
  check_moments(logistic, 1, kPi * kPi * 4 / 3);
  const auto gumbel = as_doubles(g.gumbel(1, 2, {kSamples}));
  check_continuous(gumbel, [](double x) { return std::exp(-std::exp(-(x - 1) / 2)); });
  check_moments(gumbel, 1 + 2 * std::numbers::egamma, kPi * kPi * 4 / 6);
  const auto weibull = as_doubles(g.weibull(1.5, {kSamples}));
  check_continuous(weibull, [](double x) { return -std::expm1(-std::pow(x, 1.5)); });
  check_moments(weibull, std::tgamma(1 + 1 / 1.5), std::tgamma(1 + 2 / 1.5) - std::pow(std::tgamma(1 + 1 / 1.5), 2));
  CHECK(xp::all(g.weibull(0, {5}) == 0.0).item());
}

TEST_CASE("gamma, chisquare, standard_t and beta numbers follow their distributions") {
  auto g = xp::random::default_rng(303);
  const auto gamma2 = as_doubles(g.gamma(2, 3, {kSamples}));  // Marsaglia and Tsang's main path
  check_continuous(gamma2, [](double x) { return 1 - std::exp(-x / 3) * (1 + x / 3); });
  check_moments(gamma2, 6, 18);
  const auto gamma_half = as_doubles(g.standard_gamma(0.5, {kSamples}));  // the boost below shape 1
  check_continuous(gamma_half, [](double x) { return std::erf(std::sqrt(x)); });
  check_moments(as_doubles(g.standard_gamma<float>(9.5, {kSamples})), 9.5, 9.5);
  CHECK(xp::all(g.standard_gamma(0, {5}) == 0.0).item());
  check_continuous(as_doubles(g.chisquare(4, {kSamples})), [](double x) { return 1 - std::exp(-x / 2) * (1 + x / 2); });
  check_continuous(as_doubles(g.chisquare(1, {kSamples})), [](double x) { return std::erf(std::sqrt(x / 2)); });
  check_continuous(as_doubles(g.standard_t(1, {kSamples})), [](double x) { return 0.5 + std::atan(x) / kPi; });
  check_continuous(as_doubles(g.standard_t(2, {kSamples})),
                   [](double x) { return 0.5 + x / (2 * std::sqrt(2 + x * x)); });
  check_moments(as_doubles(g.standard_t(10, {kSamples})), 0, 10.0 / 8);
  const auto beta23 = as_doubles(g.beta(2, 3, {kSamples}));  // from gamma numbers
  check_continuous(beta23, [](double x) { return x * x * (6 - 8 * x + 3 * x * x); });
  check_moments(beta23, 0.4, 6.0 / 150);
  const auto arcsine = as_doubles(g.beta(0.5, 0.5, {kSamples}));  // Johnk's algorithm
  check_continuous(arcsine, [](double x) { return 2 / kPi * std::asin(std::sqrt(x)); });
  check_moments(as_doubles(g.beta(0.3, 0.7, {kSamples})), 0.3, 0.21 / 2);
  // Shapes so small that U^(1/a) underflows still give numbers in [0, 1].
  const auto tiny = g.beta(1e-3, 1e-3, {1000});
  CHECK(xp::all(xp::logical_and(tiny >= 0.0, tiny <= 1.0)).item());
}

TEST_CASE("gamma's test without logarithms accepts only what the log test accepts") {
  // Over the samples the squeeze refuses (u in [1 - 0.0331 x^4, 1)), at shapes from 1 to 1e9.
  std::mt19937_64 engine(7);
  std::normal_distribution<double> normal;
  std::uniform_real_distribution<double> uniform(0, 1);
  for (const double shape : {1.0, 2.0, 30.0, 1e6, 1e9}) {
    CAPTURE(shape);
    const auto g = xp::kernels::GammaShape::of(shape);
    std::int64_t accepted = 0, wrong = 0, log_test_accepted = 0;
    for (std::int64_t i = 0; i < kSamples; ++i) {
      const double x = normal(engine), y = 1 + g.c * x, x2 = x * x;
      const double refused_below = 1 - 0.0331 * x2 * x2, u = std::max(refused_below, 0.0) + uniform(engine);
      if (y <= 0 || u >= 1 || u <= 0) continue;
      const double v = y * y * y;
      const bool log_test = xp::kernels::portable_log(u) < 0.5 * x2 + g.d * (1 - v + xp::kernels::portable_log(v));
      log_test_accepted += log_test;
      if (!g.surely_accepted(u, x, x2, v)) continue;
      ++accepted;
      wrong += !log_test;
    }
    CHECK(wrong == 0);
    // It spares most of them the logarithms (its margin for rounding grows with the shape).
    if (shape <= 1000) CHECK(static_cast<double>(accepted) >= 0.9 * static_cast<double>(log_test_accepted));
  }
}

TEST_CASE("integers, bernoulli, geometric, poisson and binomial counts follow their distributions") {
  auto g = xp::random::default_rng(404);
  const auto ten = g.integers<std::int32_t>(-3, 7, {kSamples}).to_vector();
  check_discrete({ten.begin(), ten.end()}, [](std::int64_t k) { return k >= -3 && k < 7 ? 0.1 : 0; }, -5, 8);
  const auto die = g.integers<std::uint8_t>(1, 6, {kSamples}, true).to_vector();
  check_discrete({die.begin(), die.end()}, [](std::int64_t k) { return k >= 1 && k <= 6 ? 1 / 6.0 : 0; }, 0, 7);
  // Ranges up to 2^16 take half a word: of its 2^16 values, 2^16 mod 40000 must be rejected, or the 25536
  // numbers that two halves reach would be twice as likely as the 14464 that one reaches.
  const auto mid = g.integers<std::int32_t>(0, 40000, {kSamples}).to_vector();
  std::vector<std::int64_t> reached_twice;
  for (const std::int64_t v : mid) {
    const auto reaching = [](std::int64_t k) { return (k * 65536 + 39999) / 40000; };  // ceil(k 2^16 / 40000)
    reached_twice.push_back(v < 0 || v >= 40000 ? -1 : reaching(v + 1) - reaching(v) == 2);
  }
  check_discrete(reached_twice, [](std::int64_t k) { return k == 1 ? 0.6384 : k == 0 ? 0.3616 : 0; }, -1, 1);
  // The whole of uint32 (every word a number): its top 4 bits are uniform.
  const auto words = g.integers<std::uint32_t>(0, std::int64_t{1} << 32, {kSamples}).to_vector();
  std::vector<std::int64_t> word_tops;
  for (const std::uint32_t v : words) word_tops.push_back(v >> 28);
  check_discrete(word_tops, [](std::int64_t k) { return k >= 0 && k < 16 ? 1 / 16.0 : 0; }, 0, 15);
  // A range beyond 32 bits: its top 4 bits are uniform.
  const auto wide = g.integers(0, std::int64_t{1} << 40, {kSamples}).to_vector();
  std::vector<std::int64_t> top;
  for (const std::int64_t v : wide) top.push_back(v >> 36);
  check_discrete(top, [](std::int64_t k) { return k >= 0 && k < 16 ? 1 / 16.0 : 0; }, 0, 15);
  const auto coin = g.bernoulli<std::int64_t>(0.3, {kSamples}).to_vector();
  check_discrete(coin, [](std::int64_t k) { return k == 1 ? 0.3 : k == 0 ? 0.7 : 0; }, 0, 1);
  check_discrete(
      g.geometric(0.2, {kSamples}).to_vector(), [](std::int64_t k) { return k < 1 ? 0 : 0.2 * std::pow(0.8, k - 1); },
      0, 200);
  const auto poisson = [](double lam) {
    return [lam](std::int64_t k) { return k < 0 ? 0 : std::exp(k * std::log(lam) - lam - std::lgamma(k + 1.0)); };
  };
  check_discrete(g.poisson(3.5, {kSamples}).to_vector(), poisson(3.5), 0, 60);  // Knuth's products
  check_discrete(g.poisson(40, {kSamples}).to_vector(), poisson(40), 0, 200);  // PTRS
  const auto binomial = [](std::int64_t n, double p) {
    return [n, p](std::int64_t k) { return k < 0 || k > n ? 0 : std::exp(log_binomial_pmf(n, p, k)); };
  };
  check_discrete(g.binomial(20, 0.3, {kSamples}).to_vector(), binomial(20, 0.3), 0, 20);  // inversion
  check_discrete(g.binomial(200, 0.6, {kSamples}).to_vector(), binomial(200, 0.6), 0, 200);  // BTRS, flipped
  check_discrete(g.binomial(1000, 0.02, {kSamples}).to_vector(), binomial(1000, 0.02), 0, 1000);  // BTRS
  CHECK(xp::all(g.binomial(7, 1.0, {5}) == std::int64_t{7}).item());
  CHECK(xp::all(g.poisson(0, {5}) == std::int64_t{0}).item());
}

XP_TEST_ON_DEVICES("every distribution gives the same bits on every device and thread count") {
  constexpr std::int64_t n = (1 << 17) + 5;  // enough blocks for several threads
  const auto draws = [](xp::random::Generator& g, xp::Device on) {
    std::vector<xp::ndarray<>> d;
    d.emplace_back(g.random<float>({n}, on));
    d.emplace_back(g.normal(1, 2, {n}, on));
    d.emplace_back(g.standard_normal<float>({n}, on));
    d.emplace_back(g.standard_normal<xp::bfloat16>({n}, on));
    d.emplace_back(g.lognormal(0, 1, {n}, on));
    d.emplace_back(g.exponential<float>(2, {n}, on));
    d.emplace_back(g.laplace(0, 1, {n}, on));
    d.emplace_back(g.logistic(0, 1, {n}, on));
    d.emplace_back(g.gumbel(0, 1, {n}, on));
    d.emplace_back(g.weibull(0.7, {n}, on));
    d.emplace_back(g.gamma(2.5, 1, {n}, on));
    d.emplace_back(g.gamma<float>(0.3, 1, {n}, on));
    d.emplace_back(g.chisquare(3, {n}, on));
    d.emplace_back(g.standard_t(5, {n}, on));
    d.emplace_back(g.beta(0.5, 0.7, {n}, on));
    d.emplace_back(g.beta(2, 9, {n}, on));
    d.emplace_back(g.integers<std::int16_t>(-100, 1000, {n}, false, on));
    d.emplace_back(g.integers<std::uint64_t>(0, INT64_MAX, {n}, true, on));
    d.emplace_back(g.bernoulli(0.4, {n}, on));
    d.emplace_back(g.geometric(0.01, {n}, on));
    d.emplace_back(g.poisson(4, {n}, on));
    d.emplace_back(g.poisson(1e5, {n}, on));
    d.emplace_back(g.binomial(30, 0.2, {n}, on));
    d.emplace_back(g.binomial(100000, 0.7, {n}, on));
    return d;
  };
  auto reference_generator = xp::random::default_rng(77);
  const auto reference = with_threads(1, [&] { return draws(reference_generator, xp::cpu(0)); });
  for (const int threads : {2, 3}) {
    CAPTURE(threads);
    auto g = xp::random::default_rng(77);
    const auto d = with_threads(threads, [&] { return draws(g, device); });
    REQUIRE(d.size() == reference.size());
    for (std::size_t k = 0; k < d.size(); ++k) {
      CAPTURE(k);
      CHECK(d[k].device() == device);
      CHECK(d[k].dtype() == reference[k].dtype());
      CHECK(same_bits(d[k], reference[k]));
    }
    CHECK(g.position() == reference_generator.position());
  }
}

TEST_CASE("generators: seeds, positions and spawned streams") {
  auto a = xp::random::default_rng(5), b = xp::random::default_rng(5);
  CHECK(a.key() == 5);
  CHECK(same_bits(a.integers(0, 1000, {10}), b.integers(0, 1000, {10})));
  CHECK(a.position() == 2);  // 10 samples of half a word each (a range below 2^16): 8 to a block
  CHECK(same_bits(a.normal(0, 1, {3}), b.normal(0, 1, {3})));
  auto children = a.spawn(3);
  auto again = b.spawn(3);
  REQUIRE(children.size() == 3);
  std::vector<std::vector<double>> firsts;
  for (std::size_t k = 0; k < 3; ++k) {
    CHECK(children[k].key() == again[k].key());
    CHECK(children[k].position() == 0);
    firsts.push_back(children[k].random({4}).to_vector());
  }
  CHECK(firsts[0] != firsts[1]);
  CHECK(firsts[1] != firsts[2]);
  CHECK(a.spawn(1)[0].key() != children[0].key());  // a second spawn makes new streams
  CHECK(a.random({4}).to_vector() != firsts[0]);
  // The global functions draw from the default generator, which seed() restarts.
  xp::random::seed(5);
  CHECK(xp::random::default_generator().position() == 0);
  CHECK(same_bits(xp::random::uniform(0, 1, {6}), xp::random::default_rng(5).uniform(0, 1, {6})));
}

TEST_CASE("random arguments outside NumPy's domains are ValueErrors naming the value") {
  auto g = xp::random::default_rng(1);
  CHECK_THROWS_WITH_AS(g.normal(0, -1, {3}), "normal: scale < 0 (scale = -1)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.integers(5, 5, {3}), "integers: low >= high (low 5, high 5)", xp::ValueError);
  CHECK(g.integers<std::uint8_t>(5, 300, {0, 2}).shape() == xp::Shape(0, 2));  // NumPy checks nothing when empty
  CHECK_THROWS_WITH_AS(g.integers<std::uint8_t>(0, 300, {3}), "integers: high is out of bounds for uint8 (high 300)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.integers<std::uint8_t>(-1, 3, {3}), "integers: low is out of bounds for uint8 (low -1)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(g.gamma(-1, 1, {3}), "gamma: shape < 0 (shape = -1)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.beta(0, 1, {3}), "beta: a <= 0 (a = 0)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.poisson(-2, {3}), "poisson: lam < 0 or lam is NaN (lam = -2)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.binomial(-1, 0.5, {3}), "binomial: n < 0 (n = -1)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.binomial(3, 1.5, {3}), "binomial: p < 0, p > 1 or p is NaN (p = 1.5)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.geometric(0, {3}), "geometric: p <= 0, p > 1 or p contains NaNs (p = 0)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.chisquare(0, {3}), "chisquare: df <= 0 (df = 0)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.exponential(-1, {3}), "exponential: scale < 0 (scale = -1)", xp::ValueError);
  CHECK_THROWS_WITH_AS(g.uniform(0, INFINITY, {3}), "uniform: high - low range exceeds valid bounds (low 0, high inf)",
                       xp::ValueError);
  CHECK(g.position() == 0);  // nothing was drawn
}
