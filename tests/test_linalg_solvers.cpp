// numpy.linalg's solvers and decompositions: hand-computed values, reconstructions (Q R = a, U S Vh = a,
// a V = V diag(w), L L^H = a, a x = b) in float32, float64 and complex128 over stacks, NumPy's errors, and
// gradients against finite differences.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <vector>

#include "device_cases.hpp"
#include "gradient_check.hpp"
#include "xp/xp.hpp"

namespace {

using D = xp::ndarray<double>;
using C = std::complex<double>;

// |x - y| <= tolerance * (1 + |y|) elementwise, through complex128 for any dtype.
void check_close(const xp::ndarray<>& x, const xp::ndarray<>& y, double tolerance) {
  REQUIRE(x.shape() == y.shape());
  const auto got = xp::ndarray<C>(x.astype(xp::dtype::complex128)).to_vector();
  const auto want = xp::ndarray<C>(y.astype(xp::dtype::complex128)).to_vector();
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(std::abs(got[k] - want[k]) <= tolerance * (1 + std::abs(want[k])));
}

// A well-conditioned stack (2, n, n): smooth values plus n on the diagonal, of `type`.
xp::ndarray<> conditioned(std::int64_t n, xp::dtype type, xp::Device device, std::int64_t columns = -1) {
  const std::int64_t m = columns < 0 ? n : columns;
  D a = xp_test::smooth_values({2, n, m}, device);
  a = a + xp::eye<double>(n, m, 0, device) * static_cast<double>(n);
  xp::ndarray<> typed = xp::ndarray<>(a).astype(type);
  if (xp::is_complex(type))
    typed = xp::add(
        typed, xp::multiply(xp::ndarray<>(xp_test::smooth_values({2, n, m}, device, 0.4)).astype(type), C(0, 0.5)));
  return typed;
}

// x's values within 1e-12 of `expected` (relative).
void check_values(const xp::ndarray<>& x, const std::vector<double>& expected) {
  const auto got = D(x.astype(xp::dtype::float64)).to_vector();
  REQUIRE(got.size() == expected.size());
  for (std::size_t k = 0; k < got.size(); ++k) CHECK(got[k] == doctest::Approx(expected[k]).epsilon(1e-12));
}

double tolerance_of(xp::dtype type) {
  return type == xp::dtype::float32 || type == xp::dtype::complex64 ? 2e-4 : 1e-11;
}

const xp::dtype kTypes[] = {xp::dtype::float32, xp::dtype::float64, xp::dtype::complex64, xp::dtype::complex128};

xp::ndarray<> adjoint(const xp::ndarray<>& a) { return xp::conj(xp::swapaxes(a, -1, -2)); }

}  // namespace

XP_TEST_ON_DEVICES("solve, inv and det give hand-computed values") {
  const D a = xp::array<double>({4, 3, 6, 3}, device).reshape({2, 2});  // det 4*3 - 3*6 = -6
  const D b = xp::array<double>({10, 12}, device);  // x = (1, 2)
  check_values(xp::linalg::solve(a, b), {1, 2});
  CHECK(D(xp::linalg::det(a)).item() == doctest::Approx(-6));
  const auto inverse = D(xp::linalg::inv(a)).to_vector();  // [[3, -3], [-6, 4]] / -6
  CHECK(inverse[0] == doctest::Approx(-0.5));
  CHECK(inverse[1] == doctest::Approx(0.5));
  CHECK(inverse[2] == doctest::Approx(1.0));
  CHECK(inverse[3] == doctest::Approx(-4.0 / 6));
  const auto [sign, logabsdet] = xp::linalg::slogdet(a);
  CHECK(D(sign).item() == -1.0);
  CHECK(D(logabsdet).item() == doctest::Approx(std::log(6.0)));
  // Integers compute in float64, as NumPy's; a row swap flips the sign.
  const auto swapped = xp::array<std::int32_t>({0, 1, 1, 0}, device).reshape({2, 2});
  CHECK(xp::linalg::det(swapped).dtype() == xp::dtype::float64);
  CHECK(D(xp::linalg::det(swapped)).item() == -1.0);
  CHECK(D(xp::linalg::det(xp::zeros<double>({0, 0}, device))).item() == 1.0);
}

