#pragma once
/// \file
/// NumPy's numpy.linalg solvers and decompositions, over stacks of matrices in the last two axes:
/// \code{.cpp}
///   auto x = xp::linalg::solve(a, b);              // a x = b; b (..., n) as a vector only when 1-D
///   auto [q, r] = xp::linalg::qr(a);               // "reduced", "complete" or "r"
///   auto [u, s, vh] = xp::linalg::svd(a, false);   // full_matrices = false
///   auto [w, v] = xp::linalg::eigh(a);             // the lower triangle, eigenvalues ascending
///   auto [sign, logabsdet] = xp::linalg::slogdet(a);
/// \endcode
/// float32, float64, complex64 and complex128 compute in their own type; bool and integers in float64;
/// the 2-byte floats are a TypeError, as in NumPy. LAPACK (OpenBLAS's) on CPUs, cuSOLVER on GPUs. A
/// singular matrix is an xp::LinAlgError "Singular matrix", one not positive definite "Matrix is not
/// positive definite". Autograd: solve, inv, det, slogdet, cholesky, eigh and svd, of real dtypes.
#include <concepts>
#include <cstdint>
#include <optional>
#include <string_view>

#include "xp/axes.hpp"
#include "xp/export.hpp"
#include "xp/ndarray.hpp"

