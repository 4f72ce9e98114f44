// NumPy's array manipulation routines: shapes and values by hand (NumPy's), views where NumPy gives
// views (a write through the result shows in the input), copies where it copies, its errors, and
// gradients through them.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/manipulation.hpp"
#include "xp/xp.hpp"

namespace {

using Values = std::vector<std::int32_t>;

// 0, 1, ..., n - 1 in the given shape.
xp::ndarray<std::int32_t> counting(const xp::Shape& shape, xp::Device device) {
  return xp::arange<std::int32_t>(0, static_cast<double>(xp::numel(shape)), 1, device).reshape(shape);
}

}  // namespace

XP_TEST_ON_DEVICES("manipulation: ravel views, flatten copies, swapaxes and moveaxis permute axes") {
  const auto a = counting({2, 3, 4}, device);
  const auto flat = xp::ravel(a);
  CHECK(flat.shape() == xp::Shape{24});
  CHECK(flat.shares_buffer_with(a));
  CHECK_FALSE(xp::flatten(a).shares_buffer_with(a));
  CHECK(xp::ravel(xp::swapaxes(a, 0, 2)).to_vector()[1] == 12);  // a copy in C order of the permuted view
  const auto swapped = xp::swapaxes(a, 0, -1);
  CHECK(swapped.shape() == xp::Shape{4, 3, 2});
  CHECK(swapped.shares_buffer_with(a));
  CHECK(xp::moveaxis(a, 0, -1).shape() == xp::Shape{3, 4, 2});
  CHECK(xp::moveaxis(a, -1, 0).shape() == xp::Shape{4, 2, 3});
  CHECK(xp::moveaxis(a, {0, 1}, {-1, -2}).shape() == xp::Shape{4, 3, 2});
  CHECK(xp::moveaxis(a, {0, 2}, {2, 0}).to_vector() == xp::transpose(a, {2, 1, 0}).to_vector());
  CHECK_THROWS_WITH_AS(xp::moveaxis(a, {0, 0}, {1, 2}), "moveaxis: repeated axis 0", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::moveaxis(a, {0}, {1, 2}),
                       "moveaxis: source and destination must have the same number of elements, not 1 and 2",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::swapaxes(a, 0, 3), xp::ValueError);
  CHECK(xp::ascontiguousarray(a).shares_buffer_with(a));
  const auto contiguous = xp::ascontiguousarray(swapped);
  CHECK(contiguous.is_contiguous());
  CHECK(contiguous.to_vector() == swapped.to_vector());
  CHECK(xp::ascontiguousarray(xp::full<std::int32_t>({}, 7, device)).shape() == xp::Shape{1});
}

XP_TEST_ON_DEVICES("manipulation: hstack, vstack, dstack and column_stack as NumPy shapes them") {
  const auto x = counting({3}, device);
  const auto y = xp::arange<std::int32_t>(10, 13, 1, device);
  CHECK(xp::hstack({x, y}).to_vector() == Values{0, 1, 2, 10, 11, 12});
  const auto v = xp::vstack({x, y});
  CHECK(v.shape() == xp::Shape{2, 3});
  CHECK(v.to_vector() == Values{0, 1, 2, 10, 11, 12});
  const auto d = xp::dstack({x, y});
  CHECK(d.shape() == xp::Shape{1, 3, 2});
  CHECK(d.to_vector() == Values{0, 10, 1, 11, 2, 12});
  const auto c = xp::column_stack({x, y});
  CHECK(c.shape() == xp::Shape{3, 2});
  CHECK(c.to_vector() == Values{0, 10, 1, 11, 2, 12});
  const auto m = counting({2, 2}, device);
  CHECK(xp::hstack({m, m}).shape() == xp::Shape{2, 4});
  CHECK(xp::dstack({m, m}).shape() == xp::Shape{2, 2, 2});
  const xp::ndarray<> mixed = xp::vstack(std::vector<xp::ndarray<>>{x, xp::array<double>({0.5, 1, 2}, {3}, device)});
  CHECK(mixed.dtype() == xp::dtype::float64);  // concatenate's promotion
}

