// tensordot, outer, inner, vdot and kron against loops over the same numbers, in several dtypes, their
// errors, and their gradients against finite differences.
#include <doctest/doctest.h>

#include <complex>
#include <cstdint>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

namespace {

using D = xp::ndarray<double>;

// 0, 1, 2, ... minus `shift`, as double, of `shape`.
D counting(const xp::Shape& shape, xp::Device device, double shift = 0) {
  std::int64_t n = 1;
  for (const std::int64_t extent : shape) n *= extent;
  return (xp::arange<double>(0, static_cast<double>(n), 1, device) - shift).reshape(shape);
}

}  // namespace

XP_TEST_ON_DEVICES("tensordot contracts the named axes as loops over them do") {
  const D a = counting({2, 3, 4}, device), b = counting({4, 3, 5}, device, 7);
  const auto av = a.to_vector(), bv = b.to_vector();
  // a's axes 1 and 2 with b's axes 1 and 0: result (2, 5).
  const auto c = xp::ndarray<double>(xp::tensordot(a, b, {1, 2}, {1, 0}));
  REQUIRE(c.shape() == xp::Shape(2, 5));
  std::vector<double> expected;
  for (int i = 0; i < 2; ++i)
    for (int m = 0; m < 5; ++m) {
      double sum = 0;
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 4; ++k) sum += av[(i * 3 + j) * 4 + k] * bv[(k * 3 + j) * 5 + m];
      expected.push_back(sum);
    }
  CHECK(c.to_vector() == expected);
  // The integer form: a's last axis with b's first, (2, 3, 3, 5); 0 axes: the outer product's shape.
  CHECK(xp::tensordot(a, b, 1).shape() == xp::Shape{2, 3, 3, 5});
  CHECK(xp::tensordot(a, b, 0).shape() == xp::Shape{2, 3, 4, 4, 3, 5});
  const auto ints = xp::tensordot(xp::arange<std::int32_t>(0, 6, 1, device).reshape({2, 3}),
                                  xp::arange<std::int32_t>(0, 6, 1, device).reshape({2, 3}), 2);
  CHECK(ints.dtype() == xp::dtype::int32);
  CHECK(xp::ndarray<std::int32_t>(ints).item() == 55);
  CHECK_THROWS_AS(xp::tensordot(a, b, 2), xp::ValueError);  // (3, 4) against (4, 3)
  CHECK_THROWS_AS(xp::tensordot(a, b, 4), xp::ValueError);
  CHECK_THROWS_AS(xp::tensordot(a, b, {0}, {0, 1}), xp::ValueError);
}

XP_TEST_ON_DEVICES("outer, inner, vdot and kron are NumPy's") {
  const D x = counting({3}, device, 1), y = counting({2, 2}, device, -2);  // -1 0 1; 2 3 4 5
  CHECK(xp::outer(x, y).shape() == xp::Shape(3, 4));
  CHECK(xp::ndarray<double>(xp::outer(x, y)).to_vector() ==
        std::vector<double>{-2, -3, -4, -5, 0, 0, 0, 0, 2, 3, 4, 5});
  // inner: the last axes, (2, 2) . (3, 2) -> (2, 3)
  const D rows = counting({3, 2}, device);  // 0 1; 2 3; 4 5
  CHECK(xp::ndarray<double>(xp::inner(y, rows)).to_vector() == std::vector<double>{3, 13, 23, 5, 23, 41});
  CHECK(xp::ndarray<double>(xp::inner(x, D(xp::full<double>({}, 2.0, device)))).to_vector() ==
        std::vector<double>{-2, 0, 2});
  CHECK_THROWS_AS(xp::inner(x, rows), xp::ValueError);
  // vdot conjugates its first operand: (1 - 2i)(3 + i) + (-i)(2) = 5 - 5i - 2i
  using C = std::complex<double>;
  const auto u = xp::array<C>({C(1, 2), C(0, 1)}, device), v = xp::array<C>({C(3, 1), C(2, 0)}, device);
  CHECK(xp::ndarray<C>(xp::vdot(u, v)).item() == C(5, -7));
  CHECK(xp::vdot(u, v).ndim() == 0);
  CHECK(xp::ndarray<double>(xp::vdot(y, counting({4}, device))).item() == 2 * 0 + 3 * 1 + 4 * 2 + 5 * 3);
  CHECK_THROWS_AS(xp::vdot(x, y), xp::ValueError);
  // kron of (2, 2) and (2,): ranks padded, (2, 4)
  const D k = xp::ndarray<double>(xp::kron(y, counting({2}, device, -1)));  // b = 1 2
  CHECK(k.shape() == xp::Shape(2, 4));
  CHECK(k.to_vector() == std::vector<double>{2, 4, 3, 6, 4, 8, 5, 10});
  const auto flags = xp::kron(xp::array<bool>({true, false}, device), xp::array<bool>({true, true}, device));
  CHECK(flags.dtype() == xp::dtype::bool_);
  CHECK(xp::ndarray<bool>(flags).to_vector() == std::vector<bool>{true, true, false, false});
}

XP_TEST_ON_DEVICES("tensor products' gradients") {
  using xp_test::Inputs;
  const D a = xp_test::smooth_values({2, 3, 4}, device), b = xp_test::smooth_values({4, 3}, device, 0.7);
  xp_test::check_gradients([](const Inputs& x) { return D(xp::tensordot(x[0], x[1], {1, 2}, {1, 0})); }, {a, b});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::kron(x[0], x[1])); }, {b, b.transpose()});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::outer(x[0], x[1])); }, {b, a});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::vdot(x[0], x[1])); }, {b, b.transpose()});
}
