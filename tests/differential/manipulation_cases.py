"""The array manipulation cases of the NumPy differential test (generate.py draws them among the others).

Each is one routine of <xp/manipulation.hpp>, <xp/matrices.hpp>, <xp/diagonal.hpp> or <xp/tensor_products.hpp> on arrays
of any dtype, rank and
layout, its parameters on the "along" line (an axis or "none", and one integer: a shift, a count, k),
as the runner's along_calls read them. The expected result is NumPy's, or the type of error it
raises (its AxisError is a ValueError here).
"""
import math

import numpy as np

from generate import Case, DTYPES, cast, drawn_array, expect_array, finfo, is_complex, is_inexact, ulps

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
ONE_ARRAY = ["ravel", "flatten", "ascontiguousarray", "swapaxes", "moveaxis", "flip", "fliplr", "flipud", "roll",
             "rot90", "tile", "repeat", "array_split", "tril", "triu", "diagonal", "trace", "diag"] + \
    [f"pad_{mode}" for mode in PAD_MODES]
TWO_ARRAYS = ["hstack", "vstack", "dstack", "column_stack", "broadcast_arrays"]
PRODUCTS = ["outer", "kron", "inner", "vdot", "tensordot", "einsum"]
# The runner's list (kEinsumSubscripts): a case names one by its index on the along line.
EINSUM_SUBSCRIPTS = ["ij,jk->ik", "bij,bjk->bik", "ii->i", "ii", "ij->ji", "ij,ij->i", "i,j", "...i,...i",
                     "...ij,...jk->...ik", "ijk,ikl,lm->jm", "iij,jk", "ij->", "i...,i...->...", "ab,bc,cd"]


def numpy_result(op, arrays, axis, n):
    """NumPy's answer for the runner's call of `op` with the along line's axis and integer."""
    x = arrays[0]
    calls = {
        "ravel": lambda: np.ravel(x),
        "flatten": lambda: x.flatten(),
        "ascontiguousarray": lambda: np.ascontiguousarray(x),
        "swapaxes": lambda: np.swapaxes(x, axis, n),
        "moveaxis": lambda: np.moveaxis(x, axis, n),
        "flip": lambda: np.flip(x, axis),
        "fliplr": lambda: np.fliplr(x),
        "flipud": lambda: np.flipud(x),
        "roll": lambda: np.roll(x, n, axis),
        "rot90": lambda: np.rot90(x, n),
        "tile": lambda: np.tile(x, [n] if axis is None else [n, 2]),
        "repeat": lambda: np.repeat(x, n, axis),
        "array_split": lambda: np.array_split(x, n, 0 if axis is None else axis)[-1],
        "tril": lambda: np.tril(x, n),
        "triu": lambda: np.triu(x, n),
        "diagonal": lambda: np.diagonal(x, n, 0 if axis is None else axis, -1),
        "trace": lambda: np.trace(x, n, 0 if axis is None else axis, -1),
        "diag": lambda: np.diag(x, n),
        "hstack": lambda: np.hstack(arrays),
        "vstack": lambda: np.vstack(arrays),
        "dstack": lambda: np.dstack(arrays),
        "column_stack": lambda: np.column_stack(arrays),
        "broadcast_arrays": lambda: np.broadcast_arrays(*arrays)[1],
        "outer": lambda: np.outer(*arrays),
        "kron": lambda: np.kron(*arrays),
        "inner": lambda: np.inner(*arrays),
        "vdot": lambda: np.vdot(*arrays),
        "tensordot": lambda: np.tensordot(*arrays, n),
    }
    if op.startswith("pad_"):  # n on every side, or (n, 1) for every axis where the along line has an axis
        widths = n if axis is None else (n, 1)
        calls[op] = lambda: np.pad(x, widths, op[4:], **({"constant_values": 3} if op == "pad_constant" else {}))
    try:
        return calls[op](), None
    except np.exceptions.AxisError:
        return None, "ValueError"
    except (IndexError, ValueError, TypeError) as error:
        return None, type(error).__name__