XP_TEST_ON_DEVICES("manipulation: array_split gives the first parts one more element") {
  const auto a = counting({7}, device);
  const auto parts = xp::array_split(a, 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[0].to_vector() == Values{0, 1, 2});
  CHECK(parts[1].to_vector() == Values{3, 4});
  CHECK(parts[2].to_vector() == Values{5, 6});
  CHECK(parts[1].shares_buffer_with(a));
  CHECK(xp::array_split(counting({2, 2}, device), 3, 1)[2].shape() == xp::Shape{2, 0});
  CHECK_THROWS_WITH_AS(xp::array_split(a, 0), "array_split: the number of sections must be larger than 0, not 0",
                       xp::ValueError);
}

XP_TEST_ON_DEVICES("manipulation: tile and repeat copy; repeat with counts per element") {
  const auto a = counting({2, 2}, device);
  const auto tiled = xp::tile(a, {2, 3});
  CHECK(tiled.shape() == xp::Shape{4, 6});
  CHECK(tiled.to_vector() == Values{0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3, 0, 1, 0, 1, 0, 1, 2, 3, 2, 3, 2, 3});
  CHECK(xp::tile(counting({3}, device), {2, 1, 2}).shape() == xp::Shape{2, 1, 6});
  CHECK(xp::tile(a, {2}).shape() == xp::Shape{2, 4});  // reps aligned at the last axis
  CHECK_FALSE(xp::tile(a, {1, 1}).shares_buffer_with(a));
  CHECK(xp::repeat(a, 2).to_vector() == Values{0, 0, 1, 1, 2, 2, 3, 3});
  CHECK(xp::repeat(a, 2, 0).to_vector() == Values{0, 1, 0, 1, 2, 3, 2, 3});
  CHECK(xp::repeat(a, {1, 2}, 1).to_vector() == Values{0, 1, 1, 2, 3, 3});
  CHECK(xp::repeat(a, {0, 3}, 0).shape() == xp::Shape{3, 2});
  CHECK_FALSE(xp::repeat(a, 1, 0).shares_buffer_with(a));
  CHECK_THROWS_WITH_AS(xp::repeat(a, {1, 2, 3}, 0), "repeat: 3 counts for an axis of extent 2", xp::ValueError);
  CHECK_THROWS_AS(xp::tile(a, {-1}), xp::ValueError);
}

XP_TEST_ON_DEVICES("manipulation: flip, fliplr, flipud and rot90 are views; roll copies") {
  const auto a = counting({2, 3}, device);
  const auto flipped = xp::flip(a);
  CHECK(flipped.to_vector() == Values{5, 4, 3, 2, 1, 0});
  CHECK(flipped.shares_buffer_with(a));
  CHECK(xp::fliplr(a).to_vector() == Values{2, 1, 0, 5, 4, 3});
  CHECK(xp::flipud(a).to_vector() == Values{3, 4, 5, 0, 1, 2});
  CHECK_THROWS_WITH_AS(xp::fliplr(counting({3}, device)), "fliplr: the array must be at least 2-D, not 1-D",
                       xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::flip(a, {0, -2}), "flip: repeated axis -2", xp::ValueError);
  const auto r = xp::rot90(a);
  CHECK(r.shape() == xp::Shape{3, 2});
  CHECK(r.to_vector() == Values{2, 5, 1, 4, 0, 3});  // np.rot90([[0, 1, 2], [3, 4, 5]])
  CHECK(xp::rot90(a, 2).to_vector() == Values{5, 4, 3, 2, 1, 0});
  CHECK(xp::rot90(a, -1).to_vector() == Values{3, 0, 4, 1, 5, 2});
  CHECK(xp::rot90(a, 4).to_vector() == a.to_vector());
  CHECK(r.shares_buffer_with(a));
  CHECK_THROWS_AS(xp::rot90(a, 1, {0, -2}), xp::ValueError);
  CHECK(xp::roll(counting({5}, device), 2).to_vector() == Values{3, 4, 0, 1, 2});
  CHECK(xp::roll(counting({5}, device), -7).to_vector() == Values{2, 3, 4, 0, 1});
  CHECK(xp::roll(a, 1).to_vector() == Values{5, 0, 1, 2, 3, 4});  // flattened, shape kept
  CHECK(xp::roll(a, 1).shape() == xp::Shape{2, 3});
  CHECK(xp::roll(a, {1, -1}, {0, 1}).to_vector() == Values{4, 5, 3, 1, 2, 0});
  CHECK_FALSE(xp::roll(a, 3, 1).shares_buffer_with(a));
}

