// The built-in elementwise operations on every element type, against references computed here
// independently (in uint64 modular arithmetic for integers, in double for floats).
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"

namespace {

// Operand values for each type: small, large and (for signed types) negative ones.
template <class T>
std::vector<T> sample_values() {
  if constexpr (std::is_same_v<T, bool>) {
    return {false, true, true, false};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {T(0), T(1.5), T(-2.25), T(3), T(100.5), T(-0.5), T(7), T(1e3)};
  } else {
    std::vector<T> v{T(0), T(1), T(2), T(3), T(7), T(100), std::numeric_limits<T>::max(), T(5)};
    if constexpr (std::is_signed_v<T>) {
      v[2] = T(-2);
      v[5] = std::numeric_limits<T>::min();
      v[7] = T(-7);
    }
    return v;
  }
}

template <class T>
std::vector<T> other_values() {
  std::vector<T> v = sample_values<T>();
  std::vector<T> rotated(v.begin() + 3, v.end());
  rotated.insert(rotated.end(), v.begin(), v.begin() + 3);
  return rotated;
}

// a OP b as NumPy computes it in T: integers modulo 2^bits, floats rounded once.
template <class T, class Op>
T reference(T a, T b, Op op) {
  if constexpr (std::is_same_v<T, bool>) return static_cast<bool>(op(int(a), int(b)));
  else if constexpr (std::is_floating_point_v<T>) return static_cast<T>(op(double(a), double(b)));
  else return static_cast<T>(op(static_cast<std::uint64_t>(a), static_cast<std::uint64_t>(b)));
}

template <class T>
bool same(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) return (std::isnan(a) && std::isnan(b)) || a == b;
  else return a == b;
}

template <class T>
bool all_same(const std::vector<T>& got, const std::vector<T>& expected) {
  if (got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i)
    if (!same<T>(got[i], expected[i])) return false;
  return true;
}

template <class T, class F>
std::vector<T> map2(const std::vector<T>& a, const std::vector<T>& b, F f) {
  std::vector<T> out;
  for (std::size_t i = 0; i < a.size(); ++i) out.push_back(f(a[i], b[i]));
  return out;
}

}  // namespace

XP_TEST_ON_DEVICES("add, subtract, multiply, maximum and minimum on every type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const std::vector<T> va = sample_values<T>(), vb = other_values<T>();
    const auto a = xp::array<T>(va, device), b = xp::array<T>(vb, device);
    CHECK(all_same((a + b).to_vector(), map2(va, vb, [](T x, T y) { return reference(x, y, std::plus<>{}); })));
    CHECK(all_same((a * b).to_vector(), map2(va, vb, [](T x, T y) { return reference(x, y, std::multiplies<>{}); })));
    if constexpr (!std::is_same_v<T, bool>)
      CHECK(all_same((a - b).to_vector(), map2(va, vb, [](T x, T y) { return reference(x, y, std::minus<>{}); })));
    CHECK(all_same(xp::maximum(a, b).to_vector(), map2(va, vb, [](T x, T y) { return x > y ? x : y; })));
    CHECK(all_same(xp::minimum(a, b).to_vector(), map2(va, vb, [](T x, T y) { return x < y ? x : y; })));
    CHECK((a + b).dtype() == xp::dtype_of<T>);
  });
  CHECK_THROWS_WITH_AS(xp::array<bool>({true}, device) - xp::array<bool>({false}, device),
                       doctest::Contains("subtract: not supported for bool"), xp::TypeError);
}