def parameters(draw, op, ndim):
    """The along line's axis (None: "none") and integer for `op` on an array of `ndim` axes."""
    axis = int(draw.rng.integers(-ndim - 1, ndim + 1)) if ndim else int(draw.pick([0, -1]))
    if op in ("ravel", "flatten", "ascontiguousarray", "fliplr", "flipud", "rot90", "tril", "triu", "diag"):
        axis = None
    elif op in ("flip", "roll", "tile", "repeat", "array_split") + tuple(f"pad_{m}" for m in PAD_MODES) and \
            draw.chance(0.3):
        axis = None
    if op in ("swapaxes", "moveaxis"):
        n = int(draw.rng.integers(-ndim - 1, ndim + 1)) if ndim else 0
    elif op in ("roll", "rot90", "tril", "triu", "diagonal", "trace", "diag"):
        n = int(draw.rng.integers(-6, 7))
    elif op == "array_split":
        n = int(draw.rng.integers(1, 6))
    elif op.startswith("pad_"):
        n = int(draw.rng.integers(0, 9))
    else:
        n = int(draw.rng.integers(0, 4))
    return axis, n


def product_shapes(draw, op, shape):
    """The second operand's shape for a product: mostly one that contracts with `shape`; the integer of
    tensordot (its number of axes). Extents up to 5 (products multiply the operands' sizes)."""
    n = int(draw.rng.integers(0, len(shape) + 1))
    small = lambda rank: [min(d, 5) for d in draw.shape(rank)]  # noqa: E731
    if op == "inner":
        other = small(int(draw.pick([0, 1, 2, 3])))
        if shape and other and draw.chance(0.8):
            other = list(other[:-1]) + [shape[-1]]
    elif op == "vdot":
        other = list(shape) if draw.chance(0.8) else small(int(draw.pick([1, 2])))
    elif op == "tensordot":
        other = list(shape[len(shape) - n:]) + small(int(draw.pick([0, 1, 2])))
        if other and draw.chance(0.15):
            other[0] = int(draw.rng.integers(0, 4))
    else:
        other = small(int(draw.pick([0, 1, 2, 3])))
    return other, n


def product_expectation(op, result, dtype, arrays, n):
    """Products are exact but for the sums of inner, vdot and tensordot in floating dtypes and complex
    products (rounded once where NumPy rounds each part): within a bound over the magnitudes."""
    if not is_inexact(dtype) or op in ("outer", "kron") and not is_complex(dtype):
        return expect_array(result, dtype, ["exact"])
    with np.errstate(all="ignore"):
        magnitude = numpy_result(op, [np.abs(x).astype(np.float64) for x in arrays], None, n)[0]
        steps = math.log2(max(arrays[0].size, 1) + 2) + 2
        bound = 8 * ulps(dtype) * steps * np.asarray(magnitude, dtype=np.float64) + 4 * float(finfo(dtype).tiny)
    return expect_array(cast(result, dtype), dtype, ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf)])


def einsum_shapes(draw, subscripts):
    """Operand shapes for `subscripts`: one extent a label (up to 4, often 1, which broadcasts), an
    ellipsis of up to two axes broadcasting; now and then one extent changed, which NumPy may refuse."""
    extents = {label: min(d, 4) for label, d in zip("abcdijklm", draw.shape(9))}
    ellipsis = draw.shape(int(draw.pick([0, 1, 2])))
    shapes = []
    for term in subscripts.split("->")[0].split(","):
        shape = []
        for part in term.replace("...", ".").strip():
            if part == ".":
                covered = ellipsis[int(draw.rng.integers(0, len(ellipsis) + 1)):]
                shape += [1 if draw.chance(0.3) else d for d in covered]
            else:
                shape.append(1 if draw.chance(0.1) else extents[part])
        if shape and draw.chance(0.1):
            shape[int(draw.rng.integers(len(shape)))] = int(draw.rng.integers(0, 4))
        # A repeated label's axes are equal (NumPy 2.4 reads past an empty (0, n) operand's 'ii': n elements);
        # the subscripts that repeat one have no ellipsis.
        for label in set(term) - {"."}:
            axes = [k for k, c in enumerate(term) if c == label]
            shape = [shape[axes[0]] if k in axes else d for k, d in enumerate(shape)]
        shapes.append(shape)
    return shapes


