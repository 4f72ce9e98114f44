// The transcendental functions of real floats, which CPUs with AVX2 compute with glibc's libmvec
// (cpu/vector_math.hpp) and GPUs with CUDA's functions: within 4 ulp of a reference computed in a wider
// type over values of every magnitude and sign; special values (zeros, infinities, NaN, the edges of each
// domain) as glibc's scalar functions give them; and an element's result the same bits however it is
// reached (contiguous, strided, broadcast, alone, or in float16, which computes in float).
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "xp/xp.hpp"

namespace {

using Array = xp::ndarray<>;

struct MathCase {
  std::string name;
  std::function<Array(const Array&, const Array&)> function;  // the second operand: binary functions only
  std::function<long double(long double, long double)> reference;
  bool binary = false;
};

#define XP_UNARY_CASE(f, std_f)                                       \
  MathCase {                                                          \
    #f, [](const Array& x, const Array&) { return Array(xp::f(x)); }, \
        [](long double x, long double) { return std::std_f(x); }      \
  }
#define XP_BINARY_CASE(f, std_f)                                            \
  MathCase {                                                                \
    #f, [](const Array& x, const Array& y) { return Array(xp::f(x, y)); },  \
        [](long double x, long double y) { return std::std_f(x, y); }, true \
  }

std::vector<MathCase> math_cases() {
  return {XP_UNARY_CASE(exp, exp),       XP_UNARY_CASE(exp2, exp2),     XP_UNARY_CASE(expm1, expm1),
          XP_UNARY_CASE(log, log),       XP_UNARY_CASE(log2, log2),     XP_UNARY_CASE(log10, log10),
          XP_UNARY_CASE(log1p, log1p),   XP_UNARY_CASE(sin, sin),       XP_UNARY_CASE(cos, cos),
          XP_UNARY_CASE(tan, tan),       XP_UNARY_CASE(arcsin, asin),   XP_UNARY_CASE(arccos, acos),
          XP_UNARY_CASE(arctan, atan),   XP_UNARY_CASE(sinh, sinh),     XP_UNARY_CASE(cosh, cosh),
          XP_UNARY_CASE(tanh, tanh),     XP_UNARY_CASE(arcsinh, asinh), XP_UNARY_CASE(arccosh, acosh),
          XP_UNARY_CASE(arctanh, atanh), XP_UNARY_CASE(cbrt, cbrt),     XP_BINARY_CASE(arctan2, atan2),
          XP_BINARY_CASE(hypot, hypot)};
}

// Random values of every magnitude the type has (log-uniform), of both signs, and small ones about each
// function's interesting range, followed by the special values.
template <class T>
std::vector<T> values_of_every_magnitude(std::size_t count, unsigned seed) {
  std::mt19937_64 engine(seed);
  const double lowest = std::log2(double(std::numeric_limits<T>::denorm_min()));
  const double highest = std::log2(double(std::numeric_limits<T>::max()));
  std::uniform_real_distribution<double> exponent(lowest, highest), small(-4, 4);
  std::vector<T> values;
  for (std::size_t i = 0; i < count; ++i) {
    const double sign = i % 2 ? -1 : 1;
    values.push_back(static_cast<T>(i % 3 ? sign * std::exp2(exponent(engine)) : small(engine)));
  }
  constexpr T inf = std::numeric_limits<T>::infinity();
  for (T special : {T(0), -T(0), inf, -inf, std::numeric_limits<T>::quiet_NaN(), T(1), -T(1), T(2), T(0.5), -T(0.5),
                    std::numeric_limits<T>::denorm_min(), std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                    std::numeric_limits<T>::lowest()})
    values.push_back(special);
  return values;
}

// got against the reference rounded to T: NaN for NaN, infinities and zeros exactly (the sign included),
// others within 4 ulp (NumPy's differential test's bound).
template <class T>
bool close_to(T got, long double wanted_wide) {
  const T wanted = static_cast<T>(wanted_wide);
  if (std::isnan(wanted)) return std::isnan(got);
  if (std::isinf(wanted) || wanted == 0) return got == wanted && std::signbit(got) == std::signbit(wanted);
  const T eps = std::numeric_limits<T>::epsilon();
  return std::fabs(double(got) - double(wanted)) <=
         4 * double(eps) * std::fabs(double(wanted)) + 4 * double(std::numeric_limits<T>::min());
}

template <class T>
void check_against_reference(const MathCase& c, xp::Device device) {
  const std::vector<T> x = values_of_every_magnitude<T>(20000, 1), y = values_of_every_magnitude<T>(20000, 2);
  const auto n = static_cast<std::int64_t>(x.size());
  const Array xs = xp::array<T>(x, {n}, device), ys = xp::array<T>(y, {n}, device);
  const std::vector<T> got = c.function(xs, ys).template as<T>().to_vector();
  int wrong = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const long double wanted = c.reference(x[i], y[i]);
    if (close_to(got[i], wanted) || ++wrong > 5) continue;
    CAPTURE(i);
    CAPTURE(x[i]);
    CAPTURE(y[i]);
    CAPTURE(got[i]);
    CAPTURE(static_cast<T>(wanted));
    CHECK(false);
  }
  CHECK(wrong == 0);
}

