// Sorts, scans and differences against references computed here in float64 (std::stable_sort with
// NumPy's order; running sums in order), on every device, every axis, and the rows that take each
// path of the drivers (insertion-sorted short rows, radix-sorted rows, one long row on every thread).
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <numeric>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"
#include "gradient_check.hpp"
#include "xp/sorting.hpp"

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// NumPy's sort order: NaNs last, equal otherwise as <.
bool numpy_less(double a, double b) { return std::isnan(a) ? false : (std::isnan(b) || a < b); }
bool numpy_less(std::complex<double> a, std::complex<double> b) {
  if (a.real() != b.real() && !(std::isnan(a.real()) && std::isnan(b.real()))) return numpy_less(a.real(), b.real());
  return numpy_less(a.imag(), b.imag());
}

struct Rows {
  std::vector<std::int64_t> shape;
  int axis;
  std::int64_t outer = 1, length = 1, inner = 1;
  Rows(std::vector<std::int64_t> s, int a) : shape(std::move(s)), axis(a) {
    for (int i = 0; i < static_cast<int>(shape.size()); ++i) (i < axis ? outer : i > axis ? inner : length) *= shape[i];
  }
  std::size_t at(std::int64_t o, std::int64_t j, std::int64_t i) const {
    return static_cast<std::size_t>((o * length + j) * inner + i);
  }
};

// The stable argsort of `values` (C order, `rows`' shape) along its axis, in C order.
template <class V>
std::vector<std::int64_t> reference_argsort(const std::vector<V>& values, const Rows& rows) {
  std::vector<std::int64_t> result(values.size());
  for (std::int64_t o = 0; o < rows.outer; ++o) {
    for (std::int64_t i = 0; i < rows.inner; ++i) {
      std::vector<std::int64_t> order(static_cast<std::size_t>(rows.length));
      std::iota(order.begin(), order.end(), 0);
      std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) {
        return numpy_less(values[rows.at(o, a, i)], values[rows.at(o, b, i)]);
      });
      for (std::int64_t j = 0; j < rows.length; ++j) result[rows.at(o, j, i)] = order[static_cast<std::size_t>(j)];
    }
  }
  return result;
}

template <class V>
std::vector<V> taken(const std::vector<V>& values, const std::vector<std::int64_t>& order, const Rows& rows) {
  std::vector<V> result(values.size());
  for (std::int64_t o = 0; o < rows.outer; ++o)
    for (std::int64_t j = 0; j < rows.length; ++j)
      for (std::int64_t i = 0; i < rows.inner; ++i)
        result[rows.at(o, j, i)] = values[rows.at(o, order[rows.at(o, j, i)], i)];
  return result;
}

// Bit-exact equality (NaNs and signed zeros included).
bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](double x, double y) {
           return std::bit_cast<std::uint64_t>(x) == std::bit_cast<std::uint64_t>(y);
         });
}

// Values with ties, of T's range (for bool: 0 and 1).
template <class T>
std::vector<double> tied_values(std::size_t n) {
  std::vector<double> v(n);
  for (std::size_t k = 0; k < n; ++k) {
    const double raw = static_cast<double>((k * 7919 + 13) % 23);
    if constexpr (std::is_same_v<T, bool>) v[k] = static_cast<double>((k * 5 + 1) % 3 == 0);
    else if constexpr (std::is_unsigned_v<T>) v[k] = raw * 5;
    else v[k] = raw * 5 - 50;
  }
  return v;
}

}  // namespace

XP_TEST_ON_DEVICES("sort and argsort: every real dtype, every axis, stable with ties") {
  const std::vector<std::int64_t> shape{3, 4, 5};
  for_each_element_type([&]<class T>() {
    INFO(xp::dtype_of<T>);
    const std::vector<double> values = tied_values<T>(60);
    const auto a = xp::array<double>(values, {3, 4, 5}, device).template astype<T>();
    for (int axis = 0; axis < 3; ++axis) {
      INFO("axis ", axis);
      const Rows rows(shape, axis);
      const std::vector<std::int64_t> order = reference_argsort(values, rows);
      CHECK(xp::argsort(a, axis).to_vector() == order);
      CHECK(xp::argsort(a, axis - 3).to_vector() == order);
      const auto sorted = xp::sort(a, axis);
      CHECK(sorted.shape() == a.shape());
      CHECK(sorted.template astype<double>().to_vector() == taken(values, order, rows));
    }
    const Rows flat({60}, 0);
    CHECK(xp::argsort(a, std::nullopt).to_vector() == reference_argsort(values, flat));
    CHECK(xp::sort(a, std::nullopt).shape() == xp::Shape{60});
  });
}

