"""The creation cases of the NumPy differential test (generate.py draws them among the others).

Each is one routine of <xp/creation.hpp>, <xp/ranges.hpp> or <xp/foreign_memory.hpp>: zeros_like, ones_like
and full_like of any array with NumPy's dtype and shape arguments (the "dtype" and "shape" lines; full_like's
value on the "numbers" line, converted as NumPy's unsafe casting does), logspace and geomspace in every
floating and complex dtype (numbers: start, stop, endpoint, and logspace's base; the along line's integer
is num), meshgrid of one to three arrays in either indexing (the along line: the output compared, and 1 for
"ij"), indices of a shape in any dtype, and wrap: an operand's memory from element n on (the along line's
integer) viewed with the numbers line's strides, in elements, as the shape line's shape. The expected
result is NumPy's, or the type of error it raises.
"""
import math

import numpy as np

from generate import DTYPES, Case, cast, drawn_array, expect_array, finfo, is_inexact, size_of, ulps

LIKE = ["zeros_like", "ones_like", "full_like"]
OPS = LIKE + ["logspace", "geomspace", "meshgrid", "indices", "wrap"]
INEXACT = [t for t in DTYPES if is_inexact(t)]
# full_like's values: those every dtype holds, and for the inexact ones also what only they do.
SMALL_VALUES = [0.0, 1.0, 2.7, 100.5, 7.0]
INEXACT_VALUES = [-1.5, -0.0, 1e10, float("nan"), float("inf"), 1e-30]


def like_case(draw, case, op):
    dtype = draw.pick(DTYPES)
    spec = drawn_array(draw, dtype, draw.shape(draw.rank()))
    case.operands.append(spec.tokens())
    case.along = ["none", 0]
    if draw.chance(0.6):
        case.dtype = draw.pick(DTYPES)
    if draw.chance(0.4):
        case.shape = draw.shape(int(draw.pick([0, 1, 2, 3])))
    out_dtype = case.dtype or dtype
    shape = case.shape if case.shape is not None else list(spec.array.shape)
    value = 0.0 if op == "zeros_like" else 1.0
    if op == "full_like":
        value = float(draw.pick(SMALL_VALUES + (INEXACT_VALUES if is_inexact(out_dtype) else [])))
        case.numbers = [value]
    with np.errstate(all="ignore"):
        filled = cast(np.full(shape, value, dtype=np.float64), out_dtype)
    case.expect = expect_array(filled, out_dtype, ["exact"])


def power_bound(result, exponents, base, dtype):
    """base^y in float64 rounded to `dtype`: y's and pow's rounding, then the conversion's."""
    magnitude = np.abs(np.asarray(result, dtype=np.complex128)).astype(np.float64)
    spread = (16 + 8 * np.abs(exponents) * math.log(base)) * np.finfo(np.float64).eps
    tiny = finfo(dtype).smallest_subnormal if dtype == "float16" else finfo(dtype).tiny
    return magnitude * (spread + 2 * ulps(dtype)) + float(tiny)


def range_case(draw, case, op):
    dtype = draw.pick(INEXACT)
    num = int(draw.rng.integers(0, 13))
    endpoint = draw.chance(0.7)
    case.dtype, case.along = dtype, ["none", num]
    if op == "logspace":
        start, stop = (round(float(draw.rng.uniform(-3, 3)), 2) for _ in range(2))
        base = float(draw.pick([10.0, 2.0, 2.5]))
        case.numbers = [start, stop, int(endpoint), base]
        result = np.logspace(start, stop, num, endpoint=endpoint, base=base)
        exponents = np.linspace(start, stop, num, endpoint=endpoint)
    else:
        sign = draw.pick([1.0, -1.0])
        start, stop = (sign * float(draw.pick([0.0, 0.001, 0.5, 1.0, 3.0, 250.0, 1000.0])) for _ in range(2))
        case.numbers = [start, stop, int(endpoint)]
        if start == 0 or stop == 0:
            case.expect = ["error", "ValueError"]
            return
        base = 10.0
        result = np.geomspace(start, stop, num, endpoint=endpoint)
        exponents = np.log10(np.abs(result)) if num else result
    with np.errstate(all="ignore"):
        expected = cast(result, dtype)
    case.expect = expect_array(expected, dtype, ["bound", power_bound(result, exponents, base, dtype)])


def meshgrid_case(draw, case):
    arrays = []
    for _ in range(int(draw.rng.integers(1, 4))):
        shape = draw.shape(int(draw.pick([1, 1, 1, 0, 2])))
        while size_of(shape) > 12:  # the grids hold the product of the sizes
            shape[shape.index(max(shape))] //= 2
        spec = drawn_array(draw, draw.pick(DTYPES), shape)
        case.operands.append(spec.tokens())
        arrays.append(np.asarray(spec.array))
    output = int(draw.rng.integers(0, len(arrays)))
    ij = draw.chance(0.5)
    case.along = [output, int(ij)]
    grid = np.meshgrid(*arrays, indexing="ij" if ij else "xy")[output]
    case.expect = expect_array(grid, str(arrays[output].dtype), ["exact"])


def indices_case(draw, case):
    case.shape = draw.shape(int(draw.pick([0, 1, 2, 3])))
    case.dtype = draw.pick(DTYPES)
    case.along = ["none", 0]
    case.expect = expect_array(np.indices(case.shape).astype(case.dtype), case.dtype, ["exact"])


def strided_view(draw, memory_size):
    """A shape, strides in elements and a first element within memory of `memory_size` elements; None if
    the drawn ones do not fit."""
    shape = [int(d) for d in draw.rng.integers(0, 5, size=int(draw.pick([0, 1, 2, 3])))]
    strides = [int(draw.rng.integers(-6, 7)) for _ in shape]
    if size_of(shape) == 0:
        return shape, strides, 0
    low = sum(min(0, (d - 1) * s) for d, s in zip(shape, strides))
    high = sum(max(0, (d - 1) * s) for d, s in zip(shape, strides))
    if high - low >= memory_size:
        return None
    return shape, strides, int(draw.rng.integers(-low, memory_size - high))


def wrap_case(draw, case):
    dtype = draw.pick(DTYPES)
    size = int(draw.rng.integers(1, 40))
    memory = drawn_array(draw, dtype, [size], allow_views=False)
    case.operands.append(memory.tokens())
    view = None
    while view is None:
        view = strided_view(draw, size)
    shape, strides, first = view
    case.shape, case.numbers, case.along = shape, strides, ["none", first]
    positions = first + sum(np.indices(shape, dtype=np.int64)[k] * s for k, s in enumerate(strides)) if shape else \
        np.asarray(first)
    case.expect = expect_array(np.asarray(memory.array)[positions], dtype, ["exact"])


def creation_case(draw, number):
    op = draw.pick(OPS)
    case = Case(number, op)
    if op in LIKE:
        like_case(draw, case, op)
    elif op in ("logspace", "geomspace"):
        range_case(draw, case, op)
    elif op == "meshgrid":
        meshgrid_case(draw, case)
    elif op == "indices":
        indices_case(draw, case)
    else:
        wrap_case(draw, case)
    return case