XP_TEST_ON_DEVICES("comparisons and logical operations on every type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const std::vector<T> va = sample_values<T>(), vb = other_values<T>();
    const auto a = xp::array<T>(va, device), b = xp::array<T>(vb, device);
    const auto expect = [&](auto predicate) {
      std::vector<bool> v;
      for (std::size_t i = 0; i < va.size(); ++i) v.push_back(predicate(va[i], vb[i]));
      return v;
    };
    CHECK((a == b).to_vector() == expect([](T x, T y) { return x == y; }));
    CHECK((a != b).to_vector() == expect([](T x, T y) { return x != y; }));
    CHECK((a < b).to_vector() == expect([](T x, T y) { return x < y; }));
    CHECK((a <= b).to_vector() == expect([](T x, T y) { return x <= y; }));
    CHECK((a > b).to_vector() == expect([](T x, T y) { return x > y; }));
    CHECK((a >= b).to_vector() == expect([](T x, T y) { return x >= y; }));
    CHECK((a && b).to_vector() == expect([](T x, T y) { return x != T(0) && y != T(0); }));
    CHECK((a || b).to_vector() == expect([](T x, T y) { return x != T(0) || y != T(0); }));
    CHECK((!a).to_vector() == expect([](T x, T) { return x == T(0); }));
    CHECK((a < b).dtype() == xp::dtype::bool_);
  });
}

XP_TEST_ON_DEVICES("division is true division") {
  for_each_element_type([&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      CAPTURE(xp::dtype_of<T>);
      const auto a = xp::array<T>({T(7), T(1), T(0), T(9)}, device);
      const auto b = xp::array<T>({T(2), T(3), T(0), T(1)}, device);
      using F = xp::float_compute_t<T>;
      const auto q = a / b;
      CHECK(q.dtype() == xp::dtype_of<F>);
      const std::vector<F> v = q.template astype<F>().to_vector();
      CHECK(v[0] == F(3.5));
      CHECK(v[1] == F(1) / F(3));
      CHECK(std::isnan(v[2]));
      CHECK(v[3] == F(9));
    }
  });
  CHECK((xp::array<int>({1}, device) / 2).dtype() == xp::dtype::float64);
  CHECK((xp::array<std::int16_t>({1}, device) / 2).dtype() == xp::dtype::float32);
  CHECK((xp::array<float>({1}, device) / 0.0f).item() == std::numeric_limits<float>::infinity());
}

XP_TEST_ON_DEVICES("power for integers and floats") {
  const auto a = xp::array<std::int64_t>({2, -2, 3, 1, -1, -1, 5, 0}, device);
  const auto b = xp::array<std::int64_t>({10, 3, 0, -5, -3, -4, -1, 0}, device);
  CHECK(xp::power(a, b).to_vector() == std::vector<std::int64_t>{1024, -8, 1, 1, -1, 1, 0, 1});
  CHECK(xp::power(xp::array<std::uint8_t>({2, 3}, device), 8).to_vector() == std::vector<std::uint8_t>{0, 161});
  const auto f = xp::power(xp::array<double>({2, 4, -8}, device), xp::array<double>({0.5, -1, 1.0 / 3}, device));
  const std::vector<double> v = f.to_vector();
  CHECK(v[0] == doctest::Approx(std::sqrt(2.0)));
  CHECK(v[1] == 0.25);
  CHECK(std::isnan(v[2]));
  for_each_element_type([&]<class T>() {
    if constexpr (!std::is_same_v<T, bool>) {
      CAPTURE(xp::dtype_of<T>);
      const auto p = xp::power(xp::array<T>({T(3), T(2)}, device), xp::array<T>({T(2), T(5)}, device));
      CHECK(p.to_vector() == std::vector<T>{T(9), T(32)});
    }
  });
}