XP_TEST_ON_DEVICES("solve and inv over stacks in every LAPACK dtype") {
  for (const xp::dtype type : kTypes) {
    INFO(type);
    const xp::ndarray<> a = conditioned(5, type, device);
    const xp::ndarray<> b = xp::ndarray<>(xp_test::smooth_values({2, 5, 3}, device, 0.2)).astype(type);
    const xp::ndarray<> x = xp::linalg::solve(a, b);
    CHECK(x.dtype() == type);
    check_close(xp::matmul(a, x), b, tolerance_of(type));
    // b broadcast against a's batch, and a vector b.
    check_close(xp::matmul(a, xp::linalg::solve(a, b(1))), xp::ndarray<>(b(1)).broadcast_to({2, 5, 3}),
                tolerance_of(type));
    const xp::ndarray<> v = xp::ndarray<>(xp_test::smooth_values({5}, device)).astype(type);
    check_close(xp::squeeze(xp::matmul(a, xp::linalg::solve(a, v).reshape({2, 5, 1})), -1), v.broadcast_to({2, 5}),
                tolerance_of(type));
    check_close(xp::matmul(a, xp::linalg::inv(a)),
                xp::ndarray<>(xp::eye<double>(5, std::nullopt, 0, device)).astype(type).broadcast_to({2, 5, 5}),
                tolerance_of(type));
    // det against the product of the eigenvalues of a Hermitian matrix's
    const xp::ndarray<> h = xp::add(xp::matmul(a, adjoint(a)), 0.0);
    const xp::ndarray<> w = xp::linalg::eigvalsh(h);
    check_close(xp::linalg::det(h), xp::prod(w, -1), 50 * tolerance_of(type));
  }
}

XP_TEST_ON_DEVICES("cholesky, qr, svd and eigh reconstruct their matrices") {
  for (const xp::dtype type : kTypes) {
    INFO(type);
    const double tolerance = 10 * tolerance_of(type);
    const xp::ndarray<> a = conditioned(4, type, device);
    const xp::ndarray<> h = xp::matmul(a, adjoint(a));  // Hermitian positive definite
    const xp::ndarray<> lower = xp::linalg::cholesky(h);
    check_close(xp::matmul(lower, adjoint(lower)), h, tolerance);
    check_close(xp::linalg::cholesky(h, true), adjoint(lower), tolerance);
    check_close(xp::triu(lower, 1), xp::zeros_like(lower), 0);
    const auto [w, v] = xp::linalg::eigh(h);
    CHECK(w.dtype() == xp::detail::real_part_type(type));
    check_close(xp::matmul(h, v), xp::multiply(v, xp::expand_dims(w, -2)), tolerance * 10);
    check_close(xp::linalg::eigh(h, 'U').eigenvalues, w, tolerance);
    for (const std::int64_t columns : {3, 4, 6}) {  // tall, square and wide
      const xp::ndarray<> m = conditioned(4, type, device, columns);
      const auto [q, r] = xp::linalg::qr(m);
      check_close(xp::matmul(q, r), m, tolerance);
      check_close(xp::matmul(adjoint(q), q),
                  xp::ndarray<>(xp::eye<double>(std::min<std::int64_t>(4, columns), std::nullopt, 0, device))
                      .astype(type)
                      .broadcast_to({2, std::min<std::int64_t>(4, columns), std::min<std::int64_t>(4, columns)}),
                  tolerance);
      const auto complete = xp::linalg::qr(m, "complete");
      CHECK(complete.Q.shape() == xp::Shape{2, 4, 4});
      check_close(xp::matmul(complete.Q, complete.R), m, tolerance);
      CHECK(xp::linalg::qr(m, "r").R.shape() == r.shape());
      const auto [u, s, vh] = xp::linalg::svd(m, false);
      check_close(xp::matmul(xp::multiply(u, xp::expand_dims(s, -2)), vh), m, tolerance);
      const auto full = xp::linalg::svd(m);
      CHECK(full.U.shape() == xp::Shape{2, 4, 4});
      CHECK(full.Vh.shape() == xp::Shape{2, columns, columns});
      check_close(xp::matmul(adjoint(full.Vh), full.Vh),
                  xp::ndarray<>(xp::eye<double>(columns, std::nullopt, 0, device))
                      .astype(type)
                      .broadcast_to({2, columns, columns}),
                  tolerance);
      check_close(xp::linalg::svdvals(m), s, tolerance);
    }
  }
}

