// Indexing through integer arrays and masks, assignment, the compound operators and NumPy's gather,
// scatter and mask functions, on every device, against values NumPy computed (quoted beside them).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "device_cases.hpp"
#include "element_types.hpp"
#include "gradient_check.hpp"

namespace {

template <class T>
xp::ndarray<T> iota(const xp::Shape& shape, xp::Device device) {
  std::vector<T> values(static_cast<std::size_t>(xp::numel(shape)));
  for (std::size_t k = 0; k < values.size(); ++k) values[k] = static_cast<T>(k);
  return xp::array<T>(values, shape, device);
}

xp::ndarray<std::int64_t> positions(std::vector<std::int64_t> values, xp::Device device) {
  return xp::array<std::int64_t>(values, device);
}

template <class F>
std::string index_error(F&& f) {
  try {
    f();
  } catch (const xp::IndexError& e) { return e.what(); }
  return "no IndexError";
}

}  // namespace

XP_TEST_ON_DEVICES("index arrays: negative and repeated positions, NumPy's placement of the broadcast shape") {
  const auto a = iota<float>({2, 3, 4}, device);
  const auto flat = iota<float>({10}, device);
  CHECK(flat(positions({3, -1, 3, 0}, device)).to_vector() == std::vector<float>{3, 9, 3, 0});
  // a[0, :, [1, 3]]: the advanced indices (0 and [1, 3]) are separated by a slice: their shape first
  const auto separated = a(0, xp::slice(), positions({1, 3}, device));
  CHECK(separated.shape() == xp::Shape{2, 3});
  CHECK(separated.to_vector() == std::vector<float>{1, 5, 9, 3, 7, 11});
  // a[:, [2, 0], 1]: adjacent, in place of the axes they index
  const auto adjacent = a(xp::slice(), positions({2, 0}, device), 1);
  CHECK(adjacent.shape() == xp::Shape{2, 2});
  CHECK(adjacent.to_vector() == std::vector<float>{9, 1, 21, 13});
  // a[1][[[0], [1]], [3, 0, 2]]: index arrays broadcast together
  const auto rows = xp::array<std::int64_t>({0, 1}, xp::Shape{2, 1}, device);
  const auto broadcast = a(1)(rows, xp::array<std::int32_t>({3, 0, 2}, device));
  CHECK(broadcast.shape() == xp::Shape{2, 3});
  CHECK(broadcast.to_vector() == std::vector<float>{15, 12, 14, 19, 16, 18});
  // newaxis and ellipsis: views
  CHECK(a(xp::newaxis, xp::ellipsis, 1).shape() == xp::Shape{1, 2, 3});
  CHECK(a(xp::ellipsis, xp::newaxis).shape() == xp::Shape{2, 3, 4, 1});
  CHECK(a(xp::ellipsis, 2).shares_buffer_with(a));
  CHECK(a(1, xp::ellipsis, positions({0}, device)).to_vector() == std::vector<float>{12, 16, 20});
}

XP_TEST_ON_DEVICES("masks: over every axis, over leading axes, 0-d, and merged or not") {
  const auto a = iota<float>({2, 3, 4}, device);
  const auto m = xp::array<bool>({true, false, true, false, false, false, false, true, true, true, false, false},
                                 xp::Shape{3, 4}, device);
  CHECK(a(1)(m).to_vector() == std::vector<float>{12, 14, 19, 20, 21});
  const auto leading = a(xp::slice(), xp::array<bool>({true, false, true}, device));
  CHECK(leading.shape() == xp::Shape{2, 2, 4});
  CHECK(leading.to_vector() == std::vector<float>{0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15, 20, 21, 22, 23});
  // a transposed view: the mask's axes are not one block, positions unravel over them
  const auto t = a(1).transpose();
  const auto mt = xp::array<bool>({true, false, false, false, true, false, false, false, true, true, false, false},
                                  xp::Shape{4, 3}, device);
  CHECK(t(mt).to_vector() == std::vector<float>{12, 17, 22, 15});
  CHECK(a(xp::array<bool>({true}, xp::Shape{}, device)).shape() == xp::Shape{1, 2, 3, 4});
  CHECK(a(xp::array<bool>({false}, xp::Shape{}, device)).shape() == xp::Shape{0, 2, 3, 4});
}

