#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"
#include "pool_disabled.hpp"

XP_TEST_ON_DEVICES("zeros, ones, full and empty for every element type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    const auto z = xp::zeros<T>({2, 3}, device);
    CHECK(z.dtype() == xp::dtype_of<T>);
    CHECK(z.device() == device);
    CHECK(z.shape() == xp::Shape(2, 3));
    CHECK(z.strides() == xp::Strides(3, 1));
    CHECK(z.size() == 6);
    CHECK(z.ndim() == 2);
    CHECK(z.itemsize() == sizeof(T));
    CHECK(z.nbytes() == 6 * sizeof(T));
    CHECK(z.is_contiguous());
    CHECK(z.to_vector() == std::vector<T>(6, T(0)));
    CHECK(xp::ones<T>({4}, device).to_vector() == std::vector<T>(4, T(1)));
    const T seven = T(7);
    CHECK(xp::full<T>({3, 1}, seven, device).to_vector() == std::vector<T>(3, seven));
    const auto e = xp::empty<T>({5}, device);
    CHECK(e.size() == 5);
    CHECK(e.dtype() == xp::dtype_of<T>);
  });
  CHECK(xp::full({2}, 2.5, device).to_vector() == std::vector<double>{2.5, 2.5});  // T deduced
  const std::int64_t big = (std::int64_t(1) << 62) + 1;  // not representable in a double
  CHECK(xp::full<std::int64_t>({2}, big, device).to_vector() == std::vector<std::int64_t>{big, big});
  CHECK(xp::full<float>({2}, -0.0f, device).to_vector()[1] == 0.0f);
  CHECK(std::signbit(xp::full<float>({1}, -0.0f, device).item()));
}

XP_TEST_ON_DEVICES("arrays start on 64-byte boundaries") {
  for (const std::int64_t n : {1, 3, 100, 1000, 123457}) {
    const auto a = xp::empty<std::int8_t>({n}, device);
    CHECK(reinterpret_cast<std::uintptr_t>(a.data()) % 64 == 0);
  }
}

XP_TEST_ON_DEVICES("run-time typed creation") {
  const xp::ndarray<> a = xp::zeros({2, 2}, xp::dtype::int16, device);
  CHECK(a.dtype() == xp::dtype::int16);
  CHECK(a.as<std::int16_t>().to_vector() == std::vector<std::int16_t>(4, 0));
  const xp::ndarray<> e = xp::empty({3}, xp::dtype::float64, device);
  CHECK(e.dtype() == xp::dtype::float64);
  CHECK(e.device() == device);
}

XP_TEST_ON_DEVICES("empty does not initialise its memory") {
  // A block freed to the pool comes back as is: empty hands out whatever the memory holds.
  if (pool_disabled()) {
    MESSAGE("skipped on ", device, ": XP_DISABLE_POOL=1, the pool keeps no block to hand out again");
    return;
  }
  constexpr std::int64_t n = 12347;  // an unusual size, so the pool reuses exactly this block
  const void* first = nullptr;
  {
    const auto filled = xp::full<std::int32_t>({n}, 0x5a5a5a5a, device);
    first = filled.data();
  }
  const auto reused = xp::empty<std::int32_t>({n}, device);
  REQUIRE(reused.data() == first);
  const std::vector<std::int32_t> values = reused.to_vector();
  CHECK(values.front() == 0x5a5a5a5a);
  CHECK(values.back() == 0x5a5a5a5a);
}

XP_TEST_ON_DEVICES("arange in float and integer arithmetic") {
  CHECK(xp::arange<float>(5, device).to_vector() == std::vector<float>{0, 1, 2, 3, 4});
  CHECK(xp::arange<double>(1, 2, 0.25, device).to_vector() == std::vector<double>{1, 1.25, 1.5, 1.75});
  CHECK(xp::arange<int>(10, 0, -3, device).to_vector() == std::vector<int>{10, 7, 4, 1});
  CHECK(xp::arange<std::uint8_t>(250, 256, 2, device).to_vector() == std::vector<std::uint8_t>{250, 252, 254});
  CHECK(xp::arange<std::int64_t>(-2, 3, 1, device).to_vector() == std::vector<std::int64_t>{-2, -1, 0, 1, 2});
  CHECK(xp::arange<float>(3, 1, 1, device).size() == 0);
  CHECK(xp::arange<float>(0, 1, 0.3, device).size() == 4);  // ceil(1 / 0.3)
  const auto tenths = xp::arange<float>(0, 1, 0.1, device).to_vector();
  REQUIRE(tenths.size() == 10);
  CHECK(tenths[3] == static_cast<float>(3 * 0.1));  // computed in double, then rounded once
  CHECK(xp::arange<float>(6, device).device() == device);

  CHECK_THROWS_WITH_AS(xp::arange<float>(0, 1, 0, device), "arange: step must not be zero", xp::ValueError);
  CHECK_THROWS_AS(xp::arange<int>(0.5, 3, 1, device), xp::ValueError);
  CHECK_THROWS_AS(xp::arange<int>(0, 3, 0.5, device), xp::ValueError);
  CHECK_THROWS_AS(xp::arange<float>(0, std::numeric_limits<double>::infinity(), 1, device), xp::ValueError);
  CHECK_THROWS_AS(xp::arange<float>(std::nan(""), device), xp::ValueError);
}

