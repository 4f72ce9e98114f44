"""The nan-reduction, ptp and average cases of the NumPy differential test (generate.py draws them).

Each is one function of <xp/reduction_routines.hpp> on an array of any dtype, rank and layout whose
floating elements are NaN at random (a whole array of NaN now and then), over every axis, one or several
("axes" line; the arg functions one or all). The nan-reductions and ptp are the runner's reduction
calls; average goes through its along calls, with weights of the array's shape or of one axis's extent as
a second operand. The expected result is NumPy's (in float64 or complex128, rounded once), within a bound
from the magnitudes summed, or the type of error it raises (its ZeroDivisionError is a ValueError here).
"""
import math

import numpy as np

from generate import Case, DTYPES, TWO_BYTE, cast, drawn_array, expect_array, finfo, is_complex, is_inexact, ulps

SUMS = ["nansum", "nanmean", "nanvar", "nanstd"]
EXACT = ["nanmax", "nanmin", "nanargmax", "nanargmin", "ptp"]
OPS = SUMS + EXACT + ["nanprod", "average"]


def result_dtype(op, dtype, weights_dtype=None):
    """The library's result dtype, as <xp/reduction_routines.hpp> documents it."""
    inexact = is_inexact(dtype)
    if op in ("nanargmax", "nanargmin"):
        return "int64"
    if op in ("nanmax", "nanmin", "ptp"):
        return dtype
    if op in ("nansum", "nanprod"):
        return dtype if inexact else "uint64" if dtype.startswith("uint") else "int64"
    if op == "average" and weights_dtype is not None:  # the weights are a's dtype or float64
        if not inexact or weights_dtype == dtype:
            return dtype if inexact else "float64"
        return "complex128" if is_complex(dtype) else "float64"
    if op in ("nanvar", "nanstd") and is_complex(dtype):
        return "float32" if dtype == "complex64" else "float64"
    return dtype if inexact else "float64"


def with_nans(draw, spec):
    """Some of the base array's elements NaN (all of them now and then); the views see them."""
    if not is_inexact(spec.dtype) or spec.data.size == 0:
        return
    share = 1.0 if draw.chance(0.1) else float(draw.pick([0.0, 0.2, 0.5]))
    mask = draw.rng.random(spec.data.shape) < share
    spec.data[mask] = np.nan
    spec.array = replayed(spec)


def replayed(spec):
    """The spec's final array from its base data as changed since (an integer index to 0-d copied it)."""
    array = spec.data
    for view in spec.views:
        kind, rest = view[0], view[1:]
        if kind == "T":
            array = np.transpose(array, rest)
        elif kind == "S":
            array = array[tuple([slice(None)] * rest[0] + [slice(rest[1], rest[2], rest[3])])]
        elif kind == "I":
            array = array[tuple([slice(None)] * rest[0] + [rest[1]])]
        elif kind == "B":
            array = np.broadcast_to(array, rest[1:])
        else:
            array = array.reshape(rest[1:])
    return np.asarray(array)


def numpy_result(op, x, axis, keep, weights):
    """NumPy's answer in float64 (complex128) for inexact x, or its error's type."""
    try:
        with np.errstate(all="ignore"):
            if op in ("nanargmax", "nanargmin"):
                result = getattr(np, op)(x, axis=axis, keepdims=keep)
            elif op == "ptp":
                result = np.ptp(x, axis=axis, keepdims=keep)
            elif op == "average" and weights is None:
                # NumPy's average is its mean here, except that it raises ZeroDivisionError for an empty
                # result (dividing sizes for a sum of weights it does not return); the library gives the mean.
                result = np.mean(x, axis=axis, keepdims=keep)
            elif op == "average":
                result = np.average(x, axis=axis, weights=weights, keepdims=keep)
            else:
                result = getattr(np, op)(x, axis=axis, keepdims=keep)
        return np.asarray(result), None
    except np.exceptions.AxisError:
        return None, "ValueError"
    except ZeroDivisionError:
        return None, "ValueError"
    except (ValueError, TypeError) as error:
        return None, type(error).__name__


def sum_bound(op, x, axis, keep, out_dtype, result):
    """What summing in another order may change: eps times the steps times the magnitudes summed."""
    wide = np.abs(x.astype(np.complex128 if np.iscomplexobj(x) else np.float64))
    numbers = ~np.isnan(wide)
    magnitude = np.where(numbers, wide, 0)
    count = np.maximum(np.sum(numbers, axis=axis, keepdims=keep), 1)
    reduced = x.size // max(np.asarray(result).size, 1)
    steps = math.log2(reduced + 2) + 2
    eps = ulps(out_dtype)
    with np.errstate(all="ignore"):
        if op in ("nanvar", "nanstd"):
            mean = np.nansum(np.where(numbers, x, 0), axis=axis, keepdims=True) / np.maximum(
                np.sum(numbers, axis=axis, keepdims=True), 1)
            deviation = np.where(numbers, np.abs(np.where(numbers, x, 0) - mean), 0)
            mean_error = 4 * eps * steps * np.abs(mean)
            magnitude = deviation ** 2 + np.abs(mean) * deviation + np.where(numbers, mean_error ** 2 / (4 * eps), 0)
        total = np.sum(magnitude, axis=axis, keepdims=keep)
        if op != "nansum":
            total = total / count
        bound = 8 * eps * steps * total
        if op == "nanstd":
            bound = np.sqrt(bound) + 4 * eps * np.abs(result).astype(np.float64)
    tiny = finfo(out_dtype).smallest_subnormal if out_dtype == "float16" else finfo(out_dtype).tiny
    return np.nan_to_num(bound, nan=0.0, posinf=np.inf) + 4 * float(tiny)