XP_TEST_ON_DEVICES("negative and abs on every type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const std::vector<T> v = sample_values<T>();
    const auto a = xp::array<T>(v, device);
    std::vector<T> absolute;
    for (T x : v) {
      if constexpr (std::is_floating_point_v<T>) absolute.push_back(std::fabs(x));
      else if constexpr (std::is_signed_v<T>) absolute.push_back(x < 0 ? reference(T(0), x, std::minus<>{}) : x);
      else absolute.push_back(x);
    }
    CHECK(all_same(xp::abs(a).to_vector(), absolute));
    CHECK(all_same(a.abs().to_vector(), absolute));
    if constexpr (!std::is_same_v<T, bool>) {
      std::vector<T> negated;
      for (T x : v) negated.push_back(reference(T(0), x, std::minus<>{}));
      CHECK(all_same((-a).to_vector(), negated));
    } else {
      CHECK_THROWS_AS(-a, xp::TypeError);
    }
  });
  // Negation flips the sign bit of floats, zeros included (NumPy): -(0.0) is -0.0, not 0 - 0.0.
  CHECK(std::signbit(xp::negative(xp::array<float>({0.0f}, device)).item()));
  CHECK(!std::signbit((-xp::array<double>({-0.0}, device)).item()));
}

XP_TEST_ON_DEVICES("float functions against double references") {
  const std::vector<double> x{0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 10.0};
  const auto check = [&](auto op, auto reference_of, auto&& values) {
    for_each_element_type([&]<class T>() {
      if constexpr (std::is_floating_point_v<T>) {
        CAPTURE(xp::dtype_of<T>);
        std::vector<T> typed(values.begin(), values.end());
        const std::vector<T> got = op(xp::array<T>(typed, device)).to_vector();
        const double tolerance = std::is_same_v<T, float> ? 2e-7 : 1e-15;
        for (std::size_t i = 0; i < typed.size(); ++i) {
          const double expected = reference_of(static_cast<double>(typed[i]));
          CHECK(std::abs(got[i] - expected) <= tolerance * std::max(1.0, std::abs(expected)));
        }
      }
    });
  };
  check([](const auto& a) { return xp::exp(a); }, [](double v) { return std::exp(v); }, x);
  check([](const auto& a) { return a.log(); }, [](double v) { return std::log(v); },
        std::vector<double>{0.5, 1, 2, 10, 1e6});
  check([](const auto& a) { return xp::log1p(a); }, [](double v) { return std::log1p(v); }, x);
  check([](const auto& a) { return xp::expm1(a); }, [](double v) { return std::expm1(v); }, x);
  check([](const auto& a) { return xp::sqrt(a); }, [](double v) { return std::sqrt(v); }, x);
  check([](const auto& a) { return xp::sin(a); }, [](double v) { return std::sin(v); }, x);
  check([](const auto& a) { return xp::cos(a); }, [](double v) { return std::cos(v); }, x);
  check([](const auto& a) { return xp::tan(a); }, [](double v) { return std::tan(v); }, x);
  check([](const auto& a) { return xp::tanh(a); }, [](double v) { return std::tanh(v); }, x);
  check([](const auto& a) { return a.sigmoid(); }, [](double v) { return 1 / (1 + std::exp(-v)); },
        std::vector<double>{-50, -2, 0, 2, 50});
  CHECK(std::isnan(xp::log(xp::array<double>({-1}, device)).item()));
  CHECK(xp::sqrt(xp::array<int>({4, 9}, device)).to_vector() == std::vector<double>{2, 3});  // int32 -> float64
  CHECK(xp::exp(xp::array<std::uint8_t>({0}, device)).dtype() == xp::dtype::float32);
  CHECK(xp::exp(xp::array<bool>({true}, device)).item() == doctest::Approx(std::exp(1.0)));
}

