// NumPy's unary ufuncs beyond the first set: rounding, trigonometric and hyperbolic functions and their
// inverses, exp2/log2/log10, cbrt, degree conversions, square/reciprocal/sign, and the classifying
// predicates; values by hand (NumPy's), dtypes as NumPy's loops give them, errors, and gradients
// against finite differences. The NumPy differential test covers every dtype and layout.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> as_doubles(const xp::ndarray<>& a) { return a.astype(xp::dtype::float64).as<double>().to_vector(); }

void check_close(const std::vector<double>& got, const std::vector<double>& wanted) {
  REQUIRE(got.size() == wanted.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    if (std::isnan(wanted[i])) CHECK(std::isnan(got[i]));
    else if (std::isinf(wanted[i])) CHECK(got[i] == wanted[i]);
    else CHECK(got[i] == doctest::Approx(wanted[i]).epsilon(1e-12));
  }
}

}  // namespace

XP_TEST_ON_DEVICES("ufuncs: rounding keeps integers and bool as they are; floats round as NumPy") {
  const auto x = xp::array<double>({-2.5, -1.5, -0.5, 0.5, 1.5, 2.7, kNan, -kInf}, {8}, device);
  check_close(as_doubles(xp::floor(x)), {-3, -2, -1, 0, 1, 2, kNan, -kInf});
  check_close(as_doubles(xp::ceil(x)), {-2, -1, -0.0, 1, 2, 3, kNan, -kInf});
  check_close(as_doubles(xp::trunc(x)), {-2, -1, -0.0, 0, 1, 2, kNan, -kInf});
  check_close(as_doubles(xp::rint(x)), {-2, -2, -0.0, 0, 2, 3, kNan, -kInf});  // halves to even
  CHECK(std::signbit(xp::ceil(x).to_vector()[2]));
  const auto i = xp::array<std::int16_t>({-7, 0, 9}, {3}, device);
  CHECK(xp::floor(i).dtype() == xp::dtype::int16);
  CHECK(xp::floor(i).to_vector() == std::vector<std::int16_t>{-7, 0, 9});
  CHECK(xp::trunc(xp::array<bool>({true, false}, {2}, device)).dtype() == xp::dtype::bool_);
  CHECK(xp::rint(i).dtype() == xp::dtype::float32);  // a float function: small integers in float32
  const auto z = xp::array<std::complex<double>>({{1.5, -2.5}, {0.4, 3.6}}, {2}, device);
  CHECK(xp::rint(z).to_vector() == std::vector<std::complex<double>>{{2, -2}, {0, 4}});
  CHECK_THROWS_WITH_AS(xp::floor(z), "floor: not supported for complex input (complex128), as NumPy's floor",
                       xp::TypeError);
}

namespace {

// Values where floor, ceil, trunc and rint are easy to get wrong: zeros, the least subnormal, halves and
// the floats beside them, the integers and halves about 2^(digits - 1) where every float turns integral,
// the largest float, the infinities and NaN; then many random ones over all magnitudes, of both signs.
template <class T>
std::vector<T> rounding_edges() {
  constexpr T integral_from = T(1) / std::numeric_limits<T>::epsilon();
  std::vector<T> magnitudes{T(0),
                            std::numeric_limits<T>::denorm_min(),
                            std::numeric_limits<T>::min(),
                            std::nextafter(T(0.5), T(0)),
                            T(0.5),
                            std::nextafter(T(0.5), T(1)),
                            std::nextafter(T(1), T(0)),
                            T(1),
                            T(1.5),
                            T(2.5),
                            integral_from - T(1.5),
                            integral_from - T(0.5),
                            std::nextafter(integral_from, T(0)),
                            integral_from,
                            integral_from + T(1),
                            T(2) * integral_from + T(2),
                            std::numeric_limits<T>::max(),
                            std::numeric_limits<T>::infinity(),
                            std::numeric_limits<T>::quiet_NaN()};
  std::mt19937_64 random(7);
  for (int k = 0; k < 4000; ++k)
    magnitudes.push_back(
        std::ldexp(std::uniform_real_distribution<T>(1, 2)(random), static_cast<int>(random() % 70) - 10));
  std::vector<T> values;
  for (const T m : magnitudes) values.insert(values.end(), {m, -m});
  return values;
}

// Whether every result is C's, to the bit (the sign of a zero included; NaN for NaN).
template <class T>
void check_same_bits(const xp::ndarray<>& got, const std::vector<T>& x, T (*c_function)(T)) {
  const std::vector<T> values = got.as<T>().to_vector();
  REQUIRE(values.size() == x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const T want = c_function(x[i]);
    CAPTURE(x[i]);
    if (std::isnan(want)) CHECK(std::isnan(values[i]));
    else CHECK(std::memcmp(&values[i], &want, sizeof(T)) == 0);
  }
}

template <class T>
void check_rounding_against_c(xp::Device device) {
  const std::vector<T> x = rounding_edges<T>();
  const auto a = xp::array<T>(x, {static_cast<std::int64_t>(x.size())}, device);
  check_same_bits<T>(xp::floor(a), x, [](T v) { return std::floor(v); });
  check_same_bits<T>(xp::ceil(a), x, [](T v) { return std::ceil(v); });
  check_same_bits<T>(xp::trunc(a), x, [](T v) { return std::trunc(v); });
  check_same_bits<T>(xp::rint(a), x, [](T v) { return std::rint(v); });
}

}  // namespace

