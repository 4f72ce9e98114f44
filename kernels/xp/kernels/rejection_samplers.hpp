#pragma once
// The distributions sampled by rejection (gamma and those made of it, Poisson, binomial): a sample
// takes a whole block of the generator's stream and continues in its own stream when it rejects
// (philox.hpp), so its value never depends on its neighbours or on how the work is split.
#ifndef __CUDACC_RTC__
#include <cstdint>
#endif

#include "xp/host_device.hpp"
#include "xp/kernels/philox.hpp"
#include "xp/kernels/portable_math.hpp"
#include "xp/kernels/ziggurat.hpp"

namespace xp::kernels {

// Gamma(shape, 1) by Marsaglia and Tsang ("A simple method for generating gamma variables", 2000):
// for shape >= 1 a cubed shifted normal, accepted by a squeeze or by the log test; below 1,
// Gamma(shape + 1) U^(1 / shape).
struct GammaShape {
  double shape, d, c;  // d = shape' - 1/3, c = 1 / sqrt(9 d), shape' = max(shape, shape + 1)

  static GammaShape of(double shape) {
    const double d = (shape < 1 ? shape + 1 : shape) - 1.0 / 3;
    return {shape, d, 1 / __builtin_sqrt(9 * d)};
  }

  // Whether the log test log u < x^2/2 + d (1 - v + log v) holds by a margin beyond its rounding, by
  // bounds without logarithms: log u <= u - 1, and log v = 6 atanh(s), s = (y - 1) / (y + 1), y = 1 + c x,
  // at least 6 (s + s^3/3), less 6 s^5 / (5 (1 - s^2)) when s < 0 (the series' tail). Most samples the
  // squeeze refuses pass here, so the test's two logarithms are rarely needed; the result is the same.
  XP_HOST_DEVICE bool surely_accepted(double u, double x, double x2, double v) const {
    const double t = c * x, s = t / (2 + t), s2 = s * s;
    if (s2 > 0.5) return false;
    double log_v = 6 * s * (1 + s2 / 3);
    if (s < 0) log_v += 6 * s * s2 * s2 / (5 * (1 - s2));
    const double margin = 1e-12 * (1 + x2 + d * (1 + v));
    return u - 1 < 0.5 * x2 + d * (1 - v + log_v) - margin;
  }

  XP_HOST_DEVICE double operator()(SampleBits& bits, const ZigguratTables& tables) const {
    if (shape == 0) return 0;
    double value;
    for (;;) {
      const double x = ziggurat_normal<double>(bits, tables);
      double v = 1 + c * x;
      if (v <= 0) continue;
      v = v * v * v;
      const double u = open_unit_interval<double>(bits), x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2 || surely_accepted(u, x, x2, v) ||
          portable_log(u) < 0.5 * x2 + d * (1 - v + portable_log(v))) {
        value = d * v;
        break;
      }
    }
    if (shape >= 1) return value;
    return value * portable_exp(portable_log(open_unit_interval<double>(bits)) / shape);
  }
};

// What is made of gamma numbers: gamma(shape, scale), chisquare(df) = 2 gamma(df / 2),
// standard_t(df) = normal sqrt(df / 2) / sqrt(gamma(df / 2)).
enum class GammaKind : std::uint8_t { gamma, chisquare, standard_t };

template <class T>
struct GammaSampler {
  using result_type = T;
  static constexpr int words = 4;
  const ZigguratTables* tables;
  GammaKind kind;
  GammaShape gamma;
  double scale;
  XP_HOST_DEVICE T operator()(SampleBits& bits) const {
    if (kind == GammaKind::standard_t) {
      const double numerator = ziggurat_normal<double>(bits, *tables);
      return static_cast<T>(scale * numerator / __builtin_sqrt(gamma(bits, *tables)));
    }
    return static_cast<T>(scale * gamma(bits, *tables));
  }
  // The first try of Marsaglia and Tsang's loop (shape >= 1, accepted by the squeeze) from the block's
  // words: the normal from the first two, the uniform from the last two, as operator() reads them.
  XP_HOST_DEVICE bool try_first(const std::uint32_t* first_words, T& value) const {
    value = 0;
    if (kind == GammaKind::standard_t || gamma.shape < 1) return false;
    double x;
    const bool inside = ziggurat_first_try(first_words, *tables, x);
    const double v = 1 + gamma.c * x, cube = v * v * v, x2 = x * x;
    const double u = open_unit_interval_of<double>(first_words + 2);
    value = static_cast<T>(scale * (gamma.d * cube));
    return inside & (v > 0) & (u < 1 - 0.0331 * x2 * x2);
  }
};

// Beta(a, b): Johnk's algorithm when both are at most 1 (in logarithms, where U^(1/a) underflows),
// else X / (X + Y) of gamma numbers.
template <class T>
struct BetaSampler {
  using result_type = T;
  static constexpr int words = 4;
  const ZigguratTables* tables;
  GammaShape a, b;
  XP_HOST_DEVICE T operator()(SampleBits& bits) const {
    if (a.shape > 1 || b.shape > 1) {
      const double x = a(bits, *tables), y = b(bits, *tables);
      return static_cast<T>(x / (x + y));
    }
    for (;;) {
      const double log_x = portable_log(open_unit_interval<double>(bits)) / a.shape;
      const double log_y = portable_log(open_unit_interval<double>(bits)) / b.shape;
      const double x = portable_exp(log_x), y = portable_exp(log_y), sum = x + y;
      if (sum > 1) continue;
      if (sum > 0) return static_cast<T>(x / sum);
      const double largest = log_x > log_y ? log_x : log_y;  // both underflowed: scale them first
      const double sx = portable_exp(log_x - largest), sy = portable_exp(log_y - largest);
      return static_cast<T>(sx / (sx + sy));
    }
  }
};