XP_TEST_ON_DEVICES("where and clip on every type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const std::vector<T> va = sample_values<T>(), vb = other_values<T>();
    const auto a = xp::array<T>(va, device), b = xp::array<T>(vb, device);
    std::vector<bool> take_a;
    std::vector<T> picked;
    for (std::size_t i = 0; i < va.size(); ++i) {
      take_a.push_back(i % 2 == 0 || i == 7);
      picked.push_back(take_a.back() ? va[i] : vb[i]);
    }
    const auto choice = xp::array(take_a, device);
    CHECK(all_same(xp::where(choice, a, b).to_vector(), picked));
    const T low = va[1], high = va[3];
    std::vector<T> clipped;
    for (T x : va) clipped.push_back(std::min(std::max(x, low), high));
    CHECK(all_same(xp::clip(a, xp::full<T>({}, low, device), high).to_vector(), clipped));
  });
  const auto x = xp::array<float>({-1, 0.5f, 2, std::nanf("")}, device);
  const std::vector<float> c = xp::clip(x, 0.0f, 1.0f).to_vector();
  CHECK(c[0] == 0.0f);
  CHECK(c[1] == 0.5f);
  CHECK(c[2] == 1.0f);
  CHECK(std::isnan(c[3]));
  const auto w = xp::where(xp::array<int>({0, 3}, device), 1.5, xp::array<float>({7, 8}, device));
  CHECK(w.dtype() == xp::dtype::float32);  // the array's float type wins over the weak scalar
  CHECK(w.to_vector() == std::vector<float>{7, 1.5f});
}

XP_TEST_ON_DEVICES("operations broadcast over strided, transposed and zero-size arrays") {
  const auto m = xp::arange<double>(0, 12, 1, device).reshape({3, 4});
  const auto row = xp::array<double>({10, 20, 30, 40}, device);
  CHECK((m + row).to_vector() == std::vector<double>{10, 21, 32, 43, 14, 25, 36, 47, 18, 29, 40, 51});
  const auto column = xp::array<double>({{1}, {2}, {3}}, device);
  CHECK((m * column).to_vector() == std::vector<double>{0, 1, 2, 3, 8, 10, 12, 14, 24, 27, 30, 33});
  // Both operands strided: element (i, j) of m.T minus element (i, j) of m.T reversed along rows.
  CHECK((m.transpose() - m.transpose()(xp::slice(xp::none, xp::none, -1))).to_vector() ==
        std::vector<double>{-3, -3, -3, -1, -1, -1, 1, 1, 1, 3, 3, 3});
  const auto t = m.transpose() * 2;  // (4, 3), strided input
  CHECK(t.to_vector() == std::vector<double>{0, 8, 16, 2, 10, 18, 4, 12, 20, 6, 14, 22});
  CHECK((m(xp::slice(), xp::slice(xp::none, xp::none, -2)) + 1).to_vector() == std::vector<double>{4, 2, 8, 6, 12, 10});
  const auto empty = xp::zeros<double>({0, 4}, device);
  CHECK((empty + row).shape() == xp::Shape(0, 4));
  CHECK(xp::exp(empty).size() == 0);
  CHECK_THROWS_WITH_AS(m + xp::ones<double>({3}, device),
                       "add: operands could not be broadcast together with shapes (3, 4) (3,)", xp::ValueError);
}