XP_TEST_ON_DEVICES("ufuncs: floor, ceil, trunc and rint of float32 and float64 are C's to the bit") {
  check_rounding_against_c<float>(device);
  check_rounding_against_c<double>(device);
}

XP_TEST_ON_DEVICES("ufuncs: square, reciprocal and sign in the input's dtype") {
  const auto i = xp::array<std::int32_t>({-3, -1, 0, 2, 1}, {5}, device);
  CHECK(xp::square(i).to_vector() == std::vector<std::int32_t>{9, 1, 0, 4, 1});
  CHECK(xp::reciprocal(i).to_vector() == std::vector<std::int32_t>{0, -1, 0, 0, 1});  // 1 / 0 gives 0
  CHECK(xp::sign(i).to_vector() == std::vector<std::int32_t>{-1, -1, 0, 1, 1});
  CHECK(xp::square(xp::array<bool>({true, false}, {2}, device)).dtype() == xp::dtype::int8);
  const auto f = xp::array<float>({-2.f, -0.f, 4.f, std::numeric_limits<float>::quiet_NaN()}, {4}, device);
  const auto sign = xp::sign(f).to_vector();
  CHECK(sign[0] == -1.f);
  CHECK((sign[1] == 0.f && !std::signbit(sign[1])));  // NumPy: sign(-0.0) is 0.0
  CHECK(sign[2] == 1.f);
  CHECK(std::isnan(sign[3]));
  CHECK(xp::reciprocal(f).to_vector()[2] == 0.25f);
  const auto z = xp::array<std::complex<double>>({{3, 4}, {0, 0}, {0, 2}}, {3}, device);
  const auto signs = xp::sign(z).to_vector();
  CHECK(signs[0] == std::complex<double>(0.6, 0.8));
  CHECK(signs[1] == std::complex<double>(0, 0));
  constexpr double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  // One infinite part gives its direction, whatever the other (NaN too); two give NaN, as NumPy's.
  const auto infinite = xp::sign(xp::array<std::complex<double>>({{nan, -inf}, {-inf, 2}, {inf, inf}}, {3}, device));
  const auto directions = infinite.to_vector();
  CHECK(directions[0] == std::complex<double>(0, -1));
  CHECK(directions[1] == std::complex<double>(-1, 0));
  CHECK((std::isnan(directions[2].real()) && std::isnan(directions[2].imag())));
  const auto inverse = xp::reciprocal(z).to_vector();
  CHECK(inverse[0] == std::complex<double>(0.12, -0.16));
  CHECK((std::isnan(inverse[1].real()) && std::isnan(inverse[1].imag())));  // Smith's quotient, as NumPy
  CHECK(inverse[2] == std::complex<double>(0, -0.5));
  CHECK_THROWS_WITH_AS(xp::sign(xp::array<bool>({true}, {1}, device)),
                       "sign: not supported for bool (NumPy's sign has no bool loop)", xp::TypeError);
}

XP_TEST_ON_DEVICES("ufuncs: exponentials, logarithms, roots, degrees and the trigonometric inverses") {
  const auto x = xp::array<double>({0.25, 0.5, -0.75}, {3}, device);
  const auto values = x.to_vector();
  const auto each = [&](double (*f)(double)) {
    std::vector<double> out;
    for (const double v : values) out.push_back(f(v));
    return out;
  };
  check_close(as_doubles(xp::exp2(x)), each([](double v) { return std::exp2(v); }));
  check_close(as_doubles(xp::log2(xp::abs(x))), {-2, -1, std::log2(0.75)});
  check_close(as_doubles(xp::log10(xp::array<double>({1000, 0.01}, {2}, device))), {3, -2});
  check_close(as_doubles(xp::cbrt(xp::array<double>({-27, 8}, {2}, device))), {-3, 2});
  check_close(as_doubles(xp::arcsin(x)), each([](double v) { return std::asin(v); }));
  check_close(as_doubles(xp::arccos(x)), each([](double v) { return std::acos(v); }));
  check_close(as_doubles(xp::arctan(x)), each([](double v) { return std::atan(v); }));
  check_close(as_doubles(xp::sinh(x)), each([](double v) { return std::sinh(v); }));
  check_close(as_doubles(xp::cosh(x)), each([](double v) { return std::cosh(v); }));
  check_close(as_doubles(xp::arcsinh(x)), each([](double v) { return std::asinh(v); }));
  check_close(as_doubles(xp::arctanh(x)), each([](double v) { return std::atanh(v); }));
  check_close(as_doubles(xp::arccosh(xp::array<double>({1, 2}, {2}, device))), {0, std::acosh(2.0)});
  check_close(as_doubles(xp::arcsin(xp::array<double>({2}, {1}, device))), {kNan});
  check_close(as_doubles(xp::deg2rad(xp::array<double>({180, -90}, {2}, device))),
              {std::numbers::pi, -std::numbers::pi / 2});
  check_close(as_doubles(xp::rad2deg(xp::array<double>({std::numbers::pi}, {1}, device))), {180});
  CHECK(xp::log2(xp::array<std::int64_t>({8}, {1}, device)).dtype() == xp::dtype::float64);
  // Complex: the principal values, as NumPy (and C's casin and csinh) give them.
  const auto z = xp::array<std::complex<double>>({{0.5, 1}}, {1}, device);
  const std::complex<double> w(0.5, 1);
  CHECK(std::abs(xp::arcsin(z).to_vector()[0] - std::asin(w)) < 1e-14);
  CHECK(std::abs(xp::sinh(z).to_vector()[0] - std::sinh(w)) < 1e-14);
  CHECK(std::abs(xp::log2(z).to_vector()[0] - std::log(w) / std::numbers::ln2) < 1e-14);
  CHECK(std::abs(xp::exp2(z).to_vector()[0] - std::exp(w * std::numbers::ln2)) < 1e-14);
  CHECK_THROWS_AS(xp::cbrt(z), xp::TypeError);
  CHECK_THROWS_AS(xp::deg2rad(z), xp::TypeError);
  // Members, as MXNet's.
  check_close(as_doubles(x.sinh()), as_doubles(xp::sinh(x)));
  check_close(as_doubles(x.floor()), {0, 0, -1});
}

