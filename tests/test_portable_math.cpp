// The random samplers' own log, exp, log1p and log k! (kernels/xp/kernels/portable_math.hpp): within the
// 2 ulp the header promises, against long double references, over every magnitude, and their special values.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "xp/kernels/portable_math.hpp"

namespace {

// |computed - exact| in units of the last place of the double nearest the exact value.
double ulps(double computed, long double exact) {
  const double nearest = static_cast<double>(exact);
  const double ulp = std::nextafter(std::fabs(nearest), std::numeric_limits<double>::infinity()) - std::fabs(nearest);
  return static_cast<double>(std::fabs(static_cast<long double>(computed) - exact) / ulp);
}

template <class F, class Reference>
double worst_ulps(double low_exponent, double high_exponent, bool negative_too, F f, Reference reference) {
  std::mt19937_64 engine(12345);
  std::uniform_real_distribution<double> exponent(low_exponent, high_exponent);
  double worst = 0;
  for (int i = 0; i < 200000; ++i) {
    double x = std::exp2(exponent(engine));
    if (negative_too && (i & 1)) x = -x;
    worst = std::max(worst, ulps(f(x), reference(static_cast<long double>(x))));
  }
  return worst;
}

}  // namespace

TEST_CASE("portable log, exp, log1p and log k! are within 2 ulp") {
  using namespace xp::kernels;
  CHECK(worst_ulps(-1074, 1023, false, portable_log, [](long double x) { return std::log(x); }) < 2);
  CHECK(worst_ulps(-1, 1, false, portable_log, [](long double x) { return std::log(x); }) < 2);  // near 1
  CHECK(worst_ulps(-30, 9.47, true, portable_exp, [](long double x) { return std::exp(x); }) < 2);
  CHECK(worst_ulps(
            -60, 8, true, [](double x) { return portable_log1p(x < -1 ? -x / 1024 : x); },
            [](long double x) { return std::log1p(x < -1 ? -x / 1024 : x); }) < 2);
  CHECK(log_factorial(0) == 0);
  CHECK(log_factorial(1) == 0);
  for (int k = 2; k < 1000; k += 7) {
    CAPTURE(k);
    CHECK(ulps(log_factorial(k), std::lgamma(static_cast<long double>(k) + 1)) < 2);
  }
}

TEST_CASE("portable log and exp keep the special values") {
  using namespace xp::kernels;
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(portable_log(0.0) == -inf);
  CHECK(std::isnan(portable_log(-1.0)));
  CHECK(portable_log(inf) == inf);
  CHECK(portable_log(1.0) == 0);
  CHECK(portable_log(0x1p-1074) == doctest::Approx(-744.44007192138126));
  CHECK(portable_exp(0.0) == 1);
  CHECK(portable_exp(710.0) == inf);
  CHECK(portable_exp(-746.0) == 0);
  CHECK(portable_exp(-745.0) == 0x1p-1074);  // subnormal results round once
  CHECK(std::isnan(portable_exp(std::nan(""))));
  CHECK(portable_log1p(0x1p-60) == 0x1p-60);
  CHECK(portable_log1p(-1.0) == -inf);
}
