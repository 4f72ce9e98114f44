"""The indexing cases of the NumPy differential test (generate.py draws them among the others).

An "index" line lists the terms of one index: `p N` a position, `s START STOP STEP` a slice ("none"
for a missing end), `n` newaxis, `e` ellipsis, `a I` the case's operand I (an integer array or a
mask). Index arrays are drawn with negative and repeated positions, sometimes out of bounds; masks
over one or more axes, sometimes of a wrong shape; several arrays broadcast together, next to each
other or separated by slices. The expected result is NumPy's, or the type of error it raises.
"""
import numpy as np

from generate import Case, drawn_array, expect_array, is_complex, is_float, size_of, DTYPES, TWO_BYTE

INDEXING = ["getitem", "setitem", "add_at", "take", "take_along_axis", "put", "compress", "argwhere", "putmask"]
INDEX_DTYPES = ["int64", "int32", "int16", "int8"]
MODES = ["raise", "wrap", "clip"]


def index_positions(draw, extent, shape, dtype="int64"):
    """Positions in [-extent, extent), sometimes one out of bounds."""
    n = size_of(shape)
    if extent == 0:
        values = np.zeros(n, dtype=np.int64)
    else:
        values = draw.rng.integers(-extent, extent, n)
    if n and draw.chance(0.06):
        values[int(draw.rng.integers(n))] = extent + int(draw.rng.integers(0, 3))
    limit = np.iinfo(dtype).max
    return np.clip(values, -limit, limit).astype(dtype).reshape(shape)


def broadcast_parts(draw, common):
    """A shape that broadcasts to `common` (axes dropped from the front, extents set to 1)."""
    shape = [1 if draw.chance(0.3) else d for d in common]
    return shape[int(draw.rng.integers(0, len(shape) + 1)):] if draw.chance(0.3) else shape


def draw_index(draw, case, shape):
    """The terms of an index of an array of `shape`, its operands appended to the case; the index as
    NumPy takes it."""
    ndim = len(shape)
    terms, numpy_index = [], []
    common = draw.shape(int(draw.pick([0, 1, 1, 2])))
    while size_of(common) > 64:
        common[common.index(max(common))] //= 2
    axis = 0
    ellipsis = False
    while axis < ndim or (not terms and draw.chance(0.3)):
        r = draw.rng.random()
        if axis >= ndim or r < 0.08:
            if draw.chance(0.5) and (not ellipsis or draw.chance(0.05)):
                terms.append("e")
                numpy_index.append(Ellipsis)
                ellipsis = True
                axis = max(axis, ndim - int(draw.rng.integers(0, 2)))
            else:
                terms.append("n")
                numpy_index.append(None)
            if axis >= ndim:
                break
            continue
        extent = shape[axis]
        if r < 0.3:
            position = int(draw.rng.integers(-extent - 1, extent + 1)) if extent else 0
            terms.append(f"p {position}")
            numpy_index.append(position)
            axis += 1
        elif r < 0.5:
            start = draw.pick([None, 0, 1, -1, 2, -3])
            stop = draw.pick([None, 0, 2, -1, 4, 100])
            step = int(draw.pick([1, 1, 2, -1, -2, 3]))
            terms.append(f"s {'none' if start is None else start} {'none' if stop is None else stop} {step}")
            numpy_index.append(slice(start, stop, step))
            axis += 1
        elif r < 0.8:
            dtype = draw.pick(INDEX_DTYPES)
            values = index_positions(draw, extent, broadcast_parts(draw, common), dtype)
            terms.append(f"a {len(case.operands)}")
            case.operands.append(array_tokens(values))
            numpy_index.append(values)
            axis += 1
        else:
            covered = int(draw.rng.integers(1, min(2, ndim - axis) + 1))
            mask_shape = list(shape[axis:axis + covered])
            if draw.chance(0.05):
                mask_shape[0] += 1
            mask = draw.rng.random(size_of(mask_shape)) < 0.5
            mask = mask.reshape(mask_shape)
            terms.append(f"a {len(case.operands)}")
            case.operands.append(array_tokens(mask))
            numpy_index.append(mask)
            axis += covered
    return terms, tuple(numpy_index)


def array_tokens(values):
    values = np.asarray(values).copy(order="C")  # ascontiguousarray makes 0-d 1-d
    return ["array", str(values.dtype), values.ndim] + list(values.shape) + [values.tobytes().hex() or "-", 0]


def writable(draw, dtype, shape):
    """An operand that can be written: any view but a broadcast one."""
    while True:
        spec = drawn_array(draw, dtype, shape)
        if not any(v[0] == "B" for v in spec.views):
            return spec


def numpy_outcome(f):
    """f()'s result, or the name of the error NumPy raises."""
    try:
        return f(), None
    except (IndexError, ValueError, TypeError) as error:
        return None, type(error).__name__


def expect(case, result, error, dtype):
    case.expect = ["error", error] if error else expect_array(result, dtype, ["exact"])
    return case


def value_operand(draw, case, dtype, shape):
    """Values of the target's dtype and `shape` (or a broadcastable part of it)."""
    spec = drawn_array(draw, dtype, broadcast_parts(draw, shape) if draw.chance(0.5) else shape)
    case.operands.append(spec.tokens())
    return spec.array


