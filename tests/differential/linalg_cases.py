"""The numpy.linalg cases of the NumPy differential test (generate.py draws them among the others).

Each is one function of <xp/linalg_solvers.hpp> on a stack of matrices that is well conditioned (smooth
values plus a multiple of the identity, Hermitian positive definite where the function needs it) or,
now and then, singular; the "along" line's integer picks norm's order. Results that LAPACK determines
only up to signs or phases (the vectors of svd and eigh, Q of qr) are compared through quantities that
do not depend on them: the singular values, the eigenvalues, |R|. Within a bound of LAPACK's accuracy:
a few hundred units of the dtype's last place, times n, relative to the result's largest magnitude.
"""
import numpy as np

from generate import ArraySpec, Case, expect_array, finfo, is_complex

LINALG = ["linalg_solve", "linalg_inv", "linalg_det", "linalg_slogdet_sign", "linalg_slogdet_logabsdet",
          "linalg_cholesky", "linalg_qr_abs_r", "linalg_svdvals", "linalg_eigvalsh", "linalg_pinv",
          "linalg_matrix_rank", "linalg_matrix_power", "linalg_norm", "linalg_lstsq"]
LINALG_DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "float16"]
# The runner's norm orders (kNormOrders): the along line's integer picks one.
NORM_ORDERS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


# Where a singular matrix has a well-defined answer to compare (not its inverse, a pseudo-inverse cut at
# rcond, or a sign: those of a numerically singular matrix are rounding noise).
SINGULAR_OK = ("linalg_det", "linalg_matrix_rank", "linalg_svdvals", "linalg_qr_abs_r", "linalg_norm")


def matrices(draw, dtype, shape, hermitian, singular_ok):
    """Smooth values (a tenth singular ones, a repeated row, where singular_ok); n on the diagonal keeps
    the others well conditioned. Hermitian positive definite ones are a a^H + n."""
    rng = draw.rng
    n, m = shape[-2], shape[-1]
    real = rng.uniform(-1, 1, shape)
    x = real + 1j * rng.uniform(-1, 1, shape) if is_complex(dtype) else real
    if hermitian:
        x = x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)
    elif singular_ok and draw.chance(0.1) and n >= 2:
        x[..., 1, :] = x[..., 0, :]
    else:
        x = x + max(n, m) * np.eye(n, m)
    if dtype == "int32":
        return np.round(4 * x.real).astype(np.int32)
    return x.astype(dtype)


def laid_out(draw, x):
    """An ArraySpec holding x: C order, or (for matrices, 40%) the transposed view of its transpose."""
    if x.ndim < 2 or not draw.chance(0.4):
        return ArraySpec(x.dtype.name, list(x.shape), x.ravel())
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    base = np.ascontiguousarray(np.transpose(x, perm))
    spec = ArraySpec(x.dtype.name, list(base.shape), base.ravel())
    spec.transpose(perm)
    return spec


def numpy_result(op, arrays, order):
    a = arrays[0]
    la = np.linalg
    calls = {
        "linalg_solve": lambda: la.solve(a, arrays[1]),
        "linalg_inv": lambda: la.inv(a),
        "linalg_det": lambda: la.det(a),
        "linalg_slogdet_sign": lambda: la.slogdet(a)[0],
        "linalg_slogdet_logabsdet": lambda: la.slogdet(a)[1],
        "linalg_cholesky": lambda: la.cholesky(a),
        "linalg_qr_abs_r": lambda: np.abs(la.qr(a)[1]),
        "linalg_svdvals": lambda: la.svd(a, compute_uv=False),
        "linalg_eigvalsh": lambda: la.eigvalsh(a),
        "linalg_pinv": lambda: la.pinv(a),
        "linalg_matrix_rank": lambda: la.matrix_rank(a),
        "linalg_matrix_power": lambda: la.matrix_power(a, 3),
        "linalg_norm": lambda: la.norm(a, NORM_ORDERS[order], None if a.ndim <= 2 else (-2, -1)),
        "linalg_lstsq": lambda: la.lstsq(a, arrays[1])[0],
    }
    try:
        return calls[op](), None
    except la.LinAlgError:
        return None, "ValueError"
    except (ValueError, TypeError) as error:
        return None, type(error).__name__


def operand_shapes(draw, op):
    """The shapes of the operands: square stacks mostly, rectangular where the function takes them."""
    n = int(draw.rng.integers(1, 6))
    batch = [int(d) for d in draw.rng.integers(1, 4, int(draw.pick([0, 0, 1, 2])))]
    if op in ("linalg_qr_abs_r", "linalg_svdvals", "linalg_pinv", "linalg_matrix_rank", "linalg_norm"):
        return [batch + [n, int(draw.rng.integers(1, 6))]]
    if op == "linalg_lstsq":
        rows = int(draw.rng.integers(n, n + 4))
        return [[rows, n], [rows] if draw.chance(0.5) else [rows, int(draw.rng.integers(1, 3))]]
    if op == "linalg_solve":
        return [batch + [n, n], [n] if draw.chance(0.3) else batch + [n, int(draw.rng.integers(1, 4))]]
    return [batch + [n, n]]


def linalg_case(draw, number):
    op = draw.pick(LINALG)
    dtype = draw.pick(LINALG_DTYPES)
    case = Case(number, op)
    shapes = operand_shapes(draw, op)
    hermitian = op in ("linalg_cholesky", "linalg_eigvalsh")
    arrays = [matrices(draw, dtype, shapes[0], hermitian, op in SINGULAR_OK)]
    arrays += [np.asarray(draw.rng.uniform(-2, 2, shape)).astype(dtype if dtype != "int32" else "float64")
               for shape in shapes[1:]]
    specs = [laid_out(draw, x) for x in arrays]
    case.operands = [spec.tokens() for spec in specs]
    order = int(draw.rng.integers(len(NORM_ORDERS)))
    case.along = ["none", order]
    result, error = numpy_result(op, [np.asarray(spec.array) for spec in specs], order)
    if error:
        case.expect = ["error", error]
        return case
    result = np.asarray(result)
    if op == "linalg_matrix_rank":
        case.expect = expect_array(result.astype(np.int64), "int64", ["exact"])
        return case
    eps = float(finfo(result.dtype.name).eps) if result.dtype.kind in "fc" else 0.0
    n = max(shapes[0][-2:])
    scale = float(np.max(np.abs(result))) if result.size else 0.0
    if op in ("linalg_norm", "linalg_svdvals", "linalg_qr_abs_r") and arrays[0].size:  # on the largest
        wide = np.asarray(arrays[0], dtype=np.complex128)  # singular value: the smallest may be noise
        scale = max(scale, float(np.max(np.linalg.norm(wide, 2, axis=(-2, -1)))))
    if op == "linalg_det":  # a (near) singular matrix's determinant is rounding noise on Hadamard's bound
        rows = np.linalg.norm(np.asarray(arrays[0], dtype=np.complex128), axis=-1)
        scale = max(scale, float(np.max(np.prod(rows, axis=-1))) if rows.size else 0.0)
    bound = 200 * eps * n * n * (np.abs(result) + scale) + 1e-30
    case.expect = expect_array(result, result.dtype.name, ["bound", bound])
    return case