XP_TEST_ON_DEVICES("index errors as NumPy's") {
  const auto a = iota<float>({3, 4}, device);
  CHECK(index_error([&] { (void)a(positions({5}, device)); }) == "index 5 is out of bounds for axis 0 with size 3");
  CHECK(index_error([&] { (void)a(xp::slice(), positions({1, -7}, device)); }) ==
        "index -7 is out of bounds for axis 1 with size 4");
  CHECK(index_error([&] { (void)a(1, 2, 3); }) ==
        "too many indices for array: array is 2-dimensional, but 3 were indexed");
  CHECK(index_error([&] { (void)a(xp::array<float>({1.f}, device)); }) ==
        "arrays used as indices must be of integer (or boolean) type, not float32");
  CHECK(index_error([&] { (void)a(xp::ellipsis, xp::ellipsis); }) ==
        "an index can only have a single ellipsis ('...')");
  const auto square = xp::array<bool>(std::vector<bool>(9, true), xp::Shape{3, 3}, device);
  CHECK(index_error([&] { (void)a(square); }) ==
        "boolean index did not match indexed array along axis 1; size of axis is 4 but size of corresponding boolean "
        "axis is 3 (the mask's shape is (3, 3), the indexed axes' (3, 4))");
  CHECK(index_error([&] { (void)a(positions({0, 1}, device), positions({0, 1, 2}, device)); }) ==
        "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)");
  CHECK_THROWS_AS(xp::take(a, positions({0}, device), 0, "foo"), xp::ValueError);
  CHECK(index_error([&] { (void)xp::take(xp::zeros<float>({0}, device), positions({1}, device), 0, "wrap"); }) ==
        "take: cannot do a non-empty take from an empty axes.");
  // the scatter checks before it writes
  const auto b = xp::zeros<float>({3}, device);
  CHECK_THROWS_AS(b.at(positions({0, 3}, device)) = 1.f, xp::IndexError);
  CHECK(b.to_vector() == std::vector<float>{0, 0, 0});
}

XP_TEST_ON_DEVICES("assignment through every kind of index, broadcast; the last repeated write wins") {
  auto c = xp::zeros<double>({5}, device);
  c.at(positions({0, 1, 0}, device)) = xp::array<double>({1, 2, 3}, device);  // c[[0, 1, 0]] = [1, 2, 3]
  CHECK(c.to_vector() == std::vector<double>{3, 2, 0, 0, 0});
  auto k = xp::zeros<double>({3, 4}, device);
  const auto rows = xp::array<std::int64_t>({2, 0}, xp::Shape{2, 1}, device);
  k.at(rows, positions({1, 3}, device)) = xp::array<double>({1, 2, 3, 4}, xp::Shape{2, 2}, device);
  CHECK(k.to_vector() == std::vector<double>{0, 3, 0, 4, 0, 0, 0, 0, 0, 1, 0, 2});
  k.at(1) = 7;  // a scalar into a basic view
  k.at(xp::slice(), 0) = xp::array<float>({-1.f, -2.f, -3.f}, device);  // converted and broadcast
  CHECK(k.to_vector() == std::vector<double>{-1, 3, 0, 4, -2, 7, 7, 7, -3, 1, 0, 2});
  auto m = iota<std::int32_t>({2, 3}, device);
  m.at(m > 2) = 0;  // a mask of m's shape and a scalar
  CHECK(m.to_vector() == std::vector<std::int32_t>{0, 1, 2, 0, 0, 0});
  m.at(xp::slice(), xp::array<bool>({true, false, true}, device)) = xp::array<std::int32_t>({9, 7}, device);
  CHECK(m.to_vector() == std::vector<std::int32_t>{9, 1, 7, 9, 0, 7});
  CHECK_THROWS_AS(m.at(positions({0, 1}, device)) = xp::array<std::int32_t>({1, 2}, device), xp::ValueError);
  // overlapping source and target: as if the source were copied first
  auto s = iota<float>({5}, device);
  s.at(xp::slice(1, xp::none)) = s(xp::slice(xp::none, -1));
  CHECK(s.to_vector() == std::vector<float>{0, 0, 1, 2, 3});
  auto r = iota<float>({5}, device);
  r.at(positions({4, 3, 2, 1, 0}, device)) = r;
  CHECK(r.to_vector() == std::vector<float>{4, 3, 2, 1, 0});
}