XP_TEST_ON_DEVICES("manipulation: pad in NumPy's five modes, any width") {
  const auto x = counting({3}, device) + 1;  // 1 2 3
  CHECK(xp::pad(x, {2, 1}).to_vector() == Values{0, 0, 1, 2, 3, 0});
  CHECK(xp::pad(x, 1, "constant", 7.9).to_vector() == Values{7, 1, 2, 3, 7});  // the value cast to int32
  CHECK(xp::pad(x, 2, "edge").to_vector() == Values{1, 1, 1, 2, 3, 3, 3});
  CHECK(xp::pad(x, 2, "reflect").to_vector() == Values{3, 2, 1, 2, 3, 2, 1});
  CHECK(xp::pad(x, 2, "symmetric").to_vector() == Values{2, 1, 1, 2, 3, 3, 2});
  CHECK(xp::pad(x, 2, "wrap").to_vector() == Values{2, 3, 1, 2, 3, 1, 2});
  CHECK(xp::pad(x, {5, 0}, "reflect").to_vector() == Values{2, 1, 2, 3, 2, 1, 2, 3});  // past the extent
  const auto m = counting({2, 2}, device);
  const auto padded = xp::pad(m, {{1, 0}, {0, 1}}, "wrap");
  CHECK(padded.shape() == xp::Shape{3, 3});
  CHECK(padded.to_vector() == Values{2, 3, 2, 0, 1, 0, 2, 3, 2});
  CHECK_FALSE(xp::pad(m, 0).shares_buffer_with(m));
  CHECK_THROWS_WITH_AS(xp::pad(m, -1), "pad: widths must not be negative, not (-1, -1)", xp::ValueError);
  CHECK_THROWS_AS(xp::pad(m, 1, "mean"), xp::ValueError);
  CHECK_THROWS_AS(xp::pad(counting({0}, device), 1, "edge"), xp::ValueError);
  xp_test::check_gradients([](const xp_test::Inputs& in) { return xp::pad(in[0], {2, 3}, "reflect") * 2.0; },
                           {xp::array<double>({0.5, -1, 2, 3}, {4}, device)}, 1e-6, xp_test::Differences::on_cpu);
}

XP_TEST_ON_DEVICES("manipulation: broadcast_arrays views, broadcast_shapes") {
  const auto x = counting({3, 1}, device);
  const auto y = counting({4}, device);
  const auto both = xp::broadcast_arrays({x, y});
  CHECK(both[0].shape() == xp::Shape{3, 4});
  CHECK(both[1].shape() == xp::Shape{3, 4});
  CHECK(both[0].shares_buffer_with(x));
  CHECK(both[1].to_vector()[5] == 1);
  CHECK(xp::broadcast_shapes({xp::Shape{6, 1}, xp::Shape{5}, xp::Shape{1, 1}}) == xp::Shape{6, 5});
  CHECK(xp::broadcast_shapes({}) == xp::Shape{});
  CHECK_THROWS_AS(xp::broadcast_shapes({xp::Shape{2}, xp::Shape{3}}), xp::ValueError);
}