namespace xp {

/// \cond DETAIL
namespace detail {

struct LuParts {
  ArrayCore lu;  // L below the diagonal (unit diagonal), U on and above it
  ArrayCore pivots;  // int64, LAPACK's: row i was swapped with row pivots[i] - 1
};
struct EighParts {
  ArrayCore values, vectors;  // vectors empty when not asked for
};
struct SvdParts {
  ArrayCore u, s, vh;  // u and vh empty when not asked for
};
struct SlogdetParts {
  ArrayCore sign, logabsdet;
};
enum class QrMode : std::uint8_t { reduced, complete, r };
struct QrParts {
  ArrayCore q, r;  // q empty in mode r
};

// The computations (lib/api/ops/linalg_solvers.cpp; not exported: only the library calls them): operands already
// checked to be stacks of square matrices where they must be; b of solve is (..., n, k), its batch axes broadcasting
// against a's.
ArrayCore solve(const ArrayCore& a, const ArrayCore& b);
ArrayCore inverse(const ArrayCore& a);
ArrayCore cholesky(const ArrayCore& a);
LuParts lu_factor(const ArrayCore& a);
ArrayCore det(const ArrayCore& a);
SlogdetParts slogdet(const ArrayCore& a);
EighParts eigh(const ArrayCore& a, bool upper, bool vectors);
SvdParts svd(const ArrayCore& a, bool compute_uv, bool full_matrices);
QrParts qr(const ArrayCore& a, QrMode mode);
// The dtype the solvers compute `type` in (TypeError naming `op` for the 2-byte floats).
xp::dtype solver_dtype(std::string_view op, xp::dtype type);

namespace recorded {  ///< the same, recorded for backward while autograd records (lib/autograd)
ArrayCore solve(const ArrayCore& a, const ArrayCore& b);
ArrayCore inverse(const ArrayCore& a);
ArrayCore cholesky(const ArrayCore& a);
ArrayCore det(const ArrayCore& a);
SlogdetParts slogdet(const ArrayCore& a);
EighParts eigh(const ArrayCore& a, bool upper, bool vectors);
SvdParts svd(const ArrayCore& a, bool compute_uv, bool full_matrices);
QrParts qr(const ArrayCore& a, QrMode mode);  ///< NotImplementedError while it would have to record
}  // namespace recorded

}  // namespace detail
/// \endcond

namespace linalg {

/// qr's results.
struct QRResult {
  ndarray<> Q;  ///< orthonormal columns (empty in mode "r")
  ndarray<> R;  ///< upper triangular
};
/// svd's results, A = U diag(S) Vh.
struct SVDResult {
  ndarray<> U;  ///< left singular vectors in the columns (empty when compute_uv = false)
  ndarray<> S;  ///< singular values, descending
  ndarray<> Vh;  ///< right singular vectors in the rows, conjugated (empty when compute_uv = false)
};
/// eigh's results.
struct EighResult {
  ndarray<> eigenvalues;  ///< ascending
  ndarray<> eigenvectors;  ///< in the columns
};
/// slogdet's results: det = sign * exp(logabsdet).
struct SlogdetResult {
  ndarray<> sign;  ///< +-1 (a unit complex number for complex matrices), 0 for a singular matrix
  ndarray<> logabsdet;  ///< log |det|, -inf for a singular matrix
};
/// lstsq's results, NumPy's.
struct LstsqResult {
  ndarray<> x;  ///< the least-squares solution
  ndarray<> residuals;  ///< squared norms of b - a x; empty unless a has more rows than columns and full rank
  std::int64_t rank = 0;  ///< a's rank
  ndarray<> s;  ///< a's singular values
};

/// The inverse of each matrix; LinAlgError "Singular matrix".
XP_API ndarray<> inv(const ndarray<>& a);
/// The x of a x = b for each matrix of a: b is a vector when 1-D, else a stack of matrices (..., n, k)
/// whose batch axes broadcast against a's (NumPy 2's rule).
XP_API ndarray<> solve(const ndarray<>& a, const ndarray<>& b);
/// L (lower, L L^H = a) of each Hermitian positive-definite matrix, or U = L^H when `upper`; only the
/// lower triangle is read. LinAlgError "Matrix is not positive definite".
XP_API ndarray<> cholesky(const ndarray<>& a, bool upper = false);
/// The QR decomposition: mode "reduced" (Q: m x k, R: k x n, k = min(m, n)), "complete" (Q: m x m,
/// R: m x n) or "r" (R alone, k x n).
XP_API QRResult qr(const ndarray<>& a, std::string_view mode = "reduced");
/// The singular value decomposition; full_matrices = false gives U: m x k and Vh: k x n.
XP_API SVDResult svd(const ndarray<>& a, bool full_matrices = true, bool compute_uv = true);
/// The singular values alone, descending.
XP_API ndarray<> svdvals(const ndarray<>& a);
/// Eigenvalues and eigenvectors of Hermitian matrices, from the triangle `uplo` ('L' or 'U') names.
XP_API EighResult eigh(const ndarray<>& a, char uplo = 'L');
/// The eigenvalues alone.
XP_API ndarray<> eigvalsh(const ndarray<>& a, char uplo = 'L');
/// The determinant of each matrix (0 for a singular one).
XP_API ndarray<> det(const ndarray<>& a);
/// The sign (a unit complex number for complex matrices) and the log of the absolute determinant.
XP_API SlogdetResult slogdet(const ndarray<>& a);
/// The least-squares solution of a x = b for one matrix a (m x n) and b (m,) or (m, k): singular
/// values below rcond * the largest count as zero (rcond: machine epsilon * max(m, n) by default).
XP_API LstsqResult lstsq(const ndarray<>& a, const ndarray<>& b, std::optional<double> rcond = std::nullopt);
/// The pseudo-inverse from the SVD: singular values at most rcond * the largest taken as zero.
XP_API ndarray<> pinv(const ndarray<>& a, double rcond = 1e-15, bool hermitian = false);
/// a to the integer power n by repeated squaring (n < 0: the inverse's power; 0: the identity).
XP_API ndarray<> matrix_power(const ndarray<>& a, std::int64_t n);
/// The number of singular values above tol (default: S.max() * max(m, n) * eps); int64.
XP_API ndarray<> matrix_rank(const ndarray<>& a, std::optional<double> tol = std::nullopt, bool hermitian = false);

/// norm's order: a number (inf, -inf, 0, 1, 2, any p for vectors) or "fro" / "nuc"; none: the
/// Frobenius norm of a matrix, the 2-norm of a vector.
struct NormOrder {
  NormOrder() = default;  ///< NumPy's ord=None
  NormOrder(double p) : number(p) {}  ///< a number, as NumPy's ord=2 (implicit, as there)
  /// An integer, 0 included (which would otherwise name a null pointer).
  template <std::integral I>
  NormOrder(I p) : number(static_cast<double>(p)) {}
  NormOrder(const char* order_name) : name(order_name) {}  ///< "fro" or "nuc"
  std::optional<double> number;  ///< the numeric order, if one
  std::string_view name;  ///< the named order, if one
};
/// NumPy's linalg.norm: over every axis (a vector's norm for 1-D, a matrix's for 2-D; other ranks only
/// with the default order), over one axis (a vector norm) or two (a matrix norm of each plane).
XP_API ndarray<> norm(const ndarray<>& a, NormOrder ord = {}, const Axes& axes = std::nullopt, bool keepdims = false);

}  // namespace linalg

}  // namespace xp
