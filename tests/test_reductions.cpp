// Reductions against a float64 reference computed here over every position, on every dtype. In
// CUDA builds this file is compiled by nvcc (transform_reduce with user functors on GPUs).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"
#include "xp/reductions.hpp"
#include "xp/transform_reduce.hpp"

namespace {

// The reference: combine over the given axes of a C-order array (all axes when `axes` is empty).
template <class Combine>
std::vector<double> reference_reduce(const std::vector<double>& values, const std::vector<std::int64_t>& shape,
                                     std::set<int> axes, double identity, Combine combine, bool keepdims,
                                     std::vector<std::int64_t>* out_shape = nullptr) {
  const int ndim = static_cast<int>(shape.size());
  if (axes.empty())
    for (int a = 0; a < ndim; ++a) axes.insert(a);
  std::vector<std::int64_t> kept_shape, result_shape;
  for (int a = 0; a < ndim; ++a) {
    if (!axes.count(a)) kept_shape.push_back(shape[a]);
    if (!axes.count(a) || keepdims) result_shape.push_back(axes.count(a) ? 1 : shape[a]);
  }
  if (out_shape) *out_shape = result_shape;
  std::int64_t outputs = 1;
  for (auto e : kept_shape) outputs *= e;
  std::vector<double> result(static_cast<std::size_t>(outputs), identity);
  std::vector<std::int64_t> index(static_cast<std::size_t>(ndim), 0);
  for (std::size_t linear = 0; linear < values.size(); ++linear) {
    std::int64_t k = 0;
    for (int a = 0; a < ndim; ++a)
      if (!axes.count(a)) k = k * shape[a] + index[a];
    result[k] = combine(result[k], values[linear]);
    for (int a = ndim - 1; a >= 0 && ++index[a] == shape[a]; --a) index[a] = 0;
  }
  return result;
}

std::vector<double> arange_values(std::int64_t n, double scale = 1) {
  std::vector<double> v(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) v[i] = scale * static_cast<double>((i * 7919) % 1013) - 300;
  return v;
}

template <class T>
std::vector<double> as_doubles(const std::vector<T>& v) {
  return std::vector<double>(v.begin(), v.end());
}

bool close(const std::vector<double>& got, const std::vector<double>& expected, double tolerance) {
  if (got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (std::abs(got[i] - expected[i]) > tolerance * std::max(1.0, std::abs(expected[i]))) return false;
  return true;
}

constexpr auto plus = [](double a, double b) { return a + b; };

}  // namespace

XP_TEST_ON_DEVICES("sum of every type, in NumPy's result types") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    std::vector<T> values;
    for (int i = 0; i < 24; ++i)
      values.push_back(static_cast<T>(std::is_signed_v<T> ? (i * 5) % 11 - 4 : (i * 5) % 11));
    const auto a = xp::array<T>(values, {2, 3, 4}, device);
    const auto total = xp::sum(a);
    using S = xp::type_of<xp::detail::sum_dtype(xp::dtype_of<T>)>;
    static_assert(std::is_same_v<typename decltype(total)::value_type, S>);
    CHECK(total.ndim() == 0);
    const std::vector<double> data = as_doubles(values);
    for (const std::set<int>& axes : {std::set<int>{}, {0}, {1}, {2}, {0, 2}, {1, 2}}) {
      const xp::Axes chosen =
          axes.empty() ? xp::Axes(std::nullopt) : xp::Axes(std::vector<int>(axes.begin(), axes.end()));
      CHECK(as_doubles(xp::sum(a, chosen).to_vector()) == reference_reduce(data, {2, 3, 4}, axes, 0, plus, false));
    }
  });
}