XP_TEST_ON_DEVICES("operations write into an output array") {
  const auto a = xp::array<int>({1, 2, 3}, device);
  const auto b = xp::array<int>({10, 20, 30}, device);
  const auto out = xp::zeros<int>({3}, device);
  const auto same = xp::add(a, b, out);
  CHECK(same.shares_buffer_with(out));
  CHECK(out.to_vector() == std::vector<int>{11, 22, 33});
  const auto wide = xp::zeros<double>({2, 3}, device);  // int into float64, broadcast to the output
  xp::multiply(a, 2, wide);
  CHECK(wide.to_vector() == std::vector<double>{2, 4, 6, 2, 4, 6});
  xp::add(a, b, a);  // in place
  CHECK(a.to_vector() == std::vector<int>{11, 22, 33});
  // An output that partly overlaps its inputs sees them as they were (NumPy): the inputs are copied.
  const auto v = xp::arange<int>(6, device);
  xp::add(v(xp::slice(0, 5)), v(xp::slice(0, 5)), v(xp::slice(1, 6)));
  CHECK(v.to_vector() == std::vector<int>{0, 0, 2, 4, 6, 8});
  xp::exp(xp::zeros<float>({3}, device), xp::zeros<double>({3}, device));
  CHECK_THROWS_WITH_AS(xp::add(xp::ones<float>({3}, device), 1, out),
                       "add: cannot write a float32 result into a int32 output (NumPy's same_kind casting)",
                       xp::TypeError);
  CHECK_THROWS_AS(xp::add(a, b, xp::zeros<int>({4}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("bitwise operations and shifts on integers and bool, as NumPy") {
  using V32 = std::vector<std::int32_t>;  // every value below from NumPy 2
  const auto a = xp::array<std::int32_t>({12, -7, 0, 255, -1}, device);
  const auto b = xp::array<std::int32_t>({10, 3, 5, 1, 31}, device);
  CHECK((a & b).to_vector() == V32{8, 1, 0, 1, 31});
  CHECK((a | b).to_vector() == V32{14, -5, 5, 255, -1});
  CHECK((a ^ b).to_vector() == V32{6, -6, 5, 254, -32});
  CHECK((~a).to_vector() == V32{-13, 6, -1, -256, 0});
  CHECK((a << b).to_vector() == V32{12288, -56, 0, 510, -2147483648});
  CHECK((a >> b).to_vector() == V32{0, -1, 0, 127, -1});
  // Counts of the width or more, and negative ones, are defined: 0, or -1 for a negative number shifted right.
  const auto c = xp::array<std::int32_t>({1, -8, 3, -1, 5}, device);
  const auto counts = xp::array<std::int32_t>({32, 2, 40, -1, 0}, device);
  CHECK(xp::left_shift(c, counts).to_vector() == V32{0, -32, 0, 0, 5});
  CHECK(xp::right_shift(c, counts).to_vector() == V32{0, -2, 0, -1, 5});
  const auto small = xp::array<std::int8_t>({64, -128, 1}, device);
  CHECK((small << std::int8_t{1}).to_vector() == std::vector<std::int8_t>{-128, 0, 2});
  CHECK((small >> std::int8_t{7}).to_vector() == std::vector<std::int8_t>{0, -1, 0});
  const auto bytes = xp::array<std::uint8_t>({200, 1, 128}, device);
  CHECK((bytes << std::uint8_t{1}).to_vector() == std::vector<std::uint8_t>{144, 2, 0});
  CHECK((bytes >> std::uint8_t{9}).to_vector() == std::vector<std::uint8_t>{0, 0, 0});
  CHECK(xp::invert(bytes).to_vector() == std::vector<std::uint8_t>{55, 254, 127});
  const auto wide = xp::array<std::int64_t>({std::numeric_limits<std::int64_t>::min(), 1}, device);
  CHECK((wide >> std::int64_t{63}).to_vector() == std::vector<std::int64_t>{-1, 0});
  CHECK((wide << std::int64_t{63}).to_vector() ==
        std::vector<std::int64_t>{0, std::numeric_limits<std::int64_t>::min()});
  // bool: and/or/xor/invert stay bool; shifts compute in int8. Mixed types promote; scalars are weak.
  const auto t = xp::array<bool>({true, false, true}, device), u = xp::array<bool>({true, true, false}, device);
  CHECK((t & u).to_vector() == std::vector<bool>{true, false, false});
  CHECK((t | u).to_vector() == std::vector<bool>{true, true, true});
  CHECK((t ^ u).to_vector() == std::vector<bool>{false, true, true});
  CHECK((~t).to_vector() == std::vector<bool>{false, true, false});
  const auto shifted = t << u;
  static_assert(std::is_same_v<decltype(shifted), const xp::ndarray<std::int8_t>>);
  CHECK(shifted.to_vector() == std::vector<std::int8_t>{2, 0, 1});
  CHECK((xp::array<std::int8_t>({3}, device) & xp::array<std::uint8_t>({5}, device)).dtype() == xp::dtype::int16);
  const auto masked = a & 6;
  CHECK(masked.dtype() == xp::dtype::int32);
  CHECK(masked.to_vector() == V32{4, 0, 0, 6, 6});
  const xp::ndarray<> untyped = a;
  CHECK(xp::bitwise_xor(untyped, b).as<std::int32_t>().to_vector() == V32{6, -6, 5, 254, -32});
  auto out = xp::zeros<std::int64_t>({5}, device);
  xp::bitwise_or(a, b, out);
  CHECK(out.to_vector() == std::vector<std::int64_t>{14, -5, 5, 255, -1});
  const auto real = xp::array<double>({1.0}, device);
  CHECK_THROWS_WITH_AS(real & real,
                       "bitwise_and: not supported for float64 (NumPy's bitwise operations take integers and bool)",
                       xp::TypeError);
  CHECK_THROWS_AS(~real, xp::TypeError);
  CHECK_THROWS_AS(a << 1.5, xp::TypeError);
  CHECK_THROWS_AS(xp::array<std::complex<float>>({1}, device) | 1, xp::TypeError);
}

XP_TEST_ON_DEVICES("the d2l chapter's expression: (z + 2).exp() * y") {
  const auto x = xp::array<float>({1, 2, 3}, device);
  const auto y = x.copyto(device);
  const auto z = x.as_in_context(device);
  const auto result = (z + 2).exp() * y;
  static_assert(std::is_same_v<decltype(result), const xp::ndarray<float>>);
  CHECK(result.device() == device);
  const std::vector<float> v = result.to_vector();
  for (int i = 0; i < 3; ++i) CHECK(v[i] == doctest::Approx(std::exp(i + 3.0) * (i + 1)).epsilon(1e-6));
}

XP_TEST_ON_DEVICES("run-time typed arrays give run-time typed results") {
  const xp::ndarray<> a = xp::array<std::int16_t>({1, 2}, device);
  const xp::ndarray<> b = xp::array<double>({0.5, 0.25}, device);
  const auto sum = a + b;
  static_assert(std::is_same_v<decltype(sum), const xp::ndarray<>>);
  CHECK(sum.dtype() == xp::dtype::float64);
  CHECK(sum.as<double>().to_vector() == std::vector<double>{1.5, 2.25});
  CHECK((a * 3).dtype() == xp::dtype::int16);
  CHECK(a.exp().dtype() == xp::dtype::float32);
  CHECK((a == a).dtype() == xp::dtype::bool_);
}

XP_TEST_ON_DEVICES("large operations run in parallel and get every element") {
  constexpr std::int64_t n = (1 << 21) + 5;
  const auto a = xp::arange<double>(0, n, 1, device);
  const std::vector<double> doubled = (a + a).to_vector();
  bool ok = true;
  for (std::int64_t i = 0; i < n; ++i) ok = ok && doubled[i] == 2.0 * i;
  CHECK(ok);
  const auto m = a(xp::slice(0, 1 << 20)).reshape({1024, 1024});
  const std::vector<double> t = (m.transpose() + 1).to_vector();
  bool transposed = true;
  for (std::int64_t r = 0; r < 1024; r += 7)
    for (std::int64_t c = 0; c < 1024; c += 3) transposed = transposed && t[r * 1024 + c] == c * 1024 + r + 1;
  CHECK(transposed);
}

TEST_CASE("operations need their operands on one device") {
  const auto a = xp::ones<float>({2}, xp::cpu(0));
  const auto b = xp::ones<float>({2}, xp::cpu(1));
  CHECK_THROWS_WITH_AS(a + b, "add: argument 0 is on cpu(0) but argument 1 is on cpu(1)", xp::DeviceMismatchError);
  CHECK_THROWS_WITH_AS(xp::where(a > 0, 1.0f, b), "where: argument 0 is on cpu(0) but argument 2 is on cpu(1)",
                       xp::DeviceMismatchError);
  CHECK_THROWS_WITH_AS(xp::add(a, a, xp::zeros<float>({2}, xp::cpu_pinned(0))),
                       "add: argument 0 is on cpu(0) but argument 2 is on cpu_pinned(0)", xp::DeviceMismatchError);
}
