// Run-time axes and shapes, and NumPy's shape functions (reshape, transpose, squeeze, expand_dims,
// concatenate, stack, split) with their errors.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "device_cases.hpp"

namespace {

std::vector<float> values_of(const xp::ndarray<float>& a) { return a.to_vector(); }

}  // namespace

// `{}` would mean both "every axis" and "no axis"; a bool is a keepdims slip. Neither compiles.
static_assert(!std::is_default_constructible_v<xp::Axes>);
static_assert(!std::is_constructible_v<xp::Axes, bool>);
static_assert(std::is_convertible_v<std::vector<int>, xp::Axes>);
static_assert(std::is_convertible_v<std::vector<std::int64_t>, xp::Axes>);
static_assert(std::is_convertible_v<std::int64_t, xp::Axes>);

XP_TEST_ON_DEVICES("axes from run-time values: one integer of any type, vectors, and the empty list") {
  const auto a = xp::arange<float>(24, device).reshape({2, 3, 4});
  const std::vector<int> axes{0, 2};
  CHECK(values_of(xp::sum(a, axes)) == std::vector<float>{60, 92, 124});
  CHECK(values_of(a.sum(std::vector<std::int64_t>{-1, 0}, true)) == std::vector<float>{60, 92, 124});
  const std::int64_t last = -1;
  const std::size_t first = 0;
  CHECK(xp::sum(a, last).shape() == xp::Shape(2, 3));
  CHECK(xp::sum(a, first).shape() == xp::Shape(3, 4));
  // The empty list reduces nothing (NumPy's axis=()); std::nullopt reduces everything (axis=None).
  CHECK(values_of(xp::sum(a, std::vector<int>{})) == values_of(a));
  CHECK(xp::sum(a, std::nullopt).item() == 276.0f);
  CHECK(xp::max(a, std::vector<int>{}, true).shape() == xp::Shape(2, 3, 4));
  CHECK_THROWS_WITH_AS(xp::sum(a, std::vector<int>{0, 3}), "sum: axis 3 is out of bounds for array of dimension 3",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::sum(a, std::int64_t(1) << 40), doctest::Contains("is out of range"), xp::ValueError);
  CHECK_THROWS_AS(xp::sum(a, std::vector<int>(17, 0)), xp::ValueError);  // more axes than an array can have
}