XP_TEST_ON_DEVICES("reductions of a transposed (2, 4, 3) array over (0, 1), (1, 2), (0, 1, 2)") {
  const std::vector<double> values = arange_values(24);
  const auto base = xp::array<double>(values, {3, 4, 2}, device);
  const auto t = base.transpose(2, 1, 0);  // shape (2, 4, 3), not contiguous
  const std::vector<double> logical = t.to_vector();
  for (const std::set<int>& axes : {std::set<int>{0, 1}, {1, 2}, {0, 1, 2}}) {
    const xp::Axes chosen(std::vector<int>(axes.begin(), axes.end()));
    CHECK(close(xp::sum(t, chosen).to_vector(), reference_reduce(logical, {2, 4, 3}, axes, 0, plus, false), 1e-12));
    CHECK(xp::max(t, chosen).to_vector() ==
          reference_reduce(
              logical, {2, 4, 3}, axes, -INFINITY, [](double a, double b) { return std::max(a, b); }, false));
    std::vector<std::int64_t> kept;
    CHECK(xp::sum(t, chosen, true).shape() ==
          xp::Shape(
              std::span<const std::int64_t>((reference_reduce(logical, {2, 4, 3}, axes, 0, plus, true, &kept), kept))));
  }
}

XP_TEST_ON_DEVICES("a (4,3,2,4,3,2,2) array reduced over (1,4,3,6) with keepdims") {
  const std::vector<std::int64_t> shape{4, 3, 2, 4, 3, 2, 2};
  const std::vector<double> values = arange_values(4 * 3 * 2 * 4 * 3 * 2 * 2, 0.5);
  const auto a = xp::array<double>(values, xp::Shape(std::span<const std::int64_t>(shape)), device);
  const auto s = xp::sum(a, {1, 4, 3, 6}, true);
  CHECK(s.shape() == xp::Shape(4, 1, 2, 1, 1, 2, 1));
  CHECK(close(s.to_vector(), reference_reduce(values, shape, {1, 3, 4, 6}, 0, plus, true), 1e-12));
  const auto negative = xp::sum(a, {-6, -3, -4, -1}, true);
  CHECK(negative.to_vector() == s.to_vector());
}

XP_TEST_ON_DEVICES("axis errors as CuPy's") {
  const auto a = xp::zeros<float>({2, 3}, device);
  CHECK_THROWS_WITH_AS(xp::sum(a, 2), "sum: axis 2 is out of bounds for array of dimension 2", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(a, {-3}), "sum: axis -3 is out of bounds for array of dimension 2", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(a, {0, 7}), "sum: axis 7 is out of bounds for array of dimension 2", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(a, {1, 1}), "sum: duplicate value in 'axis'", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(a, {0, -2}), "sum: duplicate value in 'axis'", xp::ValueError);
  CHECK_THROWS_AS(xp::argmax(a, {0, 1}), xp::ValueError);
}

XP_TEST_ON_DEVICES("sums of 1-D lengths around every power of two up to 2^20") {
  bool exact = true;
  for (int i = 1; i <= 20; ++i) {
    for (const std::int64_t n : {(std::int64_t(1) << i) - 1, std::int64_t(1) << i, (std::int64_t(1) << i) + 1}) {
      // Small integers in float64: every partial sum is exact, so any order gives the same total.
      const auto a = xp::arange<double>(0, static_cast<double>(n), 1, device);
      const double expected = static_cast<double>(n) * static_cast<double>(n - 1) / 2;
      exact = exact && xp::sum(a).item() == expected;
      exact = exact && xp::sum(a.astype<std::int32_t>()).item() == static_cast<std::int64_t>(expected);
    }
  }
  CHECK(exact);
}

XP_TEST_ON_DEVICES("axis sums of large matrices, rows and columns") {
  constexpr std::int64_t r = 1000, c = 3000;
  const std::vector<double> values = arange_values(r * c);
  const auto m = xp::array<double>(values, {r, c}, device);
  CHECK(close(xp::sum(m, 0).to_vector(), reference_reduce(values, {r, c}, {0}, 0, plus, false), 1e-12));
  CHECK(close(xp::sum(m, 1).to_vector(), reference_reduce(values, {r, c}, {1}, 0, plus, false), 1e-12));
  CHECK(close(xp::sum(m.transpose(), 1).to_vector(), reference_reduce(values, {r, c}, {0}, 0, plus, false), 1e-12));
  const auto sliced = m(xp::slice(), xp::slice(xp::none, xp::none, 3));
  CHECK(close(xp::sum(sliced, 0).to_vector(), reference_reduce(sliced.to_vector(), {r, c / 3}, {0}, 0, plus, false),
              1e-12));
  const auto few = xp::array<double>(arange_values(3 * 300000), {3, 300000}, device);  // few long rows: blocks
  CHECK(close(xp::sum(few, 1).to_vector(), reference_reduce(few.to_vector(), {3, 300000}, {1}, 0, plus, false), 1e-12));
  const auto narrow = xp::array<double>(arange_values(300000 * 3), {300000, 3}, device);  // narrow columns
  CHECK(close(xp::sum(narrow, 0).to_vector(), reference_reduce(narrow.to_vector(), {300000, 3}, {0}, 0, plus, false),
              1e-12));
}

