#pragma once
// Statistical checks of random samples, with thresholds a correct sampler exceeds less than once in
// 10^6 runs (the tests use fixed seeds, so a run is reproducible): a Kolmogorov-Smirnov test of
// continuous samples against their CDF, a chi-square test of integer samples against their
// probabilities, moments within standard errors; and a bitwise comparison of arrays.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <vector>

#include "xp/xp.hpp"

// The sanitizer builds (-O0) check memory and threads, not statistics: they draw a tenth as many
// samples (the same false-failure level, less power); the test command's optimised build draws 10^6.
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define XP_RANDOM_CHECKS_SANITIZED
#endif
#endif
#ifdef XP_RANDOM_CHECKS_SANITIZED
inline constexpr std::int64_t kSamples = 100'000;
#else
inline constexpr std::int64_t kSamples = 1'000'000;
#endif

// sqrt(n) D of a sample against `cdf`. Above 2.7 with probability 2 exp(-2 2.7^2) < 10^-6.
inline double ks_statistic(std::vector<double> x, const std::function<double(double)>& cdf) {
  std::sort(x.begin(), x.end());
  const auto n = static_cast<double>(x.size());
  double d = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double f = cdf(x[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
  }
  return d * std::sqrt(n);
}

template <class T>
std::vector<double> as_doubles(const xp::ndarray<T>& a) {
  const std::vector<T> values = a.to_vector();
  return {values.begin(), values.end()};
}

// Mean and variance within 5.5 standard errors (the variance's from the sample's fourth moment).
inline void check_moments(const std::vector<double>& x, double mean, double variance) {
  const auto n = static_cast<double>(x.size());
  double m = 0;
  for (const double v : x) m += v;
  m /= n;
  double m2 = 0, m4 = 0;
  for (const double v : x) {
    const double d = (v - m) * (v - m);
    m2 += d;
    m4 += d * d;
  }
  m2 /= n;
  m4 /= n;
  CHECK(std::abs(m - mean) < 5.5 * std::sqrt(variance / n));
  CHECK(std::abs(m2 - variance) < 5.5 * std::sqrt((m4 - m2 * m2) / n) + 1e-12);
}

inline void check_continuous(const std::vector<double>& x, const std::function<double(double)>& cdf) {
  CHECK(ks_statistic(x, cdf) < 2.7);
}

// The chi-square test of integer samples against probabilities pmf(k), over the values expected at
// least 20 times and one bin for the rest. The threshold is Wilson and Hilferty's approximation of the
// chi-square quantile at 1 - 10^-6 (z = 4.753).
inline void check_discrete(const std::vector<std::int64_t>& x, const std::function<double(std::int64_t)>& pmf,
                           std::int64_t first, std::int64_t last) {
  std::map<std::int64_t, double> counts;
  for (const std::int64_t v : x) counts[v] += 1;
  const auto n = static_cast<double>(x.size());
  double statistic = 0, rest_expected = n, rest_seen = n;
  int bins = 0;
  for (std::int64_t k = first; k <= last; ++k) {
    const double expected = n * pmf(k);
    if (expected < 20) continue;
    const double seen = counts.count(k) ? counts[k] : 0;
    statistic += (seen - expected) * (seen - expected) / expected;
    rest_expected -= expected;
    rest_seen -= seen;
    ++bins;
  }
  if (rest_expected >= 20) {
    statistic += (rest_seen - rest_expected) * (rest_seen - rest_expected) / rest_expected;
    ++bins;
  } else {
    CHECK(rest_seen <= rest_expected + 30);
  }
  const double df = bins - 1, h = 2 / (9 * df);
  CHECK(statistic < df * std::pow(1 - h + 4.753 * std::sqrt(h), 3));
}

// Whether two arrays hold the same bytes (a copy on the host of each).
inline bool same_bits(const xp::ndarray<>& a, const xp::ndarray<>& b) {
  const xp::ndarray<> x = xp::to_cpu(a), y = xp::to_cpu(b);
  return x.dtype() == y.dtype() && x.shape() == y.shape() && std::memcmp(x.data(), y.data(), x.nbytes()) == 0;
}