XP_TEST_ON_DEVICES("manipulation: gradients flow through the routines") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto a = xp::array<double>({0.3, -0.6, 2.43, 0.8, 1.5, -2.0}, {2, 3}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::tile(in[0], {2, 1}) * xp::tile(in[0], {2, 1}); }, {a},
                  1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::repeat(in[0], {2, 0, 1}, 1) * 3.0; }, {a}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::roll(in[0], 1, 1) * xp::rot90(xp::rot90(in[0])); }, {a},
                  1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::vstack({in[0], xp::flip(in[0])}); }, {a}, 1e-6, on_cpu);
}

XP_TEST_ON_DEVICES("matrices: tril and triu as NumPy's; identity") {
  const auto a = counting({3, 4}, device) + 1;
  CHECK(xp::tril(a).to_vector() == Values{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0});
  CHECK(xp::tril(a, -1).to_vector() == Values{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0});
  CHECK(xp::triu(a, 1).to_vector() == Values{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12});
  CHECK(xp::triu(xp::array<std::int32_t>({1, 2, 3}, {3}, device)).to_vector() == Values{1, 2, 3, 0, 2, 3, 0, 0, 3});
  const auto stacked = xp::tril(counting({2, 2, 2}, device));
  CHECK(stacked.to_vector() == Values{0, 0, 2, 3, 4, 0, 6, 7});
  CHECK(xp::tril(xp::array<bool>({true, true, true, true}, {2, 2}, device)).dtype() == xp::dtype::bool_);
  CHECK(xp::identity<double>(2, device).to_vector() == std::vector<double>{1, 0, 0, 1});
  xp_test::check_gradients([](const xp_test::Inputs& in) { return xp::triu(in[0]) * in[0]; },
                           {xp::array<double>({0.5, -1, 2, 3}, {2, 2}, device)}, 1e-6, xp_test::Differences::on_cpu);
}

XP_TEST_ON_DEVICES("ranges: logspace, geomspace, meshgrid and indices as NumPy's") {
  CHECK(xp::logspace<double>(0, 3, 4, true, 10.0, device).to_vector() == std::vector<double>{1, 10, 100, 1000});
  CHECK(xp::logspace<double>(0, 3, 3, false, 2.0, device).to_vector() == std::vector<double>{1, 2, 4});
  const auto g = xp::geomspace<double>(-1, -1000, 4, true, device).to_vector();
  CHECK(g == std::vector<double>{-1, std::pow(10.0, 1.0) * -1, std::pow(10.0, 2.0) * -1, -1000});
  CHECK(xp::geomspace<float>(2, 32, 5, true, device).to_vector() == std::vector<float>{2, 4, 8, 16, 32});
  CHECK_THROWS_AS(xp::geomspace<double>(0, 1, 3, true, device), xp::ValueError);
  const auto x = counting({3}, device);
  const auto y = counting({2}, device) + 10;
  const auto xy = xp::meshgrid({x, y});
  CHECK(xy[0].shape() == xp::Shape{2, 3});
  CHECK(xy[0].to_vector() == Values{0, 1, 2, 0, 1, 2});
  CHECK(xy[1].to_vector() == Values{10, 10, 10, 11, 11, 11});
  CHECK_FALSE(xy[0].shares_buffer_with(x));
  const auto ij = xp::meshgrid({x, y}, "ij");
  CHECK(ij[0].shape() == xp::Shape{3, 2});
  CHECK(ij[1].to_vector() == Values{10, 11, 10, 11, 10, 11});
  CHECK_THROWS_AS(xp::meshgrid({x}, "yx"), xp::ValueError);
  const auto grid = xp::indices({2, 3}, xp::dtype::int32, device);
  CHECK(grid.shape() == xp::Shape{2, 2, 3});
  CHECK(grid.as<std::int32_t>().to_vector() == Values{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2});
}