XP_TEST_ON_DEVICES("sort: NaNs last keeping their bits, -0.0 equal to 0.0 in input order") {
  const double negative_nan = -kNan;
  const std::vector<double> values{0.0, kNan, -0.0, 1.0, negative_nan, -1.0, 0.0, -0.0, -INFINITY, INFINITY};
  const auto a = xp::array<double>(values, {10}, device);
  const std::vector<std::int64_t> order{8, 5, 0, 2, 6, 7, 3, 9, 1, 4};
  CHECK(xp::argsort(a).to_vector() == order);
  std::vector<double> expected;
  for (std::int64_t k : order) expected.push_back(values[static_cast<std::size_t>(k)]);
  CHECK(same_bits(xp::sort(a).to_vector(), expected));
  const std::vector<float> narrow = xp::sort(a.astype<float>()).to_vector();
  CHECK(std::signbit(narrow[3]));
  CHECK(!std::signbit(narrow[4]));
  CHECK(std::signbit(narrow[9]));
  const auto half = xp::sort(a.astype<xp::float16>()).astype<double>().to_vector();
  CHECK(half[0] == -INFINITY);
  CHECK((!std::signbit(half[2]) && std::signbit(half[3])));
  CHECK((std::isnan(half[8]) && std::isnan(half[9])));
  const auto brain = xp::argsort(a.astype<xp::bfloat16>()).to_vector();
  CHECK(brain == order);
}

XP_TEST_ON_DEVICES("sort: short rows, radix-sorted rows and one long row") {
  for (const std::vector<std::int64_t>& shape :
       std::vector<std::vector<std::int64_t>>{{300, 20}, {50, 700}, {1, 150001}}) {
    std::vector<double> values(static_cast<std::size_t>(shape[0] * shape[1]));
    for (std::size_t k = 0; k < values.size(); ++k)
      values[k] = k % 97 == 5 ? kNan : static_cast<double>((k * 2654435761u) % 100003) / 7.0 - 5000;
    const Rows rows(shape, 1);
    const std::vector<std::int64_t> order = reference_argsort(values, rows);
    const auto a = xp::array<double>(values, xp::Shape(std::span<const std::int64_t>(shape)), device);
    INFO(shape[0], "x", shape[1]);
    CHECK(xp::argsort(a).to_vector() == order);
    CHECK(same_bits(xp::sort(a).to_vector(), taken(values, order, rows)));
    CHECK(xp::argsort(a.astype<float>()).to_vector() == order);
    const auto integers = a.astype<std::int32_t>();
    const std::vector<double> truncated = integers.astype<double>().to_vector();
    CHECK(xp::sort(integers).astype<double>().to_vector() ==
          taken(truncated, reference_argsort(truncated, rows), rows));
  }
}

XP_TEST_ON_DEVICES("sort: complex numbers by real part, then imaginary part, NaNs last in each") {
  using C = std::complex<double>;
  const std::vector<C> values{{1, 2}, {kNan, 0}, {1, kNan}, {1, -1}, {-2, 5}, {kNan, -3}, {1, 2}, {0, kNan}};
  const auto a = xp::array<C>(values, {8}, device);
  const std::vector<std::int64_t> order = reference_argsort(values, Rows({8}, 0));
  CHECK(order == std::vector<std::int64_t>{4, 7, 3, 0, 6, 2, 5, 1});
  CHECK(xp::argsort(a).to_vector() == order);
  CHECK(xp::argsort(a.astype<std::complex<float>>()).to_vector() == order);
  const std::vector<C> sorted = xp::sort(a).to_vector();
  for (std::size_t k = 0; k < values.size(); ++k) {
    const C expected = values[static_cast<std::size_t>(order[k])];
    CHECK(std::bit_cast<std::uint64_t>(sorted[k].real()) == std::bit_cast<std::uint64_t>(expected.real()));
    CHECK(std::bit_cast<std::uint64_t>(sorted[k].imag()) == std::bit_cast<std::uint64_t>(expected.imag()));
  }
}