XP_TEST_ON_DEVICES("eigh, svd and the norms give hand-computed values") {
  const D sym = xp::array<double>({2, 1, 1, 2}, device).reshape({2, 2});  // eigenvalues 1, 3
  check_values(xp::linalg::eigvalsh(sym), {1, 3});
  const D diag = xp::array<double>({3, 0, 0, -4}, device).reshape({2, 2});  // singular values 4, 3
  check_values(xp::linalg::svdvals(diag), {4, 3});
  const D m = xp::array<double>({1, -2, 3, 4}, device).reshape({2, 2});
  CHECK(D(xp::linalg::norm(m)).item() == doctest::Approx(std::sqrt(30.0)));
  CHECK(D(xp::linalg::norm(m, 1)).item() == 6);  // the largest column sum of |m|
  CHECK(D(xp::linalg::norm(m, -1)).item() == 4);
  CHECK(D(xp::linalg::norm(m, INFINITY)).item() == 7);  // the largest row sum
  CHECK(D(xp::linalg::norm(m, -INFINITY)).item() == 3);
  CHECK(D(xp::linalg::norm(diag, 2)).item() == doctest::Approx(4));
  CHECK(D(xp::linalg::norm(diag, -2)).item() == doctest::Approx(3));
  CHECK(D(xp::linalg::norm(diag, "nuc")).item() == doctest::Approx(7));
  CHECK(D(xp::linalg::norm(m, "fro")).item() == doctest::Approx(std::sqrt(30.0)));
  const D v = xp::array<double>({3, -4, 0}, device);
  CHECK(D(xp::linalg::norm(v)).item() == doctest::Approx(5));
  CHECK(D(xp::linalg::norm(v, 0)).item() == 2);
  CHECK(D(xp::linalg::norm(v, 1)).item() == 7);
  CHECK(D(xp::linalg::norm(v, INFINITY)).item() == 4);
  CHECK(D(xp::linalg::norm(v, 3)).item() == doctest::Approx(std::cbrt(27.0 + 64.0)));
  CHECK(D(xp::linalg::norm(m, 1, 1)).to_vector() == std::vector<double>{3, 7});  // a vector norm of each row
  CHECK(xp::linalg::norm(m, 2, {0, 1}, true).shape() == xp::Shape(1, 1));
  CHECK_THROWS_AS(xp::linalg::norm(v, "fro"), xp::ValueError);
  CHECK_THROWS_AS(xp::linalg::norm(m, 3), xp::ValueError);
  CHECK_THROWS_AS(xp::linalg::norm(xp_test::smooth_values({2, 2, 2}, device), 1), xp::ValueError);
}