template <class T>
std::vector<T> elements(const Array& a) {
  return a.template as<T>().to_vector();
}

// Equal bits, so that NaN results compare too.
template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

// The results of x's elements (and y's) reached every other way equal the contiguous loop's, bit for bit.
template <class T>
void check_positions_do_not_matter(const MathCase& c, xp::Device device) {
  const std::vector<T> x = values_of_every_magnitude<T>(986, 3), y = values_of_every_magnitude<T>(986, 4);
  const std::int64_t n = 1000;  // 40 x 25: the special values are the last 14
  const Array xs = xp::array<T>(x, {40, 25}, device), ys = xp::array<T>(y, {40, 25}, device);
  const std::vector<T> contiguous = elements<T>(c.function(xs, ys));
  CHECK(same_bits(elements<T>(c.function(xs.transpose(), ys.transpose()).transpose()), contiguous));
  const Array x_flat = xs.reshape({n}), y_flat = ys.reshape({n});
  const std::vector<T> every_third = elements<T>(c.function(x_flat(xp::slice(1, n, 3)), y_flat(xp::slice(1, n, 3))));
  std::vector<T> wanted_thirds;
  for (std::int64_t i = 1; i < n; i += 3) wanted_thirds.push_back(contiguous[i]);
  CHECK(same_bits(every_third, wanted_thirds));
  for (std::int64_t i : {0, 7, 999}) {
    const Array xi = xp::array<T>({x[i]}, {1}, device), yi = xp::array<T>({y[i]}, {1}, device);
    CHECK(same_bits(elements<T>(c.function(xi, yi)), {contiguous[i]}));
  }
  if (!c.binary) return;
  // Broadcast: x's first 25 elements as a column against y's first row (a zero step in the loop).
  const std::vector<T> table = elements<T>(c.function(x_flat(xp::slice(0, 25)).reshape({25, 1}), ys(0)));
  for (std::int64_t r : {0, 3, 24}) {
    const std::vector<T> want = elements<T>(c.function(xp::array<T>({x[r]}, {1}, device), ys(0)));
    CHECK(same_bits(std::vector<T>(table.begin() + r * 25, table.begin() + (r + 1) * 25), want));
  }
}

}  // namespace

XP_TEST_ON_DEVICES("vector math: float32 and float64 within 4 ulp of a wider reference; special values as glibc's") {
  for (const MathCase& c : math_cases()) {
    CAPTURE(c.name);
    check_against_reference<float>(c, device);
    check_against_reference<double>(c, device);
  }
}

XP_TEST_ON_DEVICES("vector math: an element's result does not depend on its place, its array's length or layout") {
  for (const MathCase& c : math_cases()) {
    CAPTURE(c.name);
    check_positions_do_not_matter<float>(c, device);
    check_positions_do_not_matter<double>(c, device);
  }
}

XP_TEST_ON_DEVICES("vector math: float16 and bfloat16 are the float results rounded once") {
  const std::vector<float> x = values_of_every_magnitude<float>(3000, 5), y = values_of_every_magnitude<float>(3000, 6);
  const auto n = static_cast<std::int64_t>(x.size());
  for (xp::dtype narrow : {xp::dtype::float16, xp::dtype::bfloat16}) {
    CAPTURE(xp::dtype_name(narrow));
    // Inputs that the narrow type holds exactly, so that both sides compute from the same floats.
    const Array xs = Array(xp::array<float>(x, {n}, device)).astype(narrow);
    const Array ys = Array(xp::array<float>(y, {n}, device)).astype(narrow);
    for (const MathCase& c : math_cases()) {
      CAPTURE(c.name);
      const Array narrow_result = c.function(xs, ys);
      REQUIRE(narrow_result.dtype() == narrow);
      const Array float_result = c.function(xs.astype(xp::dtype::float32), ys.astype(xp::dtype::float32));
      const std::vector<float> got = elements<float>(narrow_result.astype(xp::dtype::float32));
      const std::vector<float> want = elements<float>(float_result.astype(narrow).astype(xp::dtype::float32));
      int wrong = 0;
      for (std::size_t i = 0; i < got.size(); ++i)
        wrong += !(got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i])));
      CHECK(wrong == 0);
    }
  }
}