XP_TEST_ON_DEVICES("sort: empty arrays, 0-d and bad axes") {
  const auto empty = xp::zeros<float>({3, 0}, device);
  CHECK(xp::sort(empty).shape() == xp::Shape{3, 0});
  CHECK(xp::argsort(empty, 0).shape() == xp::Shape{3, 0});
  const auto scalar = xp::array<float>({2.5f}, {}, device);
  CHECK(xp::sort(scalar, std::nullopt).to_vector() == std::vector<float>{2.5f});
  CHECK_THROWS_WITH_AS(xp::sort(scalar), "sort: axis -1 is out of bounds for array of dimension 0", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::argsort(empty, 2), "argsort: axis 2 is out of bounds for an array of dimension 2",
                       xp::ValueError);
}

namespace {

// Running combinations along the axis, in order, in float64.
std::vector<double> reference_scan(const std::vector<double>& values, const Rows& rows, bool product) {
  std::vector<double> result(values.size());
  for (std::int64_t o = 0; o < rows.outer; ++o)
    for (std::int64_t i = 0; i < rows.inner; ++i) {
      double acc = product ? 1 : 0;
      for (std::int64_t j = 0; j < rows.length; ++j)
        result[rows.at(o, j, i)] = acc = product ? acc * values[rows.at(o, j, i)] : acc + values[rows.at(o, j, i)];
    }
  return result;
}

}  // namespace

XP_TEST_ON_DEVICES("cumsum and cumprod: every axis and the flattened array, NumPy's result types") {
  const std::vector<std::int64_t> shape{3, 4, 5};
  std::vector<double> values(60);
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>((k * 37) % 7) - 2;
  const auto a = xp::array<double>(values, {3, 4, 5}, device);
  for (int axis = 0; axis < 3; ++axis) {
    INFO("axis ", axis);
    const Rows rows(shape, axis);
    CHECK(xp::cumsum(a, axis).to_vector() == reference_scan(values, rows, false));
    CHECK(xp::cumprod(a, axis).to_vector() == reference_scan(values, rows, true));
    CHECK(xp::cumsum(a.astype<std::int8_t>(), axis).to_vector() ==
          xp::cumsum(a, axis).astype<std::int64_t>().to_vector());
    const auto complex_product = xp::cumprod(a.astype<std::complex<float>>(), axis).to_vector();
    const std::vector<double> real_product = reference_scan(values, rows, true);
    for (std::size_t k = 0; k < real_product.size(); ++k)
      CHECK(complex_product[k] == std::complex<float>(real_product[k]));
  }
  CHECK(xp::cumsum(a).shape() == xp::Shape{60});
  CHECK(xp::cumsum(a).to_vector() == reference_scan(values, Rows({60}, 0), false));
  static_assert(std::is_same_v<decltype(xp::cumsum(a.astype<bool>())), xp::ndarray<std::int64_t>>);
  static_assert(std::is_same_v<decltype(xp::cumsum(a.astype<std::uint16_t>())), xp::ndarray<std::uint64_t>>);
  CHECK(xp::cumsum(a.astype<bool>()).to_vector().back() == 51);
  const auto halves = xp::cumsum(a.astype<xp::float16>(), 2);
  CHECK(halves.dtype() == xp::dtype::float16);
  CHECK(halves.astype<double>().to_vector() == reference_scan(values, Rows(shape, 2), false));
  CHECK_THROWS_AS(xp::cumsum(a, 3), xp::ValueError);
}

XP_TEST_ON_DEVICES("cumsum: one long row scanned in blocks on every thread is exact on small integers") {
  const std::int64_t n = (1 << 20) + 12345;
  std::vector<double> values(static_cast<std::size_t>(n));
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<double>((k * 7) % 3);
  const std::vector<double> expected = reference_scan(values, Rows({n}, 0), false);
  const auto a = xp::array<double>(values, {n}, device);
  const std::vector<float> floats = xp::cumsum(a.astype<float>()).to_vector();
  CHECK(std::vector<double>(floats.begin(), floats.end()) == expected);
  CHECK(xp::cumsum(a.astype<std::int32_t>()).astype<double>().to_vector() == expected);
  const auto two_rows = xp::cumsum(xp::reshape(a(xp::slice(0, 2 * 300000)), {2, 300000}), 1).to_vector();
  CHECK(two_rows[299999] == expected[299999]);
  CHECK(two_rows[599999] == expected[599999] - expected[299999]);
}