XP_TEST_ON_DEVICES("prod, max, min, all and any on every type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    std::vector<T> values;
    for (int i = 0; i < 12; ++i) values.push_back(static_cast<T>(std::is_signed_v<T> ? (i * 7) % 5 - 2 : (i * 7) % 5));
    const auto a = xp::array<T>(values, {3, 4}, device);
    const std::vector<double> data = as_doubles(values);
    const auto as_double_vector = [](const auto& x) { return as_doubles(x.to_vector()); };
    for (int axis : {0, 1}) {
      CHECK(as_double_vector(xp::prod(a, axis)) ==
            reference_reduce(data, {3, 4}, {axis}, 1, [](double p, double q) { return p * q; }, false));
      CHECK(
          as_double_vector(xp::max(a, axis)) ==
          reference_reduce(data, {3, 4}, {axis}, -INFINITY, [](double p, double q) { return std::max(p, q); }, false));
      CHECK(as_double_vector(xp::min(a, axis)) ==
            reference_reduce(data, {3, 4}, {axis}, INFINITY, [](double p, double q) { return std::min(p, q); }, false));
      CHECK(as_double_vector(xp::all(a, axis)) ==
            reference_reduce(
                data, {3, 4}, {axis}, 1, [](double p, double q) { return double(p != 0 && q != 0); }, false));
      CHECK(as_double_vector(xp::any(a, axis)) ==
            reference_reduce(
                data, {3, 4}, {axis}, 0, [](double p, double q) { return double(p != 0 || q != 0); }, false));
    }
    CHECK(xp::max(a).dtype() == xp::dtype_of<T>);
    CHECK(xp::all(a).dtype() == xp::dtype::bool_);
  });
  CHECK(xp::prod(xp::array<std::uint8_t>({200, 2}, device)).item() == 400u);  // uint64, as NumPy
  CHECK(xp::max(xp::array<std::int64_t>({std::numeric_limits<std::int64_t>::min()}, device)).item() ==
        std::numeric_limits<std::int64_t>::min());
}

XP_TEST_ON_DEVICES("argmax and argmin of every type: the first position, C order over a view") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto a = xp::array<T>({{T(1), T(3), T(3)}, {T(2), T(0), T(2)}}, device);
    CHECK(xp::argmax(a).dtype() == xp::dtype::int64);
    if constexpr (!std::is_same_v<T, bool>) {
      CHECK(xp::argmax(a).item() == 1);
      CHECK(xp::argmin(a).item() == 4);
      CHECK(xp::argmax(a, 1).to_vector() == std::vector<std::int64_t>{1, 0});
      CHECK(xp::argmin(a, 0).to_vector() == std::vector<std::int64_t>{0, 1, 1});
      CHECK(xp::argmax(a.transpose()).item() == 2);  // (1, 0) of the transposed view: index 1 * 2 + 0
      CHECK(xp::argmax(a, 1, true).shape() == xp::Shape(2, 1));
    } else {
      CHECK(xp::argmax(a).item() == 0);
      CHECK(xp::argmin(a).item() == 4);
    }
  });
}

