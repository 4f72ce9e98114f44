"""The dtype and out arguments of the reductions in the NumPy differential test (generate.py draws them).

Each is a reduction of <xp/reductions.hpp> or <xp/reduction_routines.hpp> with NumPy's dtype argument (the
"dtype" line: the elements converted to it, a dtype they cast to safely, and reduced there), its out
argument (the "out" line: an array, a view now and then, of the result's shape and of a dtype the result
casts to under NumPy's same_kind rule, the safe one for argmax and argmin; now and then another dtype or
shape), or both. The expected result is the plain reduction's of the converted elements (the expectations of
generate.py and reduction_routine_cases.py) cast to out's dtype, or the error the library's rules give, in
their order: a dtype that mean, var and std cannot accumulate in (TypeError: bool and integers, where
NumPy's integer mean truncates), the reduction's own, out's shape (ValueError), out's dtype (TypeError).
"""
import numpy as np

import reduction_routine_cases as routines
from generate import (REDUCTIONS, Case, DTYPES, cast, drawn_array, expect_array, finfo, is_inexact,
                      reduction_expectation, size_of)

ROUTINES = ["nansum", "nanprod", "nanmean", "nanmax", "nanmin", "nanargmax", "nanargmin", "nanvar", "nanstd", "ptp"]
WITH_DTYPE = {"sum", "prod", "mean", "var", "std", "nansum", "nanprod", "nanmean", "nanvar", "nanstd"}
ANY_TYPE = {"sum", "prod", "nansum", "nanprod"}  # the others accumulate only in floating and complex types
ARG = {"argmax", "argmin", "nanargmax", "nanargmin"}


def castable(source, casting):
    """The dtypes NumPy's can_cast allows `source` to go to under `casting`."""
    return [t for t in DTYPES if np.can_cast(np.dtype(source), np.dtype(t), casting=casting)]


def writable_out(draw, dtype, shape):
    """An output array of `shape`: contiguous, or a view that can be written (no broadcast view)."""
    for _ in range(4):
        spec = drawn_array(draw, dtype, shape)
        if all(view[0] != "B" for view in spec.views):
            return spec
    return drawn_array(draw, dtype, shape, allow_views=False)


def axes_drawn(draw, op, ndim):
    """The axes line's list (None: every axis) and NumPy's axis (an int or a tuple), all valid."""
    if ndim == 0 or draw.chance(0.3):
        return None, None
    if op in ARG or draw.chance(0.5):
        axis = int(draw.rng.integers(-ndim, ndim))
        return [axis], (axis % ndim,)
    axes = [int(a) for a in draw.rng.permutation(ndim)[:int(draw.rng.integers(1, ndim + 1))]]
    return axes, tuple(axes)


def expectation(op, x, dtype, axis, keep):
    """The plain reduction's result, its dtype and the comparison; or the type of NumPy's error."""
    if op in ROUTINES:
        numpy_axis = axis if axis is None or len(axis) > 1 else axis[0]
        return routines.routine_expectation(op, x, dtype, numpy_axis, keep)
    reduced = size_of([x.shape[a] for a in axis]) if axis is not None else x.size
    if op in ("max", "min", "argmax", "argmin") and reduced == 0:
        return "ValueError"
    return reduction_expectation(op, x, dtype, axis, keep)


def draw_out(draw, case, result, result_dtype, tolerance):
    """The out line, and what out then holds (or the error its shape or dtype gives)."""
    rule = "safe" if case.op in ARG else "same_kind"
    # Exact results go into any dtype the rule allows; results within a bound only into one as precise.
    fits = castable(result_dtype, rule if tolerance[0] != "bound" else "safe")
    out_dtype = draw.pick(fits) if draw.chance(0.8) else draw.pick(DTYPES)
    shape = list(np.shape(result))
    if draw.chance(0.1):
        shape = shape + [1] if draw.chance(0.5) or not shape else shape[:-1] + [shape[-1] + 1]
    case.out = writable_out(draw, out_dtype, shape).tokens()
    if shape != list(np.shape(result)):
        return ["error", "ValueError"]
    if not np.can_cast(np.dtype(result_dtype), np.dtype(out_dtype), casting=rule):
        return ["error", "TypeError"]
    with np.errstate(all="ignore"):
        expected = cast(result, out_dtype)
    if tolerance[0] == "bound" and not is_inexact(out_dtype):
        tolerance = ["exact"]
    elif tolerance[0] == "bound":
        tiny = finfo(out_dtype).smallest_subnormal if out_dtype == "float16" else finfo(out_dtype).tiny
        tolerance = ["bound", np.asarray(tolerance[1], dtype=np.float64) + float(tiny)]
    return expect_array(expected, out_dtype, tolerance)


def reduction_into_case(draw, number):
    op = draw.pick(REDUCTIONS + ROUTINES)
    dtype = draw.pick(DTYPES)
    if op in ("var", "std", "mean", "norm", "nanmean", "nanvar", "nanstd") and dtype == "bool":
        dtype = "uint8"  # as the plain reduction cases
    shape = draw.shape(int(draw.pick([0, 1, 1, 2, 2, 3])))
    spec = drawn_array(draw, dtype, shape, {"nanprod": "prod", "nanvar": "var", "nanstd": "std"}.get(op, op))
    if op in ROUTINES:
        routines.with_nans(draw, spec)
    case = Case(number, op)
    case.operands.append(spec.tokens())
    axes, axis = axes_drawn(draw, op, len(shape))
    case.axes = ["all"] if axes is None else ["list", len(axes)] + axes
    case.keepdims = int(draw.chance(0.3))
    with_dtype = op in WITH_DTYPE and draw.chance(0.7)
    with_out = not with_dtype or draw.chance(0.5)
    x = np.asarray(spec.array)
    if with_dtype:
        accumulation = draw.pick(castable(dtype, "safe"))
        case.dtype = accumulation
        if op not in ANY_TYPE and not is_inexact(accumulation):
            case.expect = ["error", "TypeError"]
            return case
        with np.errstate(all="ignore"):
            x, dtype = cast(x, accumulation), accumulation
    found = expectation(op, x, dtype, axis, bool(case.keepdims))
    if isinstance(found, str):
        case.expect = ["error", found]
        return case
    result, result_dtype, tolerance = found
    if with_dtype and op in ANY_TYPE:  # summed in the plain reduction's dtype, then converted to the one asked
        result_dtype = dtype
        with np.errstate(all="ignore"):
            result = cast(result, result_dtype)
        if tolerance[0] == "bound" and not is_inexact(result_dtype):
            tolerance = ["exact"]
    case.expect = draw_out(draw, case, result, result_dtype, tolerance) if with_out else \
        expect_array(result, result_dtype, tolerance)
    return case