XP_TEST_ON_DEVICES("ufuncs: isnan, isinf, isfinite and signbit give bool arrays of any input") {
  const auto x = xp::array<double>({1, kNan, kInf, -kInf, -0.0, -2}, {6}, device);
  CHECK(xp::isnan(x).to_vector() == std::vector<bool>{false, true, false, false, false, false});
  CHECK(xp::isinf(x).to_vector() == std::vector<bool>{false, false, true, true, false, false});
  CHECK(xp::isfinite(x).to_vector() == std::vector<bool>{true, false, false, false, true, true});
  CHECK(xp::signbit(x).to_vector() == std::vector<bool>{false, false, false, true, true, true});
  const auto i = xp::array<std::uint8_t>({0, 7}, {2}, device);
  CHECK(xp::isnan(i).to_vector() == std::vector<bool>{false, false});
  CHECK(xp::isfinite(i).to_vector() == std::vector<bool>{true, true});
  CHECK(xp::signbit(xp::array<std::int32_t>({-1, 1}, {2}, device)).to_vector() == std::vector<bool>{true, false});
  const auto z =
      xp::array<std::complex<double>>({{1, kNan}, {kInf, 0}, {1, 2}}, {3}, device).astype<std::complex<float>>();
  CHECK(xp::isnan(z).to_vector() == std::vector<bool>{true, false, false});
  CHECK(xp::isinf(z).to_vector() == std::vector<bool>{false, true, false});
  CHECK(xp::isfinite(z).to_vector() == std::vector<bool>{false, false, true});
  CHECK_THROWS_AS(xp::signbit(z), xp::TypeError);
  const auto h = xp::array<float>({kNan, 1}, {2}, device).astype<xp::float16>();
  CHECK(xp::isnan(h).to_vector() == std::vector<bool>{true, false});
}

XP_TEST_ON_DEVICES("ufuncs: gradients of the new unary functions match finite differences") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto x = xp::array<double>({0.3, -0.6, 0.45, 0.8}, {2, 2}, device);
  const auto above_one = xp::array<double>({1.3, 2.5, 1.1, 4.0}, {2, 2}, device);
#define XP_GRADIENT_OF(name, input) \
  check_gradients([](const xp_test::Inputs& in) { return xp::name(in[0]); }, {input}, 1e-6, on_cpu)
  XP_GRADIENT_OF(square, x);
  XP_GRADIENT_OF(reciprocal, x);
  XP_GRADIENT_OF(exp2, x);
  XP_GRADIENT_OF(log2, above_one);
  XP_GRADIENT_OF(log10, above_one);
  XP_GRADIENT_OF(cbrt, x);
  XP_GRADIENT_OF(arcsin, x);
  XP_GRADIENT_OF(arccos, x);
  XP_GRADIENT_OF(arctan, x);
  XP_GRADIENT_OF(sinh, x);
  XP_GRADIENT_OF(cosh, x);
  XP_GRADIENT_OF(arcsinh, x);
  XP_GRADIENT_OF(arccosh, above_one);
  XP_GRADIENT_OF(arctanh, x);
  XP_GRADIENT_OF(deg2rad, x);
  XP_GRADIENT_OF(rad2deg, x);
  XP_GRADIENT_OF(floor, x);  // 0 away from the integers
  XP_GRADIENT_OF(rint, x);
  XP_GRADIENT_OF(sign, x);
#undef XP_GRADIENT_OF
}