XP_TEST_ON_DEVICES("mean, var, std and norm against float64 references") {
  for_each_element_type([&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      CAPTURE(xp::dtype_of<T>);
      std::vector<T> values;
      for (int i = 0; i < 20; ++i) values.push_back(static_cast<T>((i * 3) % 7 + 1));
      const auto a = xp::array<T>(values, {4, 5}, device);
      const double tolerance = std::is_same_v<T, float> ? 1e-6 : 1e-13;
      for (int axis : {0, 1}) {
        const std::size_t n = axis == 0 ? 4 : 5;
        const std::vector<double> sums = reference_reduce(as_doubles(values), {4, 5}, {axis}, 0, plus, false);
        std::vector<double> means, vars;
        for (std::size_t k = 0; k < sums.size(); ++k) means.push_back(sums[k] / n);
        for (std::size_t k = 0; k < sums.size(); ++k) {
          double v = 0;
          for (std::size_t j = 0; j < n; ++j) {
            const double x = axis == 0 ? double(values[j * 5 + k]) : double(values[k * 5 + j]);
            v += (x - means[k]) * (x - means[k]);
          }
          vars.push_back(v / n);
        }
        CHECK(close(as_doubles(xp::mean(a, axis).to_vector()), means, tolerance));
        CHECK(close(as_doubles(xp::var(a, axis).to_vector()), vars, tolerance));
        std::vector<double> stds;
        for (double v : vars) stds.push_back(std::sqrt(v));
        CHECK(close(as_doubles(a.std(axis).to_vector()), stds, tolerance));
      }
      CHECK(xp::mean(a).dtype() == (std::is_floating_point_v<T> ? xp::dtype_of<T> : xp::dtype::float64));
      double squares = 0;
      for (T v : values) squares += double(v) * double(v);
      CHECK(xp::norm(a).item() == doctest::Approx(std::sqrt(squares)).epsilon(tolerance));
    }
  });
  const auto v = xp::array<double>({1, 2, 3, 4}, device);
  CHECK(xp::var(v, std::nullopt, false, 1).item() == doctest::Approx(5.0 / 3));  // ddof = 1
  CHECK(v.mean().item() == 2.5);
}

XP_TEST_ON_DEVICES("transform_reduce with user functors: CuPy's l2norm and more") {
  const auto x = xp::arange<float>(0, 10, 1, device).reshape({2, 5});
  const auto l2 = xp::transform_reduce(
      x, 1, false, 0.0f, [] XP_HOST_DEVICE(float v) { return v * v; },
      [] XP_HOST_DEVICE(float a, float b) { return a + b; }, [] XP_HOST_DEVICE(float a) { return std::sqrt(a); });
  const std::vector<float> norms = l2.to_vector();
  CHECK(norms[0] == doctest::Approx(5.477226f));
  CHECK(norms[1] == doctest::Approx(15.9687195f));
  // A double accumulator over float elements, a keepdims shape and an integer result.
  const auto counted = xp::transform_reduce(
      x, 0, true, 0.0, [] XP_HOST_DEVICE(float v) { return v > 3 ? 1.0 : 0.0; },
      [] XP_HOST_DEVICE(double a, double b) { return a + b; },
      [] XP_HOST_DEVICE(double a) { return static_cast<int>(a); });
  CHECK(counted.shape() == xp::Shape(1, 5));
  CHECK(counted.to_vector() == std::vector<int>{1, 1, 1, 1, 2});
  // The map may take the element's position in its reduction.
  const auto weighted = xp::transform_reduce(
      x, std::nullopt, false, 0.0, [] XP_HOST_DEVICE(float v, long long j) { return double(v) * double(j); },
      [] XP_HOST_DEVICE(double a, double b) { return a + b; }, [] XP_HOST_DEVICE(double a) { return a; });
  double expected = 0;
  for (int j = 0; j < 10; ++j) expected += double(j) * j;
  CHECK(weighted.item() == expected);
}

XP_TEST_ON_DEVICES("reductions as members, on run-time typed arrays too") {
  const auto a = xp::array<int>({{1, 2}, {3, 4}}, device);
  CHECK(a.sum().item() == 10);
  CHECK(a.sum(0).to_vector() == std::vector<std::int64_t>{4, 6});
  CHECK(a.max(1).to_vector() == std::vector<int>{2, 4});
  CHECK(a.min().item() == 1);
  CHECK(a.argmax().item() == 3);
  CHECK(a.prod().item() == 24);
  CHECK(a.mean(1, true).shape() == xp::Shape(2, 1));
  CHECK((a > 2).any().item());
  CHECK(!(a > 2).all().item());
  const xp::ndarray<> d = a;
  CHECK(d.sum().dtype() == xp::dtype::int64);
  CHECK(d.mean().dtype() == xp::dtype::float64);
  CHECK(d.sum().as<std::int64_t>().item() == 10);
}