def axes_of(draw, op, ndim):
    """The axes line's list (None: every axis) and NumPy's axis argument."""
    if ndim == 0 or draw.chance(0.3):
        return None, None
    if op in ("nanargmax", "nanargmin", "average") or draw.chance(0.5):
        axis = int(draw.rng.integers(-ndim, ndim))
        return [axis], axis
    count = int(draw.rng.integers(1, ndim + 1))
    axes = [int(a) for a in draw.rng.permutation(ndim)[:count]]
    return axes, tuple(axes)


def weights_for(draw, x, dtype, axis):
    """average's weights: a's shape, or one axis's extent; a's dtype or float64; None: no weights."""
    if draw.chance(0.25):
        return None
    weights_dtype = dtype if dtype != "bool" and draw.chance(0.5) else "float64"
    shape = list(x.shape) if axis is None or draw.chance(0.5) else [x.shape[axis]]
    return drawn_array(draw, weights_dtype, shape, "sum", allow_views=False)


def reduction_routine_case(draw, number):
    op = draw.pick(OPS)
    dtype = draw.pick(DTYPES)
    if op in ("nanmean", "nanvar", "nanstd", "average") and dtype == "bool":
        dtype = "uint8"  # as the reduction cases: the library's mean of bool is not NumPy's float64 yet
    shape = draw.shape(int(draw.pick([0, 1, 1, 2, 2, 3])))
    # Squares of tiny values underflow in the array's dtype (as in NumPy's own nanvar): none drawn for them.
    spec = drawn_array(draw, dtype, shape, {"nanprod": "prod", "nanvar": "var", "nanstd": "std"}.get(op, "sum"))
    with_nans(draw, spec)
    case = Case(number, op)
    case.operands.append(spec.tokens())
    axes, axis = axes_of(draw, op, len(shape))
    case.axes = ["all"] if axes is None else ["list", len(axes)] + axes
    case.keepdims = int(draw.chance(0.3))
    keep = bool(case.keepdims)
    x = np.asarray(spec.array)
    weights = weights_for(draw, x, dtype, axis) if op == "average" else None
    if weights is not None:
        case.operands.append(weights.tokens())
    if op == "average":
        case.along = ["none", 0]
    expectation = routine_expectation(op, x, dtype, axis, keep, weights)
    case.expect = ["error", expectation] if isinstance(expectation, str) else expect_array(*expectation)
    return case


def routine_expectation(op, x, dtype, axis, keep, weights=None):
    """NumPy's result of `op` on x (of `dtype`) over `axis` (None: all), its dtype and the comparison; or
    the type of error NumPy raises."""
    wide = x.astype(np.float32) if dtype in TWO_BYTE else x
    reference = wide.astype(np.complex128 if is_complex(dtype) else np.float64) if is_inexact(dtype) and \
        op not in EXACT else wide
    w = None if weights is None else \
        np.asarray(weights.array).astype(np.complex128 if is_complex(weights.dtype) else np.float64)
    result, error = numpy_result(op, reference, axis, keep, w)
    if error:
        return error
    out_dtype = result_dtype(op, dtype, None if weights is None else weights.dtype)
    with np.errstate(all="ignore"):
        expected = cast(result, out_dtype)
    if op in EXACT or not is_inexact(out_dtype):
        tolerance = ["signed-zero"] if is_inexact(out_dtype) else ["exact"]
    elif op == "nanprod":
        tolerance = ["bound", np.nan_to_num(8 * ulps(out_dtype) * (x.size + 2) * np.abs(result).astype(np.float64),
                                            nan=0.0, posinf=np.inf)]
    elif op == "average":
        tolerance = ["bound", average_bound(reference, w, axis, keep, out_dtype)]
    else:
        tolerance = ["bound", sum_bound(op, reference, axis, keep, out_dtype, result)]
    return expected, out_dtype, tolerance


def average_bound(x, w, axis, keep, out_dtype):
    """A bound for sum(x * w) / sum(w) summed in another order: eps times the steps times the magnitudes."""
    with np.errstate(all="ignore"):
        if w is None:
            w = np.ones(x.shape)
        elif w.shape != x.shape:
            w = w.reshape([-1 if k == axis % x.ndim else 1 for k in range(x.ndim)])
        weights = np.broadcast_to(w, x.shape)
        reduced = x.size // max(np.asarray(np.sum(weights, axis=axis)).size, 1)
        steps = math.log2(reduced + 2) + 2
        scale = np.abs(np.sum(weights, axis=axis, keepdims=keep))
        magnitude = np.sum(np.abs(x * weights), axis=axis, keepdims=keep) + \
            np.sum(np.abs(weights), axis=axis, keepdims=keep) * np.abs(np.sum(x * weights, axis=axis, keepdims=keep)) / \
            np.maximum(scale, np.finfo(np.float64).tiny)
        bound = 8 * ulps(out_dtype) * steps * magnitude / np.maximum(scale, np.finfo(np.float64).tiny)
    tiny = finfo(out_dtype).smallest_subnormal if out_dtype == "float16" else finfo(out_dtype).tiny
    return np.nan_to_num(bound, nan=0.0, posinf=np.inf) + 4 * float(tiny)
