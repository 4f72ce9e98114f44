// diagonal, trace and diag: elements by hand (NumPy's), views where NumPy gives them, errors, gradients.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/diagonal.hpp"
#include "xp/xp.hpp"

namespace {

using Values = std::vector<std::int32_t>;

xp::ndarray<std::int32_t> counting(const xp::Shape& shape, xp::Device device) {
  return xp::arange<std::int32_t>(0, static_cast<double>(xp::numel(shape)), 1, device).reshape(shape);
}

}  // namespace

XP_TEST_ON_DEVICES("diagonal: the view of (i, i + offset) of two axes, as the last axis") {
  const auto a = counting({2, 3, 4}, device);
  const auto first = xp::diagonal(a);  // a[i, i, k] at [k, i]
  CHECK(first.shape() == xp::Shape{4, 2});
  CHECK(first.to_vector() == Values{0, 16, 1, 17, 2, 18, 3, 19});
  CHECK(first.shares_buffer_with(a));
  const auto above = xp::diagonal(a, 1, 1, 2);  // a[b, i, i + 1]
  CHECK(above.shape() == xp::Shape{2, 3});
  CHECK(above.to_vector() == Values{1, 6, 11, 13, 18, 23});
  CHECK(xp::diagonal(a, -1, 2, 1).to_vector() == above.to_vector());  // the same elements, axes the other way
  CHECK(xp::diagonal(a, -1, -2, -1).to_vector() == Values{4, 9, 16, 21});
  CHECK(xp::diagonal(a, 4, 1, 2).shape() == xp::Shape{2, 0});
  CHECK(xp::diagonal(a, -3, 1, 2).shape() == xp::Shape{2, 0});
  const auto m = counting({3, 3}, device);
  auto d = xp::diagonal(xp::transpose(m));  // through a transposed view: the same diagonal
  CHECK(d.to_vector() == Values{0, 4, 8});
  d.at(1) = 40;  // a write through the view reaches m, as NumPy's writable views (its diagonal is read-only)
  CHECK(m.to_vector()[4] == 40);
  CHECK_THROWS_WITH_AS(xp::diagonal(counting({3}, device)),
                       "diagonal: needs an array of at least two dimensions, not 1", xp::ValueError);
  CHECK_THROWS_WITH_AS(xp::diagonal(a, 0, 1, -2), "diagonal: axis1 and axis2 cannot be the same (1 and -2)",
                       xp::ValueError);
  CHECK_THROWS_AS(xp::diagonal(a, 0, 0, 3), xp::ValueError);
}

XP_TEST_ON_DEVICES("trace: the sum along the diagonal, in sum's dtype or the one given, or into out") {
  const auto m = counting({3, 3}, device) + 1;
  const xp::ndarray<std::int64_t> total = xp::trace(m);
  CHECK(total.item() == 15);
  CHECK(xp::trace(m, 1).item() == 2 + 6);
  CHECK(xp::trace(m, -2).item() == 7);
  const auto stacked = counting({2, 2, 3}, device);
  CHECK(xp::trace(stacked, 0, 1, 2).to_vector() == std::vector<std::int64_t>{0 + 4, 6 + 10});
  const auto wide = xp::trace(m, 0, 0, 1, xp::dtype::float64);
  CHECK(wide.dtype() == xp::dtype::float64);
  CHECK(wide.item<double>() == 15.0);
  const auto out = xp::zeros<double>({}, device);
  xp::trace(m, 0, 0, 1, std::nullopt, out);
  CHECK(out.item() == 15.0);
  CHECK_THROWS_AS(xp::trace(counting({4}, device)), xp::ValueError);
}

XP_TEST_ON_DEVICES("diag: a vector on diagonal k of a square matrix, or a matrix's diagonal k") {
  const auto v = counting({3}, device) + 1;
  CHECK(xp::diag(v).to_vector() == Values{1, 0, 0, 0, 2, 0, 0, 0, 3});
  const auto above = xp::diag(v, 1);
  CHECK(above.shape() == xp::Shape{4, 4});
  CHECK(above.to_vector() == Values{0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 3, 0, 0, 0, 0});
  const auto below = xp::diag(v, -2);
  CHECK(below.shape() == xp::Shape{5, 5});
  CHECK(xp::diagonal(below, -2).to_vector() == Values{1, 2, 3});
  CHECK(xp::sum(below).item() == 6);
  const auto m = counting({3, 4}, device);
  CHECK(xp::diag(m, 1).to_vector() == Values{1, 6, 11});
  CHECK(xp::diag(m, 1).shares_buffer_with(m));
  CHECK(xp::diag(xp::array<bool>({true, false}, {2}, device)).dtype() == xp::dtype::bool_);
  CHECK_THROWS_WITH_AS(xp::diag(counting({2, 2, 2}, device)),
                       "diag: the input must be 1-D or 2-D, not of shape (2, 2, 2)", xp::ValueError);
}

XP_TEST_ON_DEVICES("diagonal, trace, diag: gradients reach the diagonal's elements") {
  using xp_test::check_gradients;
  constexpr auto on_cpu = xp_test::Differences::on_cpu;
  const auto a = xp::array<double>({0.3, -0.6, 2.43, 0.8, 1.5, -2.0, 0.7, 1.1, -0.4}, {3, 3}, device);
  const auto v = xp::array<double>({0.5, -1.5}, {2}, device);
  check_gradients([](const xp_test::Inputs& in) { return xp::diagonal(in[0], 1) * xp::diagonal(in[0], -1); }, {a}, 1e-6,
                  on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::trace(in[0] * in[0]) + xp::diag(in[1], -1).sum(); },
                  {a, xp::array<double>({0.5, -1.5, 2.0}, {3}, device)}, 1e-6, on_cpu);
  check_gradients([](const xp_test::Inputs& in) { return xp::diag(in[0], 1) * 2.0; }, {v}, 1e-6, on_cpu);
}