def selection_shape(x, index):
    """The shape x[index] has; () when the index fails (the case then expects NumPy's error)."""
    try:
        return list(x[index].shape)
    except (IndexError, ValueError, TypeError):
        return []


def sum_bound(x, index, values, dtype):
    """How far a float sum in another order may be from NumPy's: one rounding per term."""
    magnitude = np.zeros(x.shape, dtype=np.float64)
    np.add.at(magnitude, index, np.abs(np.broadcast_to(values, x[index].shape).astype(np.complex128)).real)
    eps = float(np.finfo(np.float32 if dtype in TWO_BYTE + ("float32", "complex64") else np.float64).eps)
    if dtype in TWO_BYTE:
        eps = 2.0 ** -7 if dtype == "bfloat16" else 2.0 ** -10
    bound = 4 * eps * (magnitude + np.abs(x.astype(np.complex128)))
    return np.where(np.isfinite(bound), bound, 0.0)  # infinities and NaNs are compared exactly


def indexing_case(draw, number):
    op = draw.pick(INDEXING)
    dtype = draw.pick([t for t in DTYPES if op != "add_at" or t != "bfloat16"])  # NumPy has no bfloat16 add.at
    shape = draw.shape(int(draw.pick([0, 1, 1, 2, 2, 3, 4])))
    case = Case(number, op)
    if op in ("getitem", "setitem", "add_at"):
        spec = writable(draw, dtype, shape) if op != "getitem" else drawn_array(draw, dtype, shape)
        case.operands.append(spec.tokens())
        terms, index = draw_index(draw, case, shape)
        case.index = terms
        x = np.array(spec.array)  # a copy, and an array even for 0-d (an integer index gives a scalar)
        if op == "getitem":
            result, error = numpy_outcome(lambda: x[index])
            return expect(case, result, error, dtype)
        values = value_operand(draw, case, dtype, selection_shape(x, index))
        if op == "setitem":
            def assign():
                x[index] = values
                return x
            result, error = numpy_outcome(assign)
            return expect(case, result, error, dtype)

        def accumulate():
            # NumPy 2.4.6's ufunc.at adds garbage when it broadcasts the values over a 2-d index itself
            # (np.add.at(zeros(4), [[0, 1], [1, 3]], [10, 1]) gave [10, 33, 0, 3633]): broadcast first.
            np.add.at(x, index, np.broadcast_to(values, x[index].shape))
            return x
        original = x.copy()
        result, error = numpy_outcome(accumulate)
        inexact = is_float(dtype) or is_complex(dtype)
        if error or not inexact:
            return expect(case, result, error, dtype)
        case.expect = expect_array(result, dtype, ["bound", sum_bound(original, index, values, dtype)])
        return case
    return function_case(draw, case, op, dtype, shape)


def function_case(draw, case, op, dtype, shape):
    ndim = len(shape)
    spec = writable(draw, dtype, shape) if op in ("put", "putmask") else drawn_array(draw, dtype, shape)
    case.operands.append(spec.tokens())
    x = np.array(spec.array)  # a copy, and an array even for 0-d (an integer index gives a scalar)
    axis = int(draw.rng.integers(-ndim, ndim)) if ndim and draw.chance(0.7) else None
    mode = int(draw.rng.integers(3))
    case.along = ["none" if axis is None else axis, mode]
    extent = size_of(shape) if axis is None else shape[axis]
    if op in ("take", "put"):
        positions = index_positions(draw, extent, draw.shape(int(draw.pick([0, 1, 1, 2]))), draw.pick(INDEX_DTYPES))
        case.operands.append(array_tokens(positions))
        if op == "take":
            result, error = numpy_outcome(lambda: np.take(x, positions, axis=axis, mode=MODES[mode]))
            return expect(case, result, error, dtype)
        values = drawn_array(draw, dtype, [int(draw.rng.integers(1, 4))])
        case.operands.append(values.tokens())

        def put():
            np.put(x, positions, values.array, mode=MODES[mode])
            return x
        result, error = numpy_outcome(put)
        return expect(case, result, error, dtype)
    if op == "take_along_axis":
        along = list(shape)
        if ndim:
            along[axis if axis is not None else 0] = int(draw.rng.integers(0, 5))
        positions = index_positions(draw, extent if axis is not None else size_of(shape),
                                    along if axis is not None else [along[0]] if ndim else [])
        case.operands.append(array_tokens(positions))
        result, error = numpy_outcome(lambda: np.take_along_axis(x, positions, axis=axis))
        return expect(case, result, error, dtype)
    if op == "compress":
        condition = draw.rng.random(max(extent + int(draw.rng.integers(-2, 2)), 0)) < 0.5
        case.operands.append(array_tokens(condition))
        result, error = numpy_outcome(lambda: np.compress(condition, x, axis=axis))
        return expect(case, result, error, dtype)
    if op == "argwhere":
        result, error = numpy_outcome(lambda: np.argwhere(x))
        return expect(case, None if error else result.astype(np.int64), error, "int64")
    mask = draw.rng.random(size_of(shape)).reshape(shape) < 0.5
    case.operands.append(array_tokens(mask))
    values = drawn_array(draw, dtype, [int(draw.rng.integers(1, 4))])
    case.operands.append(values.tokens())

    def putmask():
        np.putmask(x, mask, values.array)
        return x
    result, error = numpy_outcome(putmask)
    return expect(case, result, error, dtype)