XP_TEST_ON_DEVICES("assignment and gathers over every element type") {
  for_each_element_type([&]<class T>() {
    CAPTURE(xp::dtype_of<T>);
    auto a = xp::array<T>({T(1), T(0), T(1), T(1)}, device);
    const auto g = a(positions({3, 1, -4}, device));
    CHECK(g.to_vector() == std::vector<T>{T(1), T(0), T(1)});
    a.at(positions({1, 2}, device)) = xp::array<T>({T(1), T(0)}, device);
    CHECK(a.to_vector() == std::vector<T>{T(1), T(1), T(0), T(1)});
  });
  auto h = xp::array<xp::float16>({xp::float16(1.5f), xp::float16(2.f)}, device);
  CHECK(static_cast<float>(h(positions({1}, device)).item()) == 2.f);
  auto z = xp::array<std::complex<double>>(std::vector<std::complex<double>>{{1, 2}, {3, 4}}, device);
  xp::scatter_add(z, positions({1, 1}, device), std::complex<double>(1, -1));
  CHECK(z.to_vector() == std::vector<std::complex<double>>{{1, 2}, {5, 2}});
}

XP_TEST_ON_DEVICES("compound operators in place, into views, with NumPy's same_kind rule") {
  auto a = iota<float>({2, 3}, device);
  const auto b = xp::array<float>({10, 20, 30}, device);
  a += b;
  a(1) -= 1.f;
  a(xp::slice(), 0) *= 2;
  CHECK(a.to_vector() == std::vector<float>{20, 21, 32, 24, 23, 34});
  a /= 2;
  a %= 7;
  CHECK(a.to_vector() == std::vector<float>{3, 3.5f, 2, 5, 4.5f, 3});
  auto i = iota<std::int32_t>({2, 3}, device);
  CHECK_THROWS_AS(i += 1.5, xp::TypeError);
  i.at(xp::slice(), xp::array<bool>({true, false, true}, device)) += 10;  // t[:, [T, F, T]] += 10
  CHECK(i.to_vector() == std::vector<std::int32_t>{10, 1, 12, 13, 4, 15});
  i.at(0, positions({0, 0}, device)) += 1;  // a[0, [0, 0]] += 1: one increment, as NumPy
  CHECK(i.to_vector() == std::vector<std::int32_t>{11, 1, 12, 13, 4, 15});
  auto overlap = iota<double>({5}, device);
  overlap(xp::slice(1, xp::none)) += overlap(xp::slice(xp::none, -1));
  CHECK(overlap.to_vector() == std::vector<double>{0, 1, 3, 5, 7});
}

XP_TEST_ON_DEVICES("bitwise compound operators: on arrays, views and selections") {
  auto x = xp::array<std::int64_t>({1, 2, 3, 4}, device);  // values from NumPy
  x &= 6;
  CHECK(x.to_vector() == std::vector<std::int64_t>{0, 2, 2, 4});
  x <<= 2;
  CHECK(x.to_vector() == std::vector<std::int64_t>{0, 8, 8, 16});
  x(xp::slice(xp::none, xp::none, 2)) |= 1;
  x(xp::slice(1, xp::none, 2)) |= 1;
  CHECK(x.to_vector() == std::vector<std::int64_t>{1, 9, 9, 17});
  x ^= 3;
  x >>= 1;
  CHECK(x.to_vector() == std::vector<std::int64_t>{1, 5, 5, 9});
  auto y = xp::array<std::int16_t>({5, 6, 7, 8}, device);
  y.at(xp::array<bool>({true, false, true, false}, device)) |= 8;
  CHECK(y.to_vector() == std::vector<std::int16_t>{13, 6, 15, 8});
  y.at(positions({1, 3}, device)) <<= 1;
  y.at(positions({0}, device)) &= 4;
  y.at(positions({2}, device)) ^= 1;
  y.at(positions({3}, device)) >>= 2;
  CHECK(y.to_vector() == std::vector<std::int16_t>{4, 12, 14, 4});
  auto f = xp::array<float>({1, 2}, device);
  CHECK_THROWS_AS(f &= 1, xp::TypeError);
  CHECK_THROWS_AS(y <<= 1.5, xp::TypeError);
}