def einsum_case(draw, case, dtype):
    """One of EINSUM_SUBSCRIPTS on operands of `dtype`: exact in integers and bool (both wrap), within a
    bound over the magnitudes in floating dtypes (the library contracts in another order than NumPy's)."""
    index = int(draw.rng.integers(len(EINSUM_SUBSCRIPTS)))
    subscripts = EINSUM_SUBSCRIPTS[index]
    specs = [drawn_array(draw, dtype, shape, "einsum") for shape in einsum_shapes(draw, subscripts)]
    case.operands = [spec.tokens() for spec in specs]
    case.along = ["none", index]
    arrays = [np.asarray(spec.array) for spec in specs]
    if dtype == "bfloat16":  # NumPy's einsum has no loops for ml_dtypes' bfloat16: float32, rounded once
        arrays = [x.astype(np.float32) for x in arrays]
    try:
        result = np.einsum(subscripts, *arrays)
    except ValueError:
        case.expect = ["error", "ValueError"]
        return case
    if not is_inexact(dtype):
        case.expect = expect_array(result, dtype, ["exact"])
        return case
    with np.errstate(all="ignore"):
        magnitude = np.einsum(subscripts, *[np.abs(x).astype(np.float64) for x in arrays])
        steps = math.log2(sum(x.size for x in arrays) + 2) + 2
        bound = 8 * ulps(dtype) * steps * np.asarray(magnitude, dtype=np.float64) + 4 * float(finfo(dtype).tiny)
    case.expect = expect_array(cast(result, dtype), dtype, ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf)])
    return case


def manipulation_case(draw, number):
    op = draw.pick(ONE_ARRAY + TWO_ARRAYS + PRODUCTS)
    dtype = draw.pick(DTYPES)
    case = Case(number, op)
    if op == "einsum":
        return einsum_case(draw, case, dtype)
    shape = draw.shape(int(draw.pick([0, 1, 1, 2, 2, 3, 4])))
    if op in PRODUCTS:
        shape = [min(d, 5) for d in shape[:3]]
    specs = [drawn_array(draw, dtype, shape, op if op in PRODUCTS else None)]
    if op in TWO_ARRAYS:  # a second of the same rank and mostly the same shape, so that most cases join
        other = [d if draw.chance(0.8) else int(draw.rng.integers(0, 4)) for d in shape]
        if op == "broadcast_arrays":
            other = [1 if draw.chance(0.4) else d for d in shape]
        specs.append(drawn_array(draw, dtype, other))
    products_n = None
    if op in PRODUCTS:
        other, products_n = product_shapes(draw, op, shape)
        specs.append(drawn_array(draw, dtype, other, op))
    for spec in specs:
        case.operands.append(spec.tokens())
    axis, n = parameters(draw, op, len(shape))
    if products_n is not None:
        axis, n = None, products_n
    case.along = ["none" if axis is None else axis, n]
    arrays = [np.asarray(spec.array) for spec in specs]
    if op == "trace" and is_inexact(dtype):  # summed in float64 (complex128), rounded once, within a bound
        arrays = [arrays[0].astype(np.complex128 if is_complex(dtype) else np.float64)]
    result, error = numpy_result(op, arrays, axis, n)
    if error:
        case.expect = ["error", error]
    elif op == "trace":
        case.expect = trace_expectation(result, dtype, arrays[0], axis, n)
    elif op in PRODUCTS:
        case.expect = product_expectation(op, result, dtype, arrays, n)
    else:
        case.expect = expect_array(result, dtype, ["exact"])
    return case


def trace_expectation(result, dtype, x, axis, n):
    """trace in sum's dtype; floats within the rounding of a sum in another order (2-byte ones in float32)."""
    out_dtype = dtype if is_inexact(dtype) else "uint64" if dtype.startswith("uint") else "int64"
    if not is_inexact(dtype):
        return expect_array(result, out_dtype, ["exact"])
    with np.errstate(all="ignore"):
        magnitude = np.trace(np.abs(x), n, 0 if axis is None else axis, -1)
        steps = math.log2(max(x.shape[-1], 1) + 2) + 2
        bound = 4 * ulps(out_dtype) * steps * np.asarray(magnitude, dtype=np.float64) + 4 * float(finfo(out_dtype).tiny)
        return expect_array(cast(result, out_dtype), out_dtype, ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf)])