XP_TEST_ON_DEVICES("linspace as NumPy's") {
  CHECK(xp::linspace<double>(0, 1, 5, true, device).to_vector() == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  CHECK(xp::linspace<double>(0, 1, 4, false, device).to_vector() == std::vector<double>{0, 0.25, 0.5, 0.75});
  CHECK(xp::linspace<float>(2, 3, 1, true, device).to_vector() == std::vector<float>{2});
  CHECK(xp::linspace<float>(2, 3, 0, true, device).size() == 0);
  CHECK(xp::linspace<int>(0, 10, 4, true, device).to_vector() == std::vector<int>{0, 3, 6, 10});
  // The last value is exactly stop even where start + 9 * step rounds elsewhere.
  const auto v = xp::linspace<double>(0.1, 0.7, 10, true, device).to_vector();
  CHECK(v.back() == 0.7);
  CHECK(v[1] == doctest::Approx(0.1 + 0.6 / 9));
  CHECK(xp::linspace<float>(0, 1, 50, true, device).size() == 50);
  CHECK_THROWS_AS(xp::linspace<float>(0, 1, -1, true, device), xp::ValueError);
}

XP_TEST_ON_DEVICES("eye with offsets and non-square shapes") {
  CHECK(xp::eye<float>(3, std::nullopt, 0, device).to_vector() == std::vector<float>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(xp::eye<int>(2, 3, 1, device).to_vector() == std::vector<int>{0, 1, 0, 0, 0, 1});
  CHECK(xp::eye<int>(3, 2, -1, device).to_vector() == std::vector<int>{0, 0, 1, 0, 0, 1});
  CHECK(xp::eye<bool>(2, 2, 5, device).to_vector() == std::vector<bool>{false, false, false, false});
  CHECK(xp::eye<double>(0, std::nullopt, 0, device).shape() == xp::Shape(0, 0));
  CHECK_THROWS_AS(xp::eye<float>(-1, std::nullopt, 0, device), xp::ValueError);
}

XP_TEST_ON_DEVICES("arrays from nested lists and vectors") {
  const auto a = xp::array<float>({1, 2, 3}, device);
  CHECK(a.shape() == xp::Shape(3));
  CHECK(a.to_vector() == std::vector<float>{1, 2, 3});
  const auto b = xp::array<int>({{1, 2, 3}, {4, 5, 6}}, device);
  CHECK(b.shape() == xp::Shape(2, 3));
  CHECK(b.to_vector() == std::vector<int>{1, 2, 3, 4, 5, 6});
  const auto c = xp::array<double>({{{1, 2}}, {{3, 4}}}, device);
  CHECK(c.shape() == xp::Shape(2, 1, 2));
  CHECK(c.to_vector() == std::vector<double>{1, 2, 3, 4});
  CHECK(xp::array({1.5, 2.5}, device).dtype() == xp::dtype::float64);  // deduced from the values
  CHECK(xp::array<bool>({true, false}, device).to_vector() == std::vector<bool>{true, false});
  CHECK(xp::array<float>(std::vector<float>{1, 2, 3, 4, 5, 6}, {3, 2}, device).shape() == xp::Shape(3, 2));
  CHECK(xp::array(std::vector<bool>{true, true, false}, device).to_vector() == std::vector<bool>{true, true, false});
  CHECK(xp::array(std::vector<std::int64_t>{4, 5}).device() == xp::current_device());
  const auto empty_rows = xp::array<int>(std::initializer_list<std::initializer_list<int>>{}, device);
  CHECK(empty_rows.shape() == xp::Shape(0, 0));

  CHECK_THROWS_WITH_AS(xp::array<int>({{1, 2}, {3}}, device), doctest::Contains("ragged nested lists"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::array<float>(std::vector<float>{1, 2, 3}, {2, 2}, device),
                       "array: 3 values cannot have shape (2, 2)", xp::ValueError);
}

XP_TEST_ON_DEVICES("_like routines keep shape, dtype and device") {
  const auto a = xp::arange<std::int16_t>(0, 6, 1, device).reshape({2, 3});
  const auto z = xp::zeros_like(a);
  CHECK(z.shape() == a.shape());
  CHECK(z.device() == device);
  CHECK(z.to_vector() == std::vector<std::int16_t>(6, 0));
  CHECK(xp::ones_like(a).to_vector() == std::vector<std::int16_t>(6, 1));
  CHECK(xp::full_like(a, std::int16_t(-3)).to_vector() == std::vector<std::int16_t>(6, -3));
  CHECK(xp::empty_like(a).shape() == xp::Shape(2, 3));
  const xp::ndarray<> dynamic = a;
  CHECK(xp::zeros_like(dynamic).dtype() == xp::dtype::int16);
}

XP_TEST_ON_DEVICES("bad shapes are ValueErrors") {
  CHECK_THROWS_WITH_AS(xp::zeros<float>({2, -1}, device), "negative dimensions are not allowed: (2, -1)",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::empty<double>({std::int64_t(1) << 40, std::int64_t(1) << 40}, device),
                       doctest::Contains("is too big"), xp::ValueError);
  // As in NumPy, a zero extent does not excuse the others: their product must fit too.
  CHECK_THROWS_WITH_AS(xp::empty<double>({std::int64_t(1) << 40, std::int64_t(1) << 40, 0}, device),
                       doctest::Contains("is too big"), xp::ValueError);
  CHECK(xp::empty<double>({std::int64_t(1) << 40, 0}, device).size() == 0);
}

XP_TEST_ON_DEVICES("zero-size and 0-d arrays") {
  const auto none = xp::zeros<float>({0, 3}, device);
  // Zero-size arrays have zero strides, yet are not broadcast views: they take values (none).
  CHECK(xp::array<float>(std::vector<float>{}, {3, 0, 2}, device).shape() == xp::Shape(3, 0, 2));
  CHECK(none.size() == 0);
  CHECK(none.to_vector().empty());
  CHECK(none.copyto(xp::cpu(2)).shape() == xp::Shape(0, 3));
  CHECK(none.reshape({3, 0}).shape() == xp::Shape(3, 0));
  const auto scalar = xp::full<float>({}, 5.0f, device);
  CHECK(scalar.ndim() == 0);
  CHECK(scalar.size() == 1);
  CHECK(scalar.item() == 5.0f);
}

XP_TEST_ON_DEVICES("*_like with NumPy's dtype and shape arguments") {
  const auto a = xp::array<float>({1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f}, {2, 3}, device);
  const auto z = xp::zeros_like(a, xp::dtype::int16);
  CHECK(z.dtype() == xp::dtype::int16);
  CHECK(z.shape() == xp::Shape{2, 3});
  CHECK(z.device() == device);
  CHECK(z.as<std::int16_t>().to_vector() == std::vector<std::int16_t>(6, 0));
  const auto o = xp::ones_like(a, std::nullopt, {4});
  CHECK(o.dtype() == xp::dtype::float32);
  CHECK(o.as<float>().to_vector() == std::vector<float>{1, 1, 1, 1});
  const auto f = xp::full_like(a, 2.7, xp::dtype::int32, xp::Shape{3, 1});  // NumPy's unsafe cast: 2
  CHECK(f.shape() == xp::Shape{3, 1});
  CHECK(f.as<std::int32_t>().to_vector() == std::vector<std::int32_t>{2, 2, 2});
  CHECK(xp::full_like(a, -1, xp::dtype::bool_).as<bool>().to_vector() == std::vector<bool>(6, true));
  CHECK(xp::full_like(a, std::complex<double>(1, -2), xp::dtype::complex64).as<std::complex<float>>().to_vector()[5] ==
        std::complex<float>(1, -2));
  const auto e = xp::empty_like(a, xp::dtype::float64, xp::Shape{0, 5});
  CHECK(e.dtype() == xp::dtype::float64);
  CHECK(e.shape() == xp::Shape{0, 5});
  const xp::ndarray<> dynamic = a;
  CHECK(xp::ones_like(dynamic, std::nullopt).shape() == xp::Shape{2, 3});
}