XP_TEST_ON_DEVICES("take, take_along_axis, put, put_along_axis, putmask, place") {
  const auto tens = xp::array<std::int64_t>({0, 10, 20, 30, 40}, device);
  const auto wild = xp::array<std::int64_t>({7, -1, 2, -6}, xp::Shape{2, 2}, device);
  CHECK(xp::take(tens, wild, std::nullopt, "wrap").to_vector() == std::vector<std::int64_t>{20, 40, 20, 40});
  CHECK(xp::take(tens, wild, std::nullopt, "clip").to_vector() == std::vector<std::int64_t>{40, 0, 20, 0});
  CHECK(xp::take(tens, wild, 0, "wrap").shape() == xp::Shape{2, 2});
  const auto d = iota<std::int64_t>({2, 3}, device);
  CHECK(xp::take(d, positions({2, 0, 2}, device), 1).to_vector() == std::vector<std::int64_t>{2, 0, 2, 5, 3, 5});
  const auto e = xp::array<std::int64_t>({3, 1, 2, 0, 5, 4}, xp::Shape{2, 3}, device);
  CHECK(xp::take_along_axis(e, xp::argsort(e, 1), 1).to_vector() == std::vector<std::int64_t>{1, 2, 3, 0, 4, 5});
  CHECK_THROWS_AS(xp::take_along_axis(e, positions({0, 1}, device), 1), xp::ValueError);
  auto f = iota<std::int64_t>({10}, device);
  xp::put(f, positions({0, 2, 4, 6}, device), xp::array<std::int64_t>({-1, -2}, device));
  CHECK(f.to_vector() == std::vector<std::int64_t>{-1, 1, -2, 3, -1, 5, -2, 7, 8, 9});
  xp::put(f, positions({12}, device), 100, "clip");
  CHECK(f.to_vector()[9] == 100);
  auto p = xp::zeros<float>({2, 3}, device);
  xp::put_along_axis(p, xp::array<std::int64_t>({2, 0}, xp::Shape{2, 1}, device), 5.f, 1);
  CHECK(p.to_vector() == std::vector<float>{0, 0, 5, 5, 0, 0});
  auto g = iota<std::int64_t>({2, 3}, device);
  xp::putmask(g, g > 2, xp::array<std::int64_t>({10, 20}, device));
  CHECK(g.to_vector() == std::vector<std::int64_t>{0, 1, 2, 20, 10, 20});
  auto h = iota<std::int64_t>({2, 3}, device);
  xp::place(h, xp::array<bool>({false, true, false, true, false, true}, xp::Shape{2, 3}, device),
            xp::array<std::int64_t>({7, 8}, device));
  CHECK(h.to_vector() == std::vector<std::int64_t>{0, 7, 2, 8, 4, 7});
  CHECK_THROWS_AS(xp::place(h, h > 0, xp::zeros<std::int64_t>({0}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("compress, extract, choose, select, nonzero, argwhere, flatnonzero, where") {
  const auto c = iota<std::int64_t>({3, 2}, device);
  CHECK(xp::compress(xp::array<bool>({false, true}, device), c, 1).to_vector() == std::vector<std::int64_t>{1, 3, 5});
  CHECK(xp::compress(xp::array<bool>({true, false, true}, device), c, 0).to_vector() ==
        std::vector<std::int64_t>{0, 1, 4, 5});
  CHECK(xp::compress(xp::array<bool>({true, false}, device), c).to_vector() == std::vector<std::int64_t>{0});
  CHECK(xp::extract(c > 2, c).to_vector() == std::vector<std::int64_t>{3, 4, 5});
  const auto picks = xp::array<std::int64_t>({0, 1, 2, 0}, xp::Shape{2, 2}, device);
  const auto chosen =
      xp::choose(picks, {xp::array<std::int64_t>({1, 2}, device), xp::array<std::int64_t>({10, 20}, device),
                         xp::array<std::int64_t>({100, 200, 300, 400}, xp::Shape{2, 2}, device)});
  CHECK(chosen.to_vector() == std::vector<std::int64_t>{1, 20, 300, 2});
  CHECK_THROWS_AS(xp::choose(positions({3}, device), {positions({1}, device)}), xp::ValueError);
  const auto x = xp::array<double>({0, 1, 2, 3, 4, 5}, device);
  const auto sel = xp::select({x < 2, x > 3}, {x, x * x}, -1.0);
  CHECK(sel.as<double>().to_vector() == std::vector<double>{0, 1, -1, -1, 16, 25});
  const auto b = iota<std::int32_t>({3, 4}, device);
  const auto zero_mod_5 = xp::equal(xp::mod(b, 5), 0);
  const auto nz = xp::nonzero(zero_mod_5);
  REQUIRE(nz.size() == 2);
  CHECK(nz[0].to_vector() == std::vector<std::int64_t>{0, 1, 2});
  CHECK(nz[1].to_vector() == std::vector<std::int64_t>{0, 1, 2});
  CHECK(xp::where(zero_mod_5)[1].to_vector() == std::vector<std::int64_t>{0, 1, 2});
  const auto aw = xp::argwhere(zero_mod_5);
  CHECK(aw.shape() == xp::Shape{3, 2});
  CHECK(aw.to_vector() == std::vector<std::int64_t>{0, 0, 1, 1, 2, 2});
  CHECK(xp::flatnonzero(b - 1).to_vector() == std::vector<std::int64_t>{0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK_THROWS_AS(xp::nonzero(xp::array<float>({1.f}, xp::Shape{}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("scatter_add, scatter_max, scatter_min: every repeated position counts") {
  auto c = xp::zeros<double>({5}, device);
  const auto idx = positions({0, 1, 0, 4, 0}, device);
  xp::scatter_add(c, idx, xp::array<double>({1, 2, 3, 4, 5}, device));  // np.add.at
  CHECK(c.to_vector() == std::vector<double>{9, 2, 0, 0, 4});
  auto m = xp::zeros<double>({5}, device);
  xp::scatter_max(m, idx, xp::array<double>({1, -2, 3, std::nan(""), 5}, device));
  const auto maxima = m.to_vector();
  CHECK(maxima[0] == 5);
  CHECK(maxima[1] == 0);
  CHECK(std::isnan(maxima[4]));
  auto n = xp::zeros<std::int32_t>({2, 3}, device);
  xp::scatter_min(n, {positions({1, 1}, device), xp::slice()}, xp::array<std::int32_t>({-1, 5, -3}, device));
  CHECK(n.to_vector() == std::vector<std::int32_t>{0, 0, 0, -1, 0, -3});
  auto h = xp::zeros<xp::bfloat16>({2}, device);
  xp::scatter_add(h, positions({1, 1, 1}, device), 1.5f);
  CHECK(static_cast<float>(h.to_vector()[1]) == 4.5f);
  auto counts = xp::zeros<std::int64_t>({4}, device);
  xp::scatter_add(counts, xp::array<std::int8_t>({3, 3, -1, 0}, device), 1);
  CHECK(counts.to_vector() == std::vector<std::int64_t>{1, 0, 0, 3});
}

XP_TEST_ON_DEVICES("gathers' gradients are scatter_adds; pick is a gather") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto x = xp_test::smooth_values({3, 4}, device);
  // the index arrays follow the inputs: the finite differences run on cpu(0)
  const auto repeated = [](const xp_test::Inputs& in) { return positions({2, 0, 2, -1}, in[0].device()); };
  check_gradients([&](const xp_test::Inputs& in) { return in[0](repeated(in)); }, {x}, 1e-6, on_cpu);
  check_gradients([&](const xp_test::Inputs& in) { return in[0](xp::slice(), repeated(in)); }, {x}, 1e-6, on_cpu);
  check_gradients([&](const xp_test::Inputs& in) { return xp::take(in[0], repeated(in), std::nullopt, "wrap"); }, {x},
                  1e-6, on_cpu);
  const std::vector<std::int64_t> order{3, 3, 0, 1, 2, 2, 0, 0, 1, 1, 2, 3};
  check_gradients(
      [&](const xp_test::Inputs& in) {
        return xp::take_along_axis(in[0], xp::array<std::int64_t>(order, xp::Shape{3, 4}, in[0].device()), 1);
      },
      {x}, 1e-6, on_cpu);
  check_gradients([&](const xp_test::Inputs& in) { return in[0](x.as_in_context(in[0].device()) > 0.0); }, {x}, 1e-6,
                  on_cpu);
  // each element taken twice: gradient 2 everywhere
  auto y = xp::ones<double>({3}, device);
  y.attach_grad();
  {
    xp::autograd::record recording;
    xp::sum(y(positions({0, 1, 2, 2, 1, 0}, device))).backward();
  }
  CHECK(y.grad().to_vector() == std::vector<double>{2, 2, 2});
  const auto p = xp::array<float>({0.1f, 0.5f, 0.4f, 0.3f, 0.3f, 0.4f}, xp::Shape{2, 3}, device);
  CHECK(xp::pick(p, xp::array<float>({1, 7}, device), 1).to_vector() == std::vector<float>{0.5f, 0.4f});  // clipped
}

XP_TEST_ON_DEVICES("a.at(...) = v while recording: the masked gradient, and the value's") {
  using xp_test::check_gradients;
  using D = xp::ndarray<double>;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const D x = xp_test::smooth_values({3, 4}, device);
  const D row = xp_test::smooth_values({4}, device, 0.25);
  // a slice, the value broadcast over its rows; the earlier values also reach the output through x * a
  check_gradients(
      [](const xp_test::Inputs& in) {
        D a = in[0] * 2.0;
        a.at(xp::slice(1, 3)) = in[1];
        return a * in[0];
      },
      {x, row}, 1e-6, on_cpu);
  // a mask and a scalar: the masked places get no gradient
  check_gradients(
      [](const xp_test::Inputs& in) {
        D a = xp::sin(in[0]);  // sin saves its operand, not its output (exp's would be refused)
        a.at(in[0] > 0.0) = 0.5;
        return a;
      },
      {x}, 1e-6, on_cpu);
  // a repeated integer index: row 0 is written twice, the later value stays and only it gets a gradient
  const D rows = xp_test::smooth_values({3, 4}, device, 0.5);
  const auto analytic = check_gradients(
      [](const xp_test::Inputs& in) {
        D a = in[0] * in[0];
        a.at(positions({0, 2, 0}, in[0].device())) = in[1];
        return a;
      },
      {x, rows}, 1e-6, on_cpu);
  for (std::size_t k = 0; k < 4; ++k) CHECK(analytic[1][k] == 0.0);  // the first of the two row-0 values
  // a compound operator, and an array that had no autograd state before the write
  check_gradients(
      [](const xp_test::Inputs& in) {
        D a = in[0] + 1.0;
        a.at(xp::slice(), xp::slice(0, 2)) *= in[1](xp::slice(0, 2));
        D b = xp::zeros<double>({3, 4}, in[0].device());
        b.at(1) = in[1];
        return a * b + a;
      },
      {x, row}, 1e-6, on_cpu);
}

XP_TEST_ON_DEVICES("a.at(...) = v while recording: what the write would make wrong is refused") {
  using D = xp::ndarray<double>;
  D x = xp::array<double>({1, 2, 3}, device);
  x.attach_grad();
  xp::autograd::record recording;
  CHECK_THROWS_WITH_AS(x.at(0) = 5.0,
                       "setitem: the array of shape (3,) is a variable (attach_grad), whose values are what its "
                       "gradient is for: it cannot be written in place while recording; write into a copy of it",
                       xp::ValueError);
  CHECK(x.to_vector() == std::vector<double>{1, 2, 3});  // refused before writing
  // multiply saved a's values for its backward: the write changes them
  D a = x * 2.0;
  const D product = a * a;
  a.at(1) = 0.0;
  CHECK_THROWS_WITH_AS(product.backward(),
                       "backward: an array that multiply saved for its backward was written in place after it was "
                       "recorded; write into a copy, or record the operation after the write",
                       xp::ValueError);
  // add saves nothing: its gradient still reaches x through a's values before the write
  D b = x * 3.0;
  const D shifted = b + 1.0;
  const D copy_before = b;  // a copy shares the autograd state: it sees the write's history too
  b.at(0) = 7.0;
  (xp::sum(shifted) + xp::sum(b) + xp::sum(copy_before)).backward();
  CHECK(x.grad().to_vector() == std::vector<double>{3, 9, 9});
  // a view taken before the write has the old history over the new values
  D c = x * 1.0;
  const D view = c(xp::slice(0, 2));
  c.at(1) = 4.0;
  CHECK_THROWS_AS(view * 2.0, xp::ValueError);
  CHECK(view.to_vector() == std::vector<double>{1, 4});
}