XP_TEST_ON_DEVICES("pinv, lstsq, matrix_rank and matrix_power") {
  const D rank_one = xp::array<double>({1, 2, 2, 4, 3, 6}, device).reshape({3, 2});
  CHECK(xp::ndarray<std::int64_t>(xp::linalg::matrix_rank(rank_one)).item() == 1);
  CHECK(xp::ndarray<std::int64_t>(xp::linalg::matrix_rank(xp::eye<double>(3, std::nullopt, 0, device))).item() == 3);
  // pinv's Moore-Penrose conditions: a p a = a, p a p = p.
  const D p(xp::linalg::pinv(rank_one));
  check_close(xp::matmul(xp::matmul(rank_one, p), rank_one), rank_one, 1e-12);
  check_close(xp::matmul(xp::matmul(p, rank_one), p), p, 1e-12);
  const D tall = xp::array<double>({1, 0, 1, 1, 1, 2}, device).reshape({3, 2});  // fit y = c0 + c1 t at t = 0, 1, 2
  const D y = xp::array<double>({1, 2, 4}, device);
  const auto fit = xp::linalg::lstsq(tall, y);
  CHECK(fit.rank == 2);
  check_values(fit.x, {5.0 / 6, 1.5});
  check_values(fit.residuals, {1.0 / 6});  // (1/6)^2 + (1/3)^2 + (1/6)^2
  const auto a = xp::array<std::int64_t>({1, 1, 1, 0}, device).reshape({2, 2});  // Fibonacci
  CHECK(xp::ndarray<std::int64_t>(xp::linalg::matrix_power(a, 10)).to_vector() ==
        std::vector<std::int64_t>{89, 55, 55, 34});
  CHECK(xp::ndarray<std::int64_t>(xp::linalg::matrix_power(a, 0)).to_vector() == std::vector<std::int64_t>{1, 0, 0, 1});
  check_close(xp::linalg::matrix_power(a, -2), xp::linalg::inv(xp::linalg::matrix_power(a, 2)), 1e-12);
}

XP_TEST_ON_DEVICES("the solvers refuse what NumPy refuses") {
  const D singular = xp::array<double>({1, 2, 2, 4}, device).reshape({2, 2});
  CHECK_THROWS_WITH_AS(xp::linalg::inv(singular), "Singular matrix", xp::LinAlgError);
  CHECK_THROWS_AS(xp::linalg::solve(singular, xp::ones<double>({2}, device)), xp::ValueError);  // LinAlgError is one
  CHECK(D(xp::linalg::det(singular)).item() == 0);
  CHECK(D(xp::linalg::slogdet(singular).logabsdet).item() == -INFINITY);
  CHECK(D(xp::linalg::slogdet(singular).sign).item() == 0);
  const D indefinite = xp::array<double>({1, 2, 2, 1}, device).reshape({2, 2});
  CHECK_THROWS_WITH_AS(xp::linalg::cholesky(indefinite), "Matrix is not positive definite", xp::LinAlgError);
  CHECK_THROWS_WITH_AS(xp::linalg::inv(xp::ones<double>({2, 3}, device)), doctest::Contains("must be square"),
                       xp::LinAlgError);
  CHECK_THROWS_WITH_AS(xp::linalg::det(xp::ones<double>({3}, device)), doctest::Contains("at least two-dimensional"),
                       xp::LinAlgError);
  CHECK_THROWS_AS(xp::linalg::solve(indefinite, xp::ones<double>({3}, device)), xp::ValueError);
  CHECK_THROWS_AS(xp::linalg::inv(xp::ones<xp::float16>({2, 2}, device)), xp::TypeError);
  CHECK_THROWS_AS(xp::linalg::eigh(indefinite, 'X'), xp::ValueError);
  CHECK_THROWS_AS(xp::linalg::qr(indefinite, "raw"), xp::ValueError);
}

XP_TEST_ON_DEVICES("the solvers' gradients") {
  using xp_test::Inputs;
  const D a = D(conditioned(3, xp::dtype::float64, device)), b = xp_test::smooth_values({2, 3, 2}, device, 0.3);
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::solve(x[0], x[1])); }, {a, b});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::inv(x[0])); }, {a});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::det(x[0])); }, {a});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::slogdet(x[0]).logabsdet); }, {a});
  const D spd = D(xp::add(xp::matmul(a, xp::swapaxes(a, -1, -2)), 0.0));
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::cholesky(x[0])); }, {spd});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::eigh(x[0]).eigenvectors); }, {spd});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::eigvalsh(x[0], 'U')); }, {spd});
  const D tall = xp_test::smooth_values({2, 4, 3}, device);
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::svd(x[0], false).U); }, {tall});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::svd(x[0], false).Vh); }, {tall});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::svdvals(x[0])); }, {tall});
  xp_test::check_gradients([](const Inputs& x) { return D(xp::linalg::pinv(x[0])); }, {tall});
  xp::autograd::record recording;
  D variable = a;
  variable.attach_grad();
  CHECK_THROWS_AS(xp::linalg::qr(variable), xp::NotImplementedError);
}