XP_TEST_ON_DEVICES("reshape and transpose as free functions, from run-time shapes and permutations") {
  const auto a = xp::arange<float>(6, device);
  const std::vector<std::int64_t> shape{2, -1};
  const auto m = xp::reshape(a, shape);
  CHECK(m.shape() == xp::Shape(2, 3));
  CHECK(m.shares_buffer_with(a));
  CHECK(xp::reshape(a, {3, 2}).shape() == xp::Shape(3, 2));
  CHECK_THROWS_WITH_AS(xp::reshape(a, {4, -1}), doctest::Contains("cannot reshape array of size 6"), xp::ValueError);
  CHECK(values_of(xp::transpose(m)) == std::vector<float>{0, 3, 1, 4, 2, 5});
  const auto cube = xp::arange<float>(24, device).reshape({2, 3, 4});
  const std::vector<int> perm{1, 2, 0};
  const auto p = xp::transpose(cube, perm);
  CHECK(p.shape() == xp::Shape(3, 4, 2));
  CHECK(p.shares_buffer_with(cube));
  CHECK(values_of(p(1, 2)) == std::vector<float>{6, 18});  // cube[0, 1, 2] and cube[1, 1, 2]
  CHECK(xp::transpose(cube, {-1, 0, 1}).shape() == xp::Shape(4, 2, 3));
  CHECK_THROWS_WITH_AS(xp::transpose(cube, {0, 1}), doctest::Contains("2 axes given for an array of dimension 3"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::transpose(cube, {0, 1, 1}), doctest::Contains("repeated axis"), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::transpose(cube, {0, 1, 3}), doctest::Contains("axis 3 is out of bounds"), xp::ValueError);
  CHECK_THROWS_AS(xp::transpose(cube, std::vector<int>{}), xp::ValueError);
  const xp::ndarray<> dynamic = cube;
  CHECK(xp::transpose(dynamic, perm).shape() == xp::Shape(3, 4, 2));  // the run-time typed face too
}

XP_TEST_ON_DEVICES("squeeze and expand_dims") {
  const auto a = xp::arange<float>(6, device).reshape({1, 2, 1, 3, 1});
  CHECK(xp::squeeze(a).shape() == xp::Shape(2, 3));
  CHECK(xp::squeeze(a).shares_buffer_with(a));
  CHECK(xp::squeeze(a, {0, -1}).shape() == xp::Shape(2, 1, 3));
  CHECK(xp::squeeze(a, 2).shape() == xp::Shape(1, 2, 3, 1));
  CHECK(values_of(xp::squeeze(a)) == std::vector<float>{0, 1, 2, 3, 4, 5});
  CHECK(xp::squeeze(xp::zeros<float>({1, 1}, device)).shape() == xp::Shape());
  CHECK_THROWS_WITH_AS(xp::squeeze(a, 1),
                       "squeeze: cannot select an axis to squeeze out which has size not equal to one (axis 1 has "
                       "size 2)",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::squeeze(a, 5), xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::squeeze(a, {0, 0}), doctest::Contains("duplicate value in 'axis'"), xp::ValueError);

  const auto m = xp::arange<float>(6, device).reshape({2, 3});
  CHECK(xp::expand_dims(m, 0).shape() == xp::Shape(1, 2, 3));
  CHECK(xp::expand_dims(m, -1).shape() == xp::Shape(2, 3, 1));
  CHECK(xp::expand_dims(m, {0, 3}).shape() == xp::Shape(1, 2, 3, 1));
  CHECK(xp::expand_dims(m, std::vector<int>{1, 2}).shape() == xp::Shape(2, 1, 1, 3));
  const auto e = xp::expand_dims(m, 1);
  CHECK(e.shares_buffer_with(m));
  CHECK(values_of(e) == values_of(m));
  CHECK(values_of(xp::add(e, xp::zeros<float>({2, 2, 3}, device))(1, 1)) == std::vector<float>{3, 4, 5});
  CHECK_THROWS_WITH_AS(xp::expand_dims(m, 3), "expand_dims: axis 3 is out of bounds for array of dimension 3",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::expand_dims(m, {1, 1}), xp::ValueError);
  CHECK_THROWS_AS(xp::expand_dims(m, std::nullopt), xp::ValueError);
}

XP_TEST_ON_DEVICES("concatenate and stack copy into one new array") {
  const auto a = xp::arange<float>(6, device).reshape({2, 3});
  const auto b = xp::arange<float>(6, 10, 1, device).reshape({2, 2});
  const auto rows = xp::concatenate({a, a}, 0);
  CHECK(rows.shape() == xp::Shape(4, 3));
  CHECK(values_of(rows) == std::vector<float>{0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5});
  const auto columns = xp::concatenate({a, b}, -1);
  CHECK(values_of(columns) == std::vector<float>{0, 1, 2, 6, 7, 3, 4, 5, 8, 9});
  CHECK(!columns.shares_buffer_with(a));
  std::vector<xp::ndarray<float>> many{a.transpose(), xp::zeros<float>({0, 2}, device),
                                       a(xp::slice(), 0).reshape({1, 2})};
  CHECK(values_of(xp::concatenate(many)) == std::vector<float>{0, 3, 1, 4, 2, 5, 0, 3});
  // Run-time typed arrays of different dtypes: the promoted dtype.
  const std::vector<xp::ndarray<>> mixed{xp::array<std::int8_t>({1, -2}, device),
                                         xp::array<std::uint8_t>({200}, device)};
  const auto promoted = xp::concatenate(mixed);
  CHECK(promoted.dtype() == xp::dtype::int16);
  CHECK(promoted.as<std::int16_t>().to_vector() == std::vector<std::int16_t>{1, -2, 200});
  CHECK_THROWS_WITH_AS(xp::concatenate({a, b}, 0),
                       "concatenate: all the input array dimensions except for the concatenation axis must match "
                       "exactly, but along dimension 1, the array at index 0 has size 3 and the array at index 1 has "
                       "size 2",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::concatenate({a, xp::zeros<float>({3}, device)}),
                       doctest::Contains("the array at index 0 has 2 dimension(s) and the array at index 1 has 1"),
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::concatenate(std::vector<xp::ndarray<float>>{}),
                       "concatenate: need at least one array to concatenate", xp::ValueError);
  CHECK_THROWS_AS(xp::concatenate({xp::zeros<float>({}, device)}), xp::ValueError);
  CHECK_THROWS_AS(xp::concatenate({a, a}, 2), xp::ValueError);

  const auto s0 = xp::stack({a, a + 10.0f});
  CHECK(s0.shape() == xp::Shape(2, 2, 3));
  CHECK(values_of(s0(1, 1)) == std::vector<float>{13, 14, 15});
  const auto s2 = xp::stack(std::vector<xp::ndarray<float>>{a, a + 10.0f}, -1);
  CHECK(s2.shape() == xp::Shape(2, 3, 2));
  CHECK(values_of(s2(0, 2)) == std::vector<float>{2, 12});
  CHECK_THROWS_WITH_AS(xp::stack({a, b}),
                       "stack: all input arrays must have the same shape, but the array at index 0 has shape (2, 3) "
                       "and the array at index 1 has shape (2, 2)",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::stack({a, a}, 3), xp::ValueError);
  CHECK_THROWS_AS(xp::stack(std::vector<xp::ndarray<float>>{}), xp::ValueError);
}

TEST_CASE("concatenate needs one device") {
  CHECK_THROWS_WITH_AS(xp::concatenate({xp::zeros<float>({2}, xp::cpu(0)), xp::zeros<float>({2}, xp::cpu(1))}),
                       "concatenate: argument 0 is on cpu(0) but argument 1 is on cpu(1)", xp::DeviceMismatchError);
}

XP_TEST_ON_DEVICES("split into equal parts or at points, as views") {
  const auto a = xp::arange<float>(12, device).reshape({6, 2});
  const auto thirds = xp::split(a, 3);
  REQUIRE(thirds.size() == 3);
  CHECK(values_of(thirds[1]) == std::vector<float>{4, 5, 6, 7});
  CHECK(thirds[2].shares_buffer_with(a));
  const auto halves = xp::split(a, 2, 1);
  CHECK(values_of(halves[1]) == std::vector<float>{1, 3, 5, 7, 9, 11});
  CHECK_THROWS_WITH_AS(xp::split(a, 4),
                       "split: array split does not result in an equal division: 6 along axis 0 into 4 sections",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::split(a, 0), xp::ValueError);
  CHECK_THROWS_AS(xp::split(a, 2, 2), xp::ValueError);
  // Points: a[:2], a[2:5], a[5:]; braces are points, as NumPy's list.
  const auto parts = xp::split(a, {2, 5});
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].shape() == xp::Shape(2, 2));
  CHECK(parts[1].shape() == xp::Shape(3, 2));
  CHECK(values_of(parts[2]) == std::vector<float>{10, 11});
  CHECK(xp::split(a, {2}).size() == 2);
  const std::vector<int> points{-1, 10, 3};  // from the end, past the end, and going back
  const auto odd = xp::split(a, points);
  REQUIRE(odd.size() == 4);
  CHECK(odd[0].shape() == xp::Shape(5, 2));  // a[:-1]
  CHECK(odd[1].shape() == xp::Shape(1, 2));  // a[-1:10]
  CHECK(odd[2].shape() == xp::Shape(0, 2));  // a[10:3]
  CHECK(odd[3].shape() == xp::Shape(3, 2));  // a[3:]
  CHECK(values_of(odd[3]) == std::vector<float>{6, 7, 8, 9, 10, 11});
}
