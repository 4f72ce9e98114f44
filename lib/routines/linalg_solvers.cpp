// numpy.linalg's functions: the checks NumPy makes, then the recorded computations (lib/autograd) and,
// for pinv, lstsq, matrix_rank, matrix_power and norm, the library's recorded operations over them.
#include "xp/linalg_solvers.hpp"

#include <cmath>
#include <limits>

#include "core/layout.hpp"
#include "xp/creation.hpp"
#include "xp/linalg.hpp"
#include "xp/manipulation.hpp"
#include "xp/math.hpp"
#include "xp/promotion.hpp"
#include "xp/reductions.hpp"
#include "xp/shape_functions.hpp"
#include "xp/statistics.hpp"

namespace xp::linalg {

namespace {

void check_stack(std::string_view op, const ndarray<>& a) {
  XP_CHECK(a.ndim() >= 2, LinAlgError, op, ": ", a.ndim(),
           "-dimensional array given. Array must be at least two-dimensional");
}

void check_square(std::string_view op, const ndarray<>& a) {
  check_stack(op, a);
  XP_CHECK(a.shape()[a.ndim() - 1] == a.shape()[a.ndim() - 2], LinAlgError, op,
           ": Last 2 dimensions of the array must be square (shape ", a.shape(), ")");
}

bool upper_of(std::string_view op, char uplo) {
  XP_CHECK(uplo == 'L' || uplo == 'U', ValueError, op, ": UPLO argument must be 'L' or 'U', not '", uplo, "'");
  return uplo == 'U';
}

// The machine epsilon of the real type the solvers compute `type` in.
double epsilon_of(xp::dtype type) {
  const xp::dtype real = detail::real_part_type(detail::solver_dtype("linalg", type));
  return real == xp::dtype::float32 ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

ndarray<> adjoint(const ndarray<>& a) { return conj(swapaxes(a, -1, -2)); }

// 1 / s where `kept`, else 0, with no infinity on the way (so that gradients stay finite).
ndarray<> kept_reciprocal(const ndarray<>& s, const ndarray<>& kept) {
  return where(kept, reciprocal(where(kept, s, 1.0)), 0.0);
}

ndarray<> vector_norm(const ndarray<>& x, const NormOrder& ord, int axis, bool keepdims) {
  XP_CHECK(ord.name.empty(), ValueError, "norm: Invalid norm order '", ord.name, "' for vectors");
  const double p = ord.number.value_or(2);
  const ndarray<> magnitude = abs(x);
  if (std::isinf(p)) return p > 0 ? max(magnitude, axis, keepdims) : min(magnitude, axis, keepdims);
  if (p == 0) return sum(not_equal(x, 0).astype(magnitude.dtype()), axis, keepdims);
  if (p == 1) return sum(magnitude, axis, keepdims);
  if (p == 2) return sqrt(sum(square(magnitude), axis, keepdims));
  return power(sum(power(magnitude, p), axis, keepdims), 1.0 / p);
}

// Both axes put back as extent 1 when keepdims.
ndarray<> kept(const ndarray<>& result, int row, int column, bool keepdims) {
  return keepdims ? expand_dims(result, {std::min(row, column), std::max(row, column)}) : result;
}

ndarray<> matrix_norm(const ndarray<>& x, const NormOrder& ord, int row, int column, bool keepdims) {
  if (ord.name == "fro" || (ord.name.empty() && !ord.number)) return sqrt(sum(square(abs(x)), {row, column}, keepdims));
  if (ord.name == "nuc" || (ord.number && std::abs(*ord.number) == 2)) {
    const ndarray<> s = svdvals(moveaxis(x, {row, column}, {-2, -1}));
    const ndarray<> r = ord.name == "nuc" ? sum(s, -1) : *ord.number > 0 ? max(s, -1) : min(s, -1);
    return kept(r, row, column, keepdims);
  }
  XP_CHECK(ord.name.empty() && (std::abs(*ord.number) == 1 || std::isinf(*ord.number)), ValueError,
           "norm: Invalid norm order for matrices");
  // 1: the largest column sum of |x|; inf: the largest row sum (the negative orders: the smallest).
  const bool columns = std::abs(*ord.number) == 1;
  const int summed = columns ? row : column, kept_axis = columns ? column : row;
  const ndarray<> sums = sum(abs(x), summed);
  const int after = kept_axis > summed ? kept_axis - 1 : kept_axis;
  return kept(*ord.number > 0 ? max(sums, after) : min(sums, after), row, column, keepdims);
}

}  // namespace

ndarray<> inv(const ndarray<>& a) {
  check_square("inv", a);
  return ndarray<>(detail::recorded::inverse(a));
}

ndarray<> solve(const ndarray<>& a, const ndarray<>& b) {
  check_square("solve", a);
  const std::int64_t n = a.shape()[a.ndim() - 1];
  const bool vector = b.ndim() == 1;
  XP_CHECK(vector || b.ndim() >= 2, ValueError, "solve: b must be a vector or a stack of matrices, not 0-d");
  const std::int64_t rows = b.shape()[vector ? 0 : b.ndim() - 2];
  XP_CHECK(rows == n, ValueError, "solve: b of shape ", b.shape(), " does not match a of shape ", a.shape(), " (", rows,
           " rows for ", n, ")");
  if (!vector) return ndarray<>(detail::recorded::solve(a, b));
  const ndarray<> x(detail::recorded::solve(a, b.reshape({n, 1})));
  return squeeze(x, -1);
}

ndarray<> cholesky(const ndarray<>& a, bool upper) {
  check_square("cholesky", a);
  const ndarray<> lower(detail::recorded::cholesky(a));
  return upper ? adjoint(lower) : lower;
}

QRResult qr(const ndarray<>& a, std::string_view mode) {
  check_stack("qr", a);
  XP_CHECK(mode == "reduced" || mode == "complete" || mode == "r", ValueError, "qr: unrecognized mode '", mode,
           "' (reduced, complete or r)");
  const detail::QrMode which = mode == "reduced"    ? detail::QrMode::reduced
                               : mode == "complete" ? detail::QrMode::complete
                                                    : detail::QrMode::r;
  const detail::QrParts parts = detail::recorded::qr(a, which);
  return {which == detail::QrMode::r ? ndarray<>() : ndarray<>(parts.q), ndarray<>(parts.r)};
}

SVDResult svd(const ndarray<>& a, bool full_matrices, bool compute_uv) {
  check_stack("svd", a);
  const detail::SvdParts parts = detail::recorded::svd(a, compute_uv, full_matrices);
  if (!compute_uv) return {ndarray<>(), ndarray<>(parts.s), ndarray<>()};
  return {ndarray<>(parts.u), ndarray<>(parts.s), ndarray<>(parts.vh)};
}

ndarray<> svdvals(const ndarray<>& a) { return svd(a, false, false).S; }

EighResult eigh(const ndarray<>& a, char uplo) {
  check_square("eigh", a);
  const detail::EighParts parts = detail::recorded::eigh(a, upper_of("eigh", uplo), true);
  return {ndarray<>(parts.values), ndarray<>(parts.vectors)};
}

ndarray<> eigvalsh(const ndarray<>& a, char uplo) {
  check_square("eigvalsh", a);
  return ndarray<>(detail::recorded::eigh(a, upper_of("eigvalsh", uplo), false).values);
}

ndarray<> det(const ndarray<>& a) {
  check_square("det", a);
  return ndarray<>(detail::recorded::det(a));
}

SlogdetResult slogdet(const ndarray<>& a) {
  check_square("slogdet", a);
  const detail::SlogdetParts parts = detail::recorded::slogdet(a);
  return {ndarray<>(parts.sign), ndarray<>(parts.logabsdet)};
}

ndarray<> matrix_power(const ndarray<>& a, std::int64_t n) {
  check_square("matrix_power", a);
  const std::int64_t extent = a.shape()[a.ndim() - 1];
  if (n == 0)
    return ascontiguousarray(
        ndarray<>(eye<double>(extent, std::nullopt, 0, a.device())).astype(a.dtype()).broadcast_to(a.shape()));
  ndarray<> base = n < 0 ? inv(a) : a;
  std::optional<ndarray<>> result;
  for (std::uint64_t power = n < 0 ? 0 - static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);;) {
    if (power & 1) result = result ? matmul(*result, base) : base;
    power >>= 1;
    if (!power) return *result;
    base = matmul(base, base);
  }
}

ndarray<> pinv(const ndarray<>& a, double rcond, bool hermitian) {
  check_stack("pinv", a);
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  if (a.size() == 0) {
    Shape shape = a.shape();
    shape[shape.ndim() - 2] = n, shape[shape.ndim() - 1] = m;
    return zeros_like(a, detail::solver_dtype("pinv", a.dtype()), shape);
  }
  if (hermitian) {  // V diag(1 / w) V^H, cut by |w|
    check_square("pinv", a);
    const EighResult e = eigh(a);
    const ndarray<> magnitude = abs(e.eigenvalues);
    const ndarray<> kept = greater(magnitude, multiply(max(magnitude, -1, true), rcond));
    return matmul(multiply(e.eigenvectors, expand_dims(kept_reciprocal(e.eigenvalues, kept), -2)),
                  adjoint(e.eigenvectors));
  }
  const SVDResult d = svd(a, false);
  const ndarray<> kept = greater(d.S, multiply(max(d.S, -1, true), rcond));
  return matmul(adjoint(d.Vh), multiply(expand_dims(kept_reciprocal(d.S, kept), -1), adjoint(d.U)));
}

ndarray<> matrix_rank(const ndarray<>& a, std::optional<double> tol, bool hermitian) {
  if (a.ndim() < 2) return ndarray<>(any(not_equal(a, 0)).astype<std::int64_t>());
  const ndarray<> s = hermitian ? abs(eigvalsh(a)) : svdvals(a);
  const std::int64_t m = a.shape()[a.ndim() - 2], n = a.shape()[a.ndim() - 1];
  const ndarray<> threshold =
      tol ? ndarray<>(full_like(s, *tol, std::nullopt, Shape()))
          : multiply(max(s, -1, true), static_cast<double>(std::max(m, n)) * epsilon_of(a.dtype()));
  return count_nonzero(greater(s, threshold), -1);
}

LstsqResult lstsq(const ndarray<>& a, const ndarray<>& b, std::optional<double> rcond) {
  XP_CHECK(a.ndim() == 2, LinAlgError, "lstsq: ", a.ndim(), "-dimensional array given. Array must be two-dimensional");
  XP_CHECK(b.ndim() == 1 || b.ndim() == 2, LinAlgError, "lstsq: b must be 1- or 2-dimensional, not ", b.ndim());
  const std::int64_t m = a.shape()[0], n = a.shape()[1];
  XP_CHECK(b.shape()[0] == m, LinAlgError, "lstsq: Incompatible dimensions: a ", a.shape(), ", b ", b.shape());
  const ndarray<> columns = b.ndim() == 1 ? b.reshape({m, 1}) : b;
  const double cut = rcond.value_or(epsilon_of(a.dtype()) * static_cast<double>(std::max(m, n)));
  const SVDResult d = svd(a, false);
  const ndarray<> kept = greater(d.S, multiply(max(d.S, std::nullopt, true), cut));
  const ndarray<> x =
      matmul(adjoint(d.Vh), multiply(expand_dims(kept_reciprocal(d.S, kept), -1), matmul(adjoint(d.U), columns)));
  LstsqResult result;
  result.rank = ndarray<std::int64_t>(count_nonzero(kept)).item();
  result.s = d.S;
  result.x = b.ndim() == 1 ? squeeze(x, -1) : x;
  if (result.rank == n && m > n) {
    result.residuals = sum(square(abs(subtract(columns, matmul(a, x)))), 0);
  } else {
    result.residuals = zeros_like(d.S, std::nullopt, Shape(0));
  }
  return result;
}

ndarray<> norm(const ndarray<>& a, NormOrder ord, const Axes& axes, bool keepdims) {
  const ndarray<> x = detail::is_inexact_dtype(a.dtype()) ? a : a.astype(xp::dtype::float64);
  if (axes.all() && ord.name.empty() && !ord.number) {
    const ndarray<> all = sqrt(sum(square(abs(x))));
    return keepdims ? all.reshape(Shape(std::vector<std::int64_t>(static_cast<std::size_t>(x.ndim()), 1))) : all;
  }
  std::vector<int> chosen(axes.list().begin(), axes.list().end());
  if (axes.all()) {
    XP_CHECK(x.ndim() == 1 || x.ndim() == 2, ValueError, "norm: Improper number of dimensions to norm (", x.ndim(),
             ")");
    chosen = x.ndim() == 1 ? std::vector<int>{0} : std::vector<int>{0, 1};
  }
  for (int& axis : chosen) axis = detail::normalize_axis(axis, x.ndim(), "norm");
  if (chosen.size() == 1) return vector_norm(x, ord, chosen[0], keepdims);
  XP_CHECK(chosen.size() == 2, ValueError, "norm: Improper number of dimensions to norm (", chosen.size(), " axes)");
  XP_CHECK(chosen[0] != chosen[1], ValueError, "norm: Duplicate axes given");
  return matrix_norm(x, ord, chosen[0], chosen[1], keepdims);
}

}  // namespace xp::linalg