// Poisson(lambda): the product of uniforms below 10 (Knuth), Hormann's PTRS above ("The transformed
// rejection method for generating Poisson random variables", 1993).
struct PoissonSampler {
  using result_type = std::int64_t;
  static constexpr int words = 4;
  double lambda, exp_minus_lambda, log_lambda, a, b, inverse_alpha, accept_below;

  static PoissonSampler of(double lambda) {
    const double b = 0.931 + 2.53 * __builtin_sqrt(lambda);
    return {lambda,
            portable_exp(-lambda),
            lambda > 0 ? portable_log(lambda) : 0,
            -0.059 + 0.02483 * b,
            b,
            1.1239 + 1.1328 / (b - 3.4),
            0.9277 - 3.6224 / (b - 2)};
  }

  XP_HOST_DEVICE std::int64_t operator()(SampleBits& bits) const {
    if (lambda < 10) {
      std::int64_t k = 0;
      for (double product = unit_interval<double>(bits); product > exp_minus_lambda; ++k)
        product *= unit_interval<double>(bits);
      return k;
    }
    for (;;) {
      const double u = unit_interval<double>(bits) - 0.5, v = unit_interval<double>(bits);
      const double us = 0.5 - __builtin_fabs(u);
      const double k = __builtin_floor((2 * a / us + b) * u + lambda + 0.43);
      if (us >= 0.07 && v <= accept_below) return static_cast<std::int64_t>(k);
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (portable_log(v) + portable_log(inverse_alpha) - portable_log(a / (us * us) + b) <=
          -lambda + k * log_lambda - log_factorial(k))
        return static_cast<std::int64_t>(k);
    }
  }
};

// Binomial(n, p) with p <= 1/2 drawn (n - X for p > 1/2): inversion while n p < 10, else Hormann's
// BTRS ("The generation of binomial random variates", 1993).
struct BinomialSampler {
  using result_type = std::int64_t;
  static constexpr int words = 4;
  std::int64_t n;
  bool flipped;
  double p, q_to_n, odds, spq, a, b, c, alpha, accept_below, log_odds, mode, h;

  XP_HOST_DEVICE static BinomialSampler of(std::int64_t n, double p);
  XP_HOST_DEVICE std::int64_t operator()(SampleBits& bits) const {
    const std::int64_t k = n * p < 10 ? by_inversion(bits) : by_rejection(bits);
    return flipped ? n - k : k;
  }

 private:
  XP_HOST_DEVICE std::int64_t by_inversion(SampleBits& bits) const {
    const double bound = n * p + 10 * __builtin_sqrt(n * p * (1 - p) + 1);
    for (;;) {
      double u = unit_interval<double>(bits), probability = q_to_n;
      std::int64_t k = 0;
      while (u > probability) {
        u -= probability;
        ++k;
        if (k > bound || k > n) break;
        probability *= odds * (static_cast<double>(n - k + 1) / static_cast<double>(k));
      }
      if (k <= bound && k <= n) return k;
    }
  }

  XP_HOST_DEVICE std::int64_t by_rejection(SampleBits& bits) const {
    for (;;) {
      const double u = unit_interval<double>(bits) - 0.5, v = unit_interval<double>(bits);
      const double us = 0.5 - __builtin_fabs(u);
      const double k = __builtin_floor((2 * a / us + b) * u + c);
      if (k < 0 || k > static_cast<double>(n)) continue;
      if (us >= 0.07 && v <= accept_below) return static_cast<std::int64_t>(k);
      const double log_v = portable_log(v * alpha / (a / (us * us) + b));
      if (log_v <= h - log_factorial(k) - log_factorial(static_cast<double>(n) - k) + (k - mode) * log_odds)
        return static_cast<std::int64_t>(k);
    }
  }
};

XP_HOST_DEVICE inline BinomialSampler BinomialSampler::of(std::int64_t n, double p) {
  const bool flipped = p > 0.5;
  const double small = flipped ? 1 - p : p, q = 1 - small, trials = static_cast<double>(n);
  const double spq = __builtin_sqrt(trials * small * q), b = 1.15 + 2.53 * spq;
  const double mode = __builtin_floor((trials + 1) * small);
  return {n,
          flipped,
          small,
          portable_exp(trials * portable_log1p(-small)),
          small / q,
          spq,
          -0.0873 + 0.0248 * b + 0.01 * small,
          b,
          trials * small + 0.5,
          (2.83 + 5.1 / b) * spq,
          0.92 - 4.2 / b,
          small > 0 ? portable_log(small / q) : 0,
          mode,
          log_factorial(mode) + log_factorial(trials - mode)};
}

// Binomial(trials[i], p) for sample i: the columns of multinomial counts, whose trials are what the
// columns before left.
struct BinomialOfCountsSampler {
  using result_type = std::int64_t;
  static constexpr int words = 4;
  const std::int64_t* trials;
  double p;
  XP_HOST_DEVICE std::int64_t operator()(SampleBits& bits, std::int64_t i) const {
    return BinomialSampler::of(trials[i], p)(bits);
  }
};

}  // namespace xp::kernels