XP_TEST_ON_DEVICES("nancumsum and nancumprod count NaNs as 0 and 1") {
  const auto a = xp::array<double>({1, kNan, 2, kNan, 3}, {5}, device);
  CHECK(xp::nancumsum(a).to_vector() == std::vector<double>{1, 1, 3, 3, 6});
  CHECK(xp::nancumprod(a).to_vector() == std::vector<double>{1, 1, 2, 2, 6});
  const auto c = xp::cumsum(a).to_vector();
  CHECK((c[0] == 1 && std::isnan(c[1]) && std::isnan(c[4])));
  CHECK(xp::nancumsum(xp::array<std::int32_t>({4, 5}, {2}, device)).to_vector() == std::vector<std::int64_t>{4, 9});
}

XP_TEST_ON_DEVICES("diff and ediff1d") {
  const auto a = xp::array<std::int32_t>({1, 4, 9, 16, 2, 3, 5, 8}, {2, 4}, device);
  CHECK(xp::diff(a).to_vector() == std::vector<std::int32_t>{3, 5, 7, 1, 2, 3});
  CHECK(xp::diff(a, 2).to_vector() == std::vector<std::int32_t>{2, 2, 1, 1});
  CHECK(xp::diff(a, 1, 0).to_vector() == std::vector<std::int32_t>{1, -1, -4, -8});
  CHECK(xp::diff(a, 0).to_vector() == a.to_vector());
  CHECK(xp::diff(a, 5).shape() == xp::Shape{2, 0});
  CHECK(xp::ediff1d(a).to_vector() == std::vector<std::int32_t>{3, 5, 7, -14, 1, 2, 3});
  const auto flags = xp::array<bool>({true, true, false, true}, {4}, device);
  CHECK(xp::diff(flags).to_vector() == std::vector<bool>{false, true, true});
  CHECK_THROWS_WITH_AS(xp::diff(a, -1), "diff: order must be non-negative but got -1", xp::ValueError);
  CHECK_THROWS_AS(xp::diff(xp::array<float>({1.0f}, {}, device)), xp::ValueError);
  CHECK_THROWS_AS(xp::ediff1d(flags), xp::TypeError);
}

XP_TEST_ON_DEVICES("gradients: sort, cumsum, cumprod (with zeros) and diff against finite differences") {
  using xp_test::check_gradients;
  // Finite differences on cpu(0): thousands of tiny launches otherwise (minutes under compute-sanitizer).
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto x = xp_test::smooth_values({3, 5}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::sort(in[0], 0); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::sort(in[0], std::nullopt); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::cumsum(in[0], 1); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::cumsum(in[0]); }, {x}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::cumprod(in[0], 0); }, {x}, 1e-6, on_cpu);
  // Rows with no zero, one zero, and two zeros.
  const auto zeros =
      xp::array<double>({0.5, 1.5, -2, 0.7, 1.1, 0.5, 0, -2, 0.7, 1.1, 0.5, 0, -2, 0, 1.1}, {3, 5}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::cumprod(in[0], 1); }, {zeros}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::diff(in[0], 2, 1); }, {x}, 1e-6, on_cpu);
  const auto complex = xp::array<std::complex<double>>({{1, 2}, {0.5, -1}, {2, 0.5}}, {3}, device);
  auto z = complex.copyto(device);
  z.attach_grad();
  {
    xp::autograd::record recording;
    xp::cumprod(z).backward(xp::array<std::complex<double>>({1, 1, 1}, {3}, device));
  }
  // d(sum of products)/dz_k, conjugated (the library's convention for complex gradients).
  const std::complex<double> z0{1, 2}, z1{0.5, -1}, z2{2, 0.5};
  const std::vector<std::complex<double>> expected{std::conj(1.0 + z1 + z1 * z2), std::conj(z0 + z0 * z2),
                                                   std::conj(z0 * z1)};
  const auto got = z.grad().to_vector();
  for (std::size_t k = 0; k < 3; ++k) CHECK(std::abs(got[k] - expected[k]) < 1e-12);
  auto w = xp::array<double>({1, kNan, 2}, {3}, device);
  w.attach_grad();
  {
    xp::autograd::record recording;
    xp::nancumsum(w).backward(xp::array<double>({1, 10, 100}, {3}, device));
  }
  CHECK(w.grad().to_vector() == std::vector<double>{111, 0, 100});
}
