#!/usr/bin/env python3
"""Draws cases for the NumPy differential test and writes them with NumPy's answers.

Each case is one call of xparray's public API (an elementwise operation, where, clip or a reduction)
on operands drawn over every dtype and mixed pairs, ranks 0-6 with zero-size and long axes, views
(transpose, negative-step slices, integer indices, broadcast_to, reshape), scalars, `out=` arrays of
other layouts and dtypes, and in-place calls with overlap. The expected result is NumPy's, computed
on the operands converted to the dtype the README's promotion rules give (where the README
deliberately differs from NumPy, this file encodes the README). tests/differential/runner.cpp
computes the same calls through xparray and compares.

Usage: generate.py --seed S --count N --out cases.txt
"""
import argparse
import math
import sys
import warnings

import ml_dtypes  # noqa: F401 (registers bfloat16 with NumPy: np.dtype("bfloat16"))
import numpy as np

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
          "float32", "float64", "complex64", "complex128"]
BITS = {"bool": 1, "int8": 8, "uint8": 8, "int16": 16, "uint16": 16, "float16": 16, "bfloat16": 16, "int32": 32,
        "uint32": 32, "float32": 32, "int64": 64, "uint64": 64, "float64": 64, "complex64": 64, "complex128": 128}
TWO_BYTE = ("float16", "bfloat16")

BINARY = ["add", "subtract", "multiply", "divide", "mod", "power", "maximum", "minimum", "equal", "not_equal",
          "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "bitwise_and", "bitwise_or",
          "bitwise_xor", "left_shift", "right_shift", "floor_divide", "fmod", "fmax", "fmin", "logical_xor", "gcd",
          "lcm", "arctan2", "hypot", "copysign", "nextafter", "heaviside", "ldexp"]
# The functions of two results, one result each (frexp(a).first ...), and around with its decimals: no out= form.
AROUND = {"around": 0, "around_2": 2, "around_m1": -1}
UNARY = ["negative", "abs", "exp", "log", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "tanh", "sigmoid",
         "logical_not", "invert", "conj", "real", "imag", "angle", "floor", "ceil", "trunc", "square", "reciprocal",
         "sign", "exp2", "log2", "log10", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh",
         "arctanh", "cbrt", "deg2rad", "rad2deg", "rint", "isnan", "isinf", "isfinite", "signbit"] + \
    ["frexp_mantissa", "frexp_exponent", "modf_fraction", "modf_integral"] + list(AROUND)
NO_OUT = {"where", "clip", "frexp_mantissa", "frexp_exponent", "modf_fraction", "modf_integral"} | set(AROUND)
BITWISE = {"bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift", "invert"}
PREDICATES = {"equal", "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
              "logical_xor", "logical_not", "isnan", "isinf", "isfinite", "signbit"}
# Computed in the library's C math (or libcu++'s): within a bound of a float64 reference rounded once.
TRIGONOMETRIC = {"exp2", "log2", "log10", "arcsin", "arccos", "arctan", "sinh", "cosh", "arcsinh", "arccosh", "arctanh",
                 "cbrt", "deg2rad", "rad2deg", "arctan2", "hypot"}
FLOAT_FUNCTIONS = {"divide", "exp", "log", "log1p", "expm1", "sqrt", "sin", "cos", "tan", "tanh", "sigmoid",
                   "angle", "rint", "signbit", "copysign", "nextafter", "heaviside", "frexp_mantissa", "frexp_exponent",
                   "modf_fraction", "modf_integral"} | TRIGONOMETRIC
TRANSCENDENTAL = {"exp", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "sigmoid", "power", "angle"} | \
    TRIGONOMETRIC
REAL_ONLY = {"floor", "ceil", "trunc", "cbrt", "deg2rad", "rad2deg", "signbit", "floor_divide", "fmod", "arctan2", "hypot",
             "copysign", "nextafter", "heaviside", "ldexp", "frexp_mantissa", "frexp_exponent", "modf_fraction",
             "modf_integral"}
INTEGERS_ONLY = {"gcd", "lcm"}  # not bool either
SCALAR_DTYPES = {"bool": "bool", "int": "int64", "float": "float32", "double": "float64"}
# Complex results whose last bits depend on the order of operations (FMA contraction on GPUs, the
# libm used): compared within a bound relative to the result's magnitude.
COMPLEX_ROUNDED = TRANSCENDENTAL | {"multiply", "divide", "sqrt", "abs", "square", "reciprocal", "sign"} | set(AROUND)
REAL_PART = {"abs", "real", "imag", "angle"}
MAX_ELEMENTS = 4096
REDUCTIONS = ["sum", "prod", "mean", "max", "min", "argmax", "argmin", "all", "any", "var", "std", "norm"]
ALONG_AXIS = ["sort", "argsort", "cumsum", "cumprod", "nancumsum", "nancumprod", "diff"]
STATISTICS = ["searchsorted", "digitize", "lexsort", "unique_values", "unique_index", "unique_inverse", "unique_counts",
              "count_nonzero", "bincount", "bincount_weights", "histogram", "histogram_edges", "median", "quantile",
              "percentile"]
QUANTILE_METHODS = ["linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
                    "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                    "normal_unbiased"]
QUANTILES = [0.0, 0.3, 0.5, 0.77, 1.0]  # the runner's q for quantile (x 100 for percentile)
REAL_DTYPES = [t for t in DTYPES if not t.startswith("complex")]


def is_float(t):
    return t in ("float16", "bfloat16", "float32", "float64")


def is_complex(t):
    return t in ("complex64", "complex128")


def is_inexact(t):
    return is_float(t) or is_complex(t)


def real_part(t):
    return {"complex64": "float32", "complex128": "float64"}.get(t, t)


def is_unsigned(t):
    return t.startswith("uint")


def finfo(t):
    return ml_dtypes.finfo(t) if t == "bfloat16" else np.finfo(t)


def cast(values, dtype):
    """values as `dtype`, converted as the library converts: to a 2-byte float from a float64, a complex
    number's real part or an integer by rounding once (through the float32 rounded to odd, as
    kernels/xp/kernels/element_types.hpp does), else as NumPy's astype."""
    a = np.asarray(values)
    if dtype not in TWO_BYTE or a.dtype in (np.bool_, np.float32, np.float16) or a.dtype.name in TWO_BYTE:
        return a.astype(dtype)
    wide = (a.real if np.iscomplexobj(a) else a).astype(np.float64)
    with np.errstate(all="ignore"):
        nearest = wide.astype(np.float32)
        back = nearest.astype(np.float64)
    inexact = (back != wide) & ~np.isnan(wide)
    bits = nearest.view(np.uint32).copy()
    bits = np.where(inexact & (np.abs(back) > np.abs(wide)), bits - 1, bits)  # toward zero: truncated
    bits = np.where(inexact, bits | 1, bits).astype(np.uint32)
    return bits.view(np.float32).astype(dtype)


# ---- The README's promotion rules (include/xp/promotion.hpp) ----

def promote(a, b):
    if a == b:
        return a
    if a == "bool":
        return b
    if b == "bool":
        return a
    if is_complex(a) or is_complex(b):
        if is_complex(a) and is_complex(b):
            return "complex128"
        c, r = (a, b) if is_complex(a) else (b, a)
        return "complex128" if r == "float64" else c
    if is_float(a) or is_float(b):
        if is_float(a) and is_float(b):  # the wider; float16 with bfloat16 is float32 (neither holds the other)
            return "float32" if BITS[a] == BITS[b] else a if BITS[a] > BITS[b] else b
        return a if is_float(a) else b
    if is_unsigned(a) == is_unsigned(b):
        return a if BITS[a] >= BITS[b] else b
    u, s = (a, b) if is_unsigned(a) else (b, a)
    if u == "uint64":
        return "float64"
    need = max(BITS[u] + 1, BITS[s])
    return "int8" if need <= 8 else "int16" if need <= 16 else "int32" if need <= 32 else "int64"


def promote_with_scalar(array, kind):
    if is_inexact(array):
        return array
    if kind == "bool":
        return array
    if kind == "int":
        return "int64" if array == "bool" else array
    return "float32" if kind == "float" else "float64"


def compute_dtype(op, operands):
    """operands: ("array", dtype) or ("scalar", kind) in call order."""
    if op == "ldexp":  # x's floating-point type; the exponent is read as float64
        kind, t = operands[0]
        t = t if kind == "array" else SCALAR_DTYPES[t]
        return t if is_inexact(t) else "float32" if BITS[t] <= 16 else "float64"
    if op in AROUND:  # a's dtype; bool as the library's float functions compute it
        return "float32" if operands[0][1] == "bool" else operands[0][1]
    considered = operands[1:] if op == "where" else operands
    arrays = [t for k, t in considered if k == "array"]
    promoted = arrays[0]
    for t in arrays[1:]:
        promoted = promote(promoted, t)
    for k, t in considered:
        if k == "scalar":
            promoted = promote_with_scalar(promoted, t)
    if op in FLOAT_FUNCTIONS and not is_inexact(promoted):
        return "float32" if BITS[promoted] <= 16 else "float64"
    if op in ("mod", "floor_divide", "fmod", "power", "left_shift", "right_shift", "square", "reciprocal") and \
            promoted == "bool":
        return "int8"
    return promoted


def reduction_dtype(op, t):
    if op in ("sum", "prod"):
        if is_inexact(t):
            return t
        return "uint64" if is_unsigned(t) else "int64"
    if op in ("max", "min"):
        return t
    if op in ("argmax", "argmin"):
        return "int64"
    if op in ("all", "any"):
        return "bool"
    if op == "mean":
        return t if is_inexact(t) else "float64"
    return real_part(t) if is_inexact(t) else "float64"  # var, std, norm: real for complex input


def same_kind(src, dst):
    return bool(np.can_cast(np.dtype(src), np.dtype(dst), casting="same_kind"))


# ---- Drawing values, shapes and views ----

class Draw:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)

    def pick(self, items):
        return items[int(self.rng.integers(len(items)))]

    def chance(self, p):
        return self.rng.random() < p

    def values(self, dtype, n, op=None):
        rng = self.rng
        if dtype == "bool":
            return rng.random(n) < 0.5
        if is_complex(dtype):
            # Finite parts of moderate size (the special values of complex functions are not drawn yet):
            # halves give exact ties and zeros for the comparisons.
            real = self.values("float64", n, op)
            imag = self.values("float64", n, op)
            parts = np.stack([real, imag])
            parts = np.where(np.isfinite(parts) & (np.abs(parts) < 8), parts, rng.integers(-8, 9, parts.shape) / 2)
            if op not in ("prod", "sum", "mean", "var", "std", "norm", "inner", "vdot", "tensordot", "einsum") and \
                    rng.random() < 0.15:
                # Infinite and NaN parts (C99's Annex G for the functions, NumPy's formulas for * and /).
                special = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 1.0])
                mask = rng.random(parts.shape) < 0.3
                parts = np.where(mask, special[rng.integers(len(special), size=parts.shape)], parts)
            z = parts[0] + 1j * parts[1]
            if op == "prod":  # moduli near 1: long products neither overflow nor underflow midway
                z = np.where(z != 0, rng.uniform(0.95, 1.05, n) * np.exp(1j * rng.uniform(-np.pi, np.pi, n)), 0)
            return z.astype(dtype)
        if is_float(dtype):
            style = rng.integers(4)
            if style == 0:
                v = rng.uniform(-10, 10, n)
            elif style == 1:
                v = rng.integers(-8, 9, n).astype(np.float64) / 2  # exact halves: ties, zeros, equal values
            elif style == 2:
                v = rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4, n)
            else:
                special = [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 0.5]
                # Products and squares of huge or tiny values overflow or underflow in an order of
                # their own: the README promises no order for them.
                special = np.array(special + ([2.0, -3.0] if op in ("prod", "norm", "var", "std") else [1e30, -1e-30]))
                v = special[rng.integers(len(special), size=n)]
            if op == "prod":  # factors near 1: long products neither overflow nor underflow midway
                v = np.where(np.isfinite(v) & (v != 0), rng.uniform(0.8, 1.25, n) * np.sign(v), v)
            if op == "einsum":  # finite: where infinities meet depends on the order of the contractions
                v = np.where(np.isfinite(v) & (np.abs(v) < 1e20), v, rng.integers(-8, 9, n) / 2)
            if op in ("log", "sqrt", "log1p") and rng.random() < 0.7:
                v = np.abs(v)
            return cast(v, dtype)
        info = np.iinfo(dtype)
        style = rng.integers(3)
        if style == 0:
            lo, hi = max(info.min, -20), min(info.max, 20)
            return rng.integers(lo, hi + 1, n, dtype=np.int64 if info.min < 0 else np.uint64).astype(dtype)
        if style == 1:
            return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
        edges = np.array([info.min, info.max, 0, 1, info.max - 1, info.min + 1], dtype=dtype)
        return edges[rng.integers(len(edges), size=n)]

    def shape(self, rank):
        dims = []
        for _ in range(rank):
            r = self.rng.random()
            dims.append(0 if r < 0.06 else 1 if r < 0.2 else int(self.rng.integers(2, 6)))
        if rank and self.chance(0.1):  # one long axis
            dims[int(self.rng.integers(rank))] = int(self.rng.integers(200, 3000))
        while size_of(dims) > MAX_ELEMENTS:  # keeps the case file small
            dims[dims.index(max(dims))] //= 2
        return dims

    def rank(self):
        return int(self.pick([0, 1, 1, 2, 2, 2, 3, 3, 4, 5, 6]))


def size_of(shape):
    return int(np.prod(shape, dtype=np.int64)) if shape else 1


class ArraySpec:
    """A contiguous base array and the views taken from it, replayed by the runner."""

    def __init__(self, dtype, base_shape, data):
        self.dtype = dtype
        self.base_shape = list(base_shape)
        self.data = data.reshape(base_shape).copy(order="C")
        self.views = []
        self.array = self.data

    def transpose(self, perm):
        self.views.append(["T"] + list(perm))
        self.array = np.transpose(self.array, perm)

    def slice(self, axis, start, stop, step):
        self.views.append(["S", axis, start, stop, step])
        index = [slice(None)] * axis + [slice(start, stop, step)]
        self.array = self.array[tuple(index)]

    def take(self, axis, position):
        self.views.append(["I", axis, position])
        index = [slice(None)] * axis + [position]
        self.array = self.array[tuple(index)]

    def broadcast(self, shape):
        self.views.append(["B", len(shape)] + list(shape))
        self.array = np.broadcast_to(self.array, shape)

    def reshape(self, shape):
        self.views.append(["R", len(shape)] + list(shape))
        self.array = self.array.reshape(shape)

    def tokens(self):
        out = ["array", self.dtype, len(self.base_shape)] + self.base_shape + [self.data.tobytes().hex() or "-"]
        out.append(len(self.views))
        for v in self.views:
            out += v
        return out


def drawn_array(draw, dtype, shape, op=None, allow_views=True):
    """An ArraySpec whose final view has `shape` (broadcast views only when allowed)."""
    rank = len(shape)
    kind = draw.rng.integers(6) if allow_views else 0
    if kind == 1 and rank >= 2:  # a transposed view
        perm = list(draw.rng.permutation(rank))
        inverse = list(np.argsort(perm))
        base = [shape[i] for i in inverse]
        spec = ArraySpec(dtype, base, draw.values(dtype, size_of(base), op))
        spec.transpose([int(p) for p in perm])
        return spec
    if kind == 2 and rank >= 1:  # a strided or reversed slice along one axis
        axis = int(draw.rng.integers(rank))
        step = int(draw.pick([-1, -2, 2, 3]))
        extent = shape[axis]
        base = list(shape)
        base[axis] = extent * abs(step) + int(draw.rng.integers(0, 2))
        spec = ArraySpec(dtype, base, draw.values(dtype, size_of(base), op))
        if step > 0:
            start = int(base[axis] - extent * step) if extent else 0
            start = min(start, int(draw.rng.integers(0, base[axis] - (extent - 1) * step))) if extent else 0
            spec.slice(axis, start, start + (extent - 1) * step + 1 if extent else start, step)
        else:
            start = base[axis] - 1
            stop = start + step * extent
            spec.slice(axis, start, stop if stop >= 0 else -base[axis] - 1, step)
        assert list(spec.array.shape) == list(shape), (spec.array.shape, shape)
        return spec
    if kind == 3 and rank <= 5:  # an integer index into a larger array
        axis = int(draw.rng.integers(rank + 1))
        extra = int(draw.rng.integers(2, 4))
        base = list(shape[:axis]) + [extra] + list(shape[axis:])
        spec = ArraySpec(dtype, base, draw.values(dtype, size_of(base), op))
        position = int(draw.rng.integers(-extra, extra))
        spec.take(axis, position)
        return spec
    if kind == 4 and allow_views and rank >= 1 and size_of(shape) > 0:  # broadcast_to from smaller
        small = [1 if draw.chance(0.5) else d for d in shape]
        small = small[int(draw.rng.integers(0, rank + 1)):] if draw.chance(0.3) else small
        spec = ArraySpec(dtype, small, draw.values(dtype, size_of(small), op))
        spec.broadcast(shape)
        return spec
    if kind == 5 and rank >= 1 and size_of(shape) > 0:  # a reshape of a flat array
        spec = ArraySpec(dtype, [size_of(shape)], draw.values(dtype, size_of(shape), op))
        spec.reshape(shape)
        return spec
    return ArraySpec(dtype, shape, draw.values(dtype, size_of(shape), op))


# ---- Expected results ----

def wrap_power(a, b, dtype):
    """The README's integer power: wraps; a negative exponent gives 1, -1 or 0 (truncated)."""
    bits = BITS[dtype]
    mask = (1 << bits) - 1
    out = np.empty(a.shape, dtype=dtype)
    flat_a, flat_b, flat_out = a.reshape(-1), b.reshape(-1), out.reshape(-1)
    for i in range(flat_out.size):
        x, e = int(flat_a[i]), int(flat_b[i])
        if e < 0:
            r = 1 if x == 1 else (-1 if e % 2 else 1) if x == -1 else 0
        else:
            r = pow(x, e, 1 << bits)
        r &= mask
        if not is_unsigned(dtype) and r >> (bits - 1):
            r -= 1 << bits
        flat_out[i] = r
    return out


def two_byte_expected(op, values, dtype):
    """The README's 2-byte operations: computed in float32 and rounded once (transcendental functions:
    a float64 reference, rounded once)."""
    wide_type = "float64" if op in TRANSCENDENTAL else "float32"
    wide = [v if (op == "where" and i == 0) else np.asarray(v).astype(wide_type) for i, v in enumerate(values)]
    result = np.asarray(elementwise_expected(op, wide, wide_type))
    return result if result.dtype == np.bool_ or result.dtype.kind in "iu" else cast(result, dtype)


def elementwise_expected(op, values, dtype):
    """NumPy's result of op over values already converted to the compute dtype."""
    if dtype in TWO_BYTE and op != "nextafter" and op not in AROUND:  # these round in the 2-byte type itself
        return two_byte_expected(op, values, dtype)
    with np.errstate(all="ignore"):
        if op == "power" and not is_inexact(dtype):
            a, b = np.broadcast_arrays(*values)
            return wrap_power(a, b, dtype)
        if op == "log1p" and is_complex(dtype):
            # The README's log1p: log|1 + z| as log1p(2x + x^2 + y^2) / 2 near 0 (NumPy's log(hypot(1 + x, y))
            # keeps about one digit there), in extended precision.
            z = np.asarray(values[0]).astype(np.clongdouble)
            x, y = z.real, z.imag
            near = (np.abs(x) < 0.5) & (np.abs(y) < 0.5)
            real = np.where(near, 0.5 * np.log1p(x * (2 + x) + y * y), np.log(np.hypot(1 + x, y)))
            result = np.empty(np.shape(real), np.clongdouble)  # real + 1j * imag would mix an inf with NaNs
            result.real, result.imag = real, np.arctan2(y, 1 + x)
            return result.astype(dtype)
        if op == "sigmoid":
            x = values[0].astype(np.complex128 if is_complex(dtype) else np.float64)
            denominator = 1.0 + np.exp(-x)
            result = 1.0 / denominator
            if is_complex(dtype):  # C++'s complex quotient (Annex G): 1 over an infinite number is 0
                result = np.where(np.isinf(denominator.real) | np.isinf(denominator.imag), 0, result)
            return result.astype(dtype)
        if op == "power" and is_float(dtype):
            # C's and IEEE 754's pow, as the README says: a negative infinity to a positive
            # non-integer power is +inf (to a negative one +0), where NumPy says NaN.
            base, exponent = np.broadcast_arrays(*[np.asarray(v).astype(np.float64) for v in values])
            result = np.power(base, exponent)
            fractional = (base == -np.inf) & np.isfinite(exponent) & (exponent != np.floor(exponent))
            result = np.where(fractional, np.where(exponent > 0, np.inf, 0.0), result)
            return result.astype(dtype)
        # complex64 powers as NumPy computes them, in complex64: its repeated squaring over- and
        # underflows where a complex128 reference would not.
        if op in TRANSCENDENTAL and (dtype == "float32" or (dtype == "complex64" and op != "power")):
            # From float64, rounded once: a closer reference than NumPy's float32 loops, whose SIMD
            # versions also differ from C's rules at special values (pow(-inf, 0.5) is inf).
            wide = [np.asarray(v).astype(np.complex128 if is_complex(dtype) else np.float64) for v in values]
            return getattr(np, op)(*wide).astype(real_part(dtype) if op in REAL_PART else dtype)
        if op == "mod":
            return np.remainder(*values)
        if op in AROUND and is_complex(dtype) and AROUND[op] != 0:
            # The README's complex around: the scaling is a complex product (NumPy rounds the parts apart,
            # which differs where a part is infinite or NaN).
            factor = 10.0 ** abs(AROUND[op])
            if AROUND[op] > 0:
                return np.true_divide(np.rint(np.multiply(values[0], factor)), factor)
            return np.multiply(np.rint(np.true_divide(values[0], factor)), factor)
        if op in AROUND:
            return np.round(values[0], AROUND[op])
        if op.startswith("frexp_") or op.startswith("modf_"):
            parts = getattr(np, op.split("_")[0])(values[0])
            return parts[0 if op in ("frexp_mantissa", "modf_fraction") else 1]
        if op == "ldexp":  # the exponent clamped as the library's (the result is 0 or infinite past it)
            return np.ldexp(values[0], np.clip(np.asarray(values[1], np.float64), -4096, 4096).astype(np.int64))
        if op == "reciprocal" and not is_inexact(dtype):  # the README's 1 / 0 of integers: 0
            x = np.asarray(values[0])
            return np.where(x == 0, 0, np.reciprocal(np.where(x == 0, 1, x))).astype(dtype)
        if op == "where":
            return np.where(*values)
        if op == "clip":
            x, lo, hi = values
            return np.minimum(np.maximum(x, lo), hi)
        return getattr(np, op)(*values)


def ulps(dtype):
    return float(finfo(dtype).eps)


def tolerance_for(op, dtype, result, values=()):
    """How the comparison treats the result: exact bits, equal up to the sign of zero, or within a
    bound per element (NaN results are compared as NaN, so their bound is 0)."""
    if op in ("maximum", "minimum", "fmax", "fmin", "clip", "max", "min"):
        return ["signed-zero"]
    if is_complex(dtype) and op in COMPLEX_ROUNDED:  # relative to |result|, applied to each part
        scale = 8.0
        if op == "power":  # exp(b log a): the rounding of log a grows with |b| (0^b is exact)
            with np.errstate(all="ignore"):
                a, b = (np.asarray(v).astype(np.complex128) for v in values)
                scale = 8 * (1 + np.abs(b) * (np.abs(np.log(np.where(a == 0, 1, np.abs(a)))) + np.pi))
        elif op == "sigmoid":  # 1 / (1 + exp(-z)) near its poles (z = i pi (2k + 1)): the error grows as |result|^2
            scale = 8 * (1 + np.abs(result).astype(np.float64))
        bound = scale * ulps(dtype) * np.abs(result).astype(np.float64) + 4 * float(finfo(dtype).tiny)
        # A NaN part makes |result| NaN: the other part is then compared exactly.
        return ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf)]
    if not is_float(dtype) or op not in TRANSCENDENTAL:
        return ["exact"]
    # Relative to the result, so a 0 never passes for a non-zero result; the floor only covers subnormals.
    # float16's subnormals are exact in float32, which computes them; bfloat16's are float32's own.
    tiny = float(finfo(dtype).smallest_subnormal if dtype == "float16" else finfo(dtype).tiny)
    bound = 4 * ulps(dtype) * np.abs(result).astype(np.float64) + 4 * tiny
    return ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf)]


# ---- Cases ----

class Case:
    def __init__(self, number, op):
        self.number, self.op = number, op
        self.operands = []  # token lists
        self.out = None
        self.axes = None
        self.keepdims = 0
        self.along = None  # ALONG_AXIS's: [axis or "none", n]
        self.index = None  # indexing_cases.py's terms
        self.dtype = None  # a reduction's accumulation dtype, a creation routine's dtype
        self.shape = None  # creation_cases.py's shapes
        self.numbers = None  # creation_cases.py's numbers: start, stop, endpoint, base or value; strides
        self.expect = None

    def write(self, out):
        lines = [f"case {self.number} {self.op} {len(self.operands)}"]
        lines += ["in " + " ".join(str(t) for t in o) for o in self.operands]
        if self.out is not None:
            lines.append("out " + " ".join(str(t) for t in self.out))
        if self.axes is not None:
            lines.append("axes " + " ".join(str(t) for t in self.axes) + f" keepdims {self.keepdims}")
        if self.along is not None:
            lines.append("along " + " ".join(str(t) for t in self.along))
        if self.index is not None:
            lines.append(f"index {len(self.index)} " + " ".join(self.index))
        if self.dtype is not None:
            lines.append(f"dtype {self.dtype}")
        if self.shape is not None:
            lines.append(f"shape {len(self.shape)} " + " ".join(str(d) for d in self.shape))
        if self.numbers is not None:
            lines.append(f"numbers {len(self.numbers)} " + " ".join(repr(float(v)) for v in self.numbers))
        lines.append("expect " + " ".join(str(t) for t in self.expect))
        out.write("\n".join(lines) + "\nend\n")


def expect_array(result, dtype, tolerance):
    result = np.asarray(result, dtype=dtype).copy(order="C")  # ascontiguousarray would make 0-d 1-d
    tokens = [dtype, result.ndim] + list(result.shape) + [result.tobytes().hex() or "-"] + [tolerance[0]]
    if tolerance[0] == "bound":
        bound = np.broadcast_to(np.asarray(tolerance[1], dtype=np.float64), result.shape)
        tokens.append(bound.copy(order="C").tobytes().hex() or "-")
    return tokens


def scalar_operand(draw, kind):
    if kind == "bool":
        value = bool(draw.chance(0.5))
        return ["scalar", "bool", int(value)], np.bool_(value)
    if kind == "int":
        value = int(draw.pick([0, 1, -1, 2, 3, 7, -5, 100, 127, 128, 255, 300, -129, 65535, 2**31 - 1, 2**40]))
        return ["scalar", "int", value], value
    value = float(draw.pick([0.5, -2.0, 3.25, 0.0, 1e10, -1e-7]))
    if kind == "float":
        value = float(np.float32(value))
    return ["scalar", kind, repr(value)], value


def fits(value, dtype):
    if dtype == "bool" or is_inexact(dtype):
        return True
    info = np.iinfo(dtype)
    return info.min <= value <= info.max


def broadcast_shapes(draw, count):
    """Operand shapes that broadcast together, and the result shape."""
    result = draw.shape(draw.rank())
    shapes = []
    for _ in range(count):
        s = [1 if draw.chance(0.25) else d for d in result]
        if s and draw.chance(0.25):
            s = s[int(draw.rng.integers(0, len(s) + 1)):]
        shapes.append(s)
    return shapes, result


def elementwise_case(draw, number):
    op = draw.pick(BINARY + UNARY + ["where", "clip"])
    if op in AROUND and draw.chance(0.5):
        op = "around"  # mostly 0 decimals
    arity = 1 if op in UNARY else 2 if op in BINARY else 3
    case = Case(number, op)
    shapes, result_shape = broadcast_shapes(draw, arity)
    mixed = draw.chance(0.4)
    base_dtype = draw.pick(DTYPES)
    kinds, values, specs = [], [], []
    scalar_slots = set()
    if arity >= 2 and draw.chance(0.3):
        scalar_slots.add(int(draw.rng.integers(1 if op in ("where", "clip") else 0, arity)))
    # In place with a partial overlap: the output is the same buffer as one input, shifted along
    # axis 0 (a[0:n] into a[1:n+1], or the other way).
    overlap = None
    if op not in NO_OUT and len(result_shape) >= 1 and result_shape[0] >= 1 and draw.chance(0.12):
        slots = [i for i in range(arity) if i not in scalar_slots]
        overlap = (int(draw.pick(slots)), int(draw.pick([1, 2])), bool(draw.chance(0.5)))
        shapes[overlap[0]] = list(result_shape)
    for i in range(arity):
        if i in scalar_slots:
            kind = draw.pick(["bool", "int", "float", "double"])
            tokens, value = scalar_operand(draw, kind)
            case.operands.append(tokens)
            kinds.append(("scalar", kind))
            values.append(value)
            specs.append(None)
            continue
        dtype = draw.pick(DTYPES) if mixed else base_dtype
        if op == "where" and i == 0 and draw.chance(0.7):
            dtype = "bool"  # else a condition of any dtype: non-zero (and NaN) is true
        if overlap is not None and overlap[0] == i:
            _, shift, input_first = overlap
            base = [result_shape[0] + shift] + list(result_shape[1:])
            spec = ArraySpec(dtype, base, draw.values(dtype, size_of(base), op))
            length = result_shape[0]
            start = 0 if input_first else shift
            spec.slice(0, start, start + length, 1)
            out_start = shift if input_first else 0
            overlap_out = ["shifted", i, 1, "S", 0, out_start, out_start + length, 1]
        else:
            spec = drawn_array(draw, dtype, shapes[i], op)
        case.operands.append(spec.tokens())
        kinds.append(("array", dtype))
        values.append(spec.array)
        specs.append(spec)
    if all(k == "scalar" for k, _ in kinds):
        return None
    result_shape = list(np.broadcast_shapes(*[spec.array.shape for spec in specs if spec is not None]))
    compute = compute_dtype(op, kinds)
    result_dtype = "bool" if op in PREDICATES else real_part(compute) if op in REAL_PART else \
        "int32" if op == "frexp_exponent" else compute
    # The README's errors.
    if any(k == "scalar" and t == "int" and not fits(v, compute) for (k, t), v in zip(kinds, values)):
        case.expect = ["error", "ValueError"]
        return case
    ldexp_float_exponent = op == "ldexp" and (kinds[1][1] in ("float", "double") or is_inexact(kinds[1][1]))
    if (compute == "bool" and op in ("subtract", "negative", "sign")) or ldexp_float_exponent or \
            (is_complex(compute) and (op == "mod" or op in REAL_ONLY)) or (op in BITWISE and is_inexact(compute)) or \
            (op in INTEGERS_ONLY and (is_inexact(compute) or compute == "bool")) or \
            (op in AROUND and kinds[0][1] == "bool" and AROUND[op] < 0):
        case.expect = ["error", "TypeError"]
        return case
    converted = []
    for i, v in enumerate(values):
        with np.errstate(all="ignore"):
            slot = "bool" if (op == "where" and i == 0) else "float64" if (op == "ldexp" and i == 1) else compute
            converted.append(cast(v, slot))
    result = cast(elementwise_expected(op, converted, compute), result_dtype)
    result = np.broadcast_to(result, result_shape)
    tolerance = tolerance_for(op, compute, result, converted)
    # Sometimes into an out= array of another layout and dtype, or in place over an input.
    out_dtype = result_dtype
    if overlap is not None:
        out_dtype = specs[overlap[0]].dtype
        case.out = overlap_out
    elif op not in NO_OUT and draw.chance(0.3):
        out_dtype = result_dtype if draw.chance(0.5) else draw.pick(DTYPES)
        # In place: the output is one of the inputs (every element overlaps), never a broadcast view.
        in_place = [i for i, spec in enumerate(specs)
                    if spec is not None and spec.dtype == out_dtype and list(spec.array.shape) == list(result_shape)
                    and all(v[0] != "B" for v in spec.views)]
        if in_place and draw.chance(0.5):
            case.out = ["input", in_place[0]]
        elif len(result_shape) >= 2 and draw.chance(0.5):
            spec = ArraySpec(out_dtype, result_shape[::-1], draw.values(out_dtype, size_of(result_shape)))
            spec.transpose(list(range(len(result_shape)))[::-1])
            case.out = spec.tokens()
        else:
            case.out = drawn_array(draw, out_dtype, result_shape, allow_views=False).tokens()
    if case.out is not None:
        if not same_kind(result_dtype, out_dtype):
            case.expect = ["error", "TypeError"]
            return case
        with np.errstate(all="ignore"):
            result = cast(result, out_dtype)
        if tolerance[0] == "bound" and not is_inexact(out_dtype):
            tolerance = ["exact"]
    case.expect = expect_array(result, out_dtype, tolerance)
    return case


def reduction_case(draw, number):
    op = draw.pick(REDUCTIONS)
    dtype = draw.pick(DTYPES)
    if op in ("var", "std", "mean", "norm") and dtype == "bool":
        dtype = "uint8"
    shape = draw.shape(draw.rank())
    spec = drawn_array(draw, dtype, shape, op)
    case = Case(number, op)
    case.operands.append(spec.tokens())
    ndim = len(shape)
    style = draw.rng.integers(5)
    if style == 0 or ndim == 0:
        axes = None
    elif style == 1:
        axes = [int(draw.rng.integers(-ndim, ndim))]
    elif style == 2:
        count = int(draw.rng.integers(0, ndim + 1))
        axes = [int(a) for a in draw.rng.permutation(ndim)[:count]]
        axes = [a - ndim if draw.chance(0.4) else a for a in axes]
    elif style == 3:
        axes = [int(draw.rng.integers(-ndim - 1, ndim + 1))] + ([0, 0] if draw.chance(0.5) else [])
    else:
        axes = []
    case.keepdims = int(draw.chance(0.3))
    case.axes = ["all"] if axes is None else ["list", len(axes)] + axes
    x = spec.array
    # The errors first: out-of-range and duplicate axes, argmax over several, empty reductions.
    if axes is not None:
        normalized = []
        for a in axes:
            if not -ndim <= a < ndim:
                case.expect = ["error", "ValueError"]
                return case
            normalized.append(a % ndim)
        if len(set(normalized)) != len(normalized):
            case.expect = ["error", "ValueError"]
            return case
        axis_tuple = tuple(normalized)
    else:
        axis_tuple = None
    if op in ("argmax", "argmin") and axes is not None and len(axes) != 1:
        case.expect = ["error", "ValueError"]
        return case
    reduced = size_of([shape[a] for a in axis_tuple]) if axis_tuple is not None else size_of(shape)
    if op in ("max", "min", "argmax", "argmin") and reduced == 0:
        case.expect = ["error", "ValueError"]
        return case
    case.expect = expect_array(*reduction_expectation(op, x, dtype, axis_tuple, bool(case.keepdims)))
    return case


def reduction_expectation(op, x, dtype, axis_tuple, keep):
    """NumPy's result of `op` on x (of `dtype`) over the axes (None: all), its dtype and the comparison."""
    ndim = x.ndim
    reduced = size_of([x.shape[a] for a in axis_tuple]) if axis_tuple is not None else x.size
    out_dtype = reduction_dtype(op, dtype)
    if dtype in TWO_BYTE:  # the README: 2-byte reductions in float32, rounded once at the end
        x = x.astype(np.float32)
    with np.errstate(all="ignore"):
        if op in ("argmax", "argmin"):
            axis = axis_tuple[0] if axis_tuple is not None else None
            result = getattr(np, op)(x, axis=axis)
            if keep:
                result = np.expand_dims(result, axis) if axis is not None else np.reshape(result, [1] * ndim)
        elif op in ("all", "any"):
            result = getattr(np, op)(x, axis=axis_tuple, keepdims=keep)
        elif op in ("max", "min"):
            result = (np.max if op == "max" else np.min)(x, axis=axis_tuple, keepdims=keep)
        else:
            def moment(values, t):
                if np.iscomplexobj(values) and op in ("var", "std", "norm"):  # NumPy's real results
                    if op == "norm":
                        square = (values * np.conj(values)).real
                        return np.sqrt(np.sum(square, axis=axis_tuple, keepdims=keep))
                    return getattr(np, op)(values, axis=axis_tuple, keepdims=keep)
                if op == "sum":
                    return np.sum(values, axis=axis_tuple, keepdims=keep, dtype=t)
                if op == "prod":
                    return np.prod(values, axis=axis_tuple, keepdims=keep, dtype=t)
                if op == "mean":
                    return np.mean(values, axis=axis_tuple, keepdims=keep, dtype=t)
                if op == "var":
                    return np.var(values, axis=axis_tuple, keepdims=keep, dtype=t)
                if op == "std":
                    return np.std(values, axis=axis_tuple, keepdims=keep, dtype=t)
                return np.sqrt(np.sum(values * values, axis=axis_tuple, keepdims=keep, dtype=t))
            accumulate = dtype if is_complex(dtype) else "float32" if dtype in TWO_BYTE else out_dtype
            result = cast(moment(x.astype(accumulate), accumulate), out_dtype)
            if is_inexact(out_dtype):
                # NumPy sums in out_dtype, pairwise only along contiguous rows; the reference is the
                # sum in extended precision, rounded once, wherever NumPy's own result is finite (an
                # overflow or a NaN stays NumPy's).
                extended = np.clongdouble if is_complex(dtype) else np.longdouble
                exact = cast(np.asarray(moment(x.astype(extended), extended)).astype(np.float64)
                             if out_dtype in TWO_BYTE else moment(x.astype(extended), extended), out_dtype)
                result = cast(np.where(np.isfinite(result), exact, result), out_dtype)
    result = np.asarray(result)
    if op in ("max", "min"):
        tolerance = ["signed-zero"]
    elif is_inexact(out_dtype) and op not in ("all", "any"):
        # Sums in another order: a bound from the sum of magnitudes, in float64.
        wide = x.astype(np.complex128 if is_complex(dtype) else np.float64)
        magnitude = np.abs(wide)
        if op in ("var", "std"):
            mean = np.mean(wide, axis=axis_tuple, keepdims=True)
            deviation = np.abs(wide - mean)
            # The rounding of the mean itself: every deviation is off by about eps * steps * |mean|.
            mean_error = 4 * ulps(out_dtype) * (math.log2(reduced + 2) + 2) * np.abs(mean)
            magnitude = deviation ** 2 + np.abs(mean) * deviation + mean_error ** 2 / (4 * ulps(out_dtype))
        elif op == "norm":
            magnitude = magnitude * magnitude
        elif op == "prod":
            magnitude = None
        steps = math.log2(reduced + 2) + 2
        eps = ulps(out_dtype)
        if magnitude is None:
            bound = 4 * eps * (reduced + 2) * np.abs(result).astype(np.float64)
        else:
            with np.errstate(all="ignore"):
                total = np.sum(magnitude, axis=axis_tuple, keepdims=keep)
                if op in ("mean", "var", "std"):
                    total = total / max(reduced, 1)
                bound = 4 * eps * steps * total
                if op == "std":
                    bound = np.sqrt(bound) + 4 * eps * np.abs(result).astype(np.float64)
                elif op == "norm":
                    bound = bound / np.maximum(np.abs(result).astype(np.float64), np.finfo(np.float64).tiny) + \
                        4 * eps * np.abs(result).astype(np.float64)
        tiny = finfo(out_dtype).smallest_subnormal if out_dtype == "float16" else finfo(out_dtype).tiny
        tolerance = ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf) + 4 * float(tiny)]
    else:
        tolerance = ["exact"]
    return result, out_dtype, tolerance


def scan_dtype(t):
    if is_inexact(t):
        return t
    return "uint64" if is_unsigned(t) else "int64"


def sort_order(x, axis):
    """NumPy's stable argsort; 2-byte floats through float32 (exact), which orders them as NumPy does."""
    wide = x.astype(np.float32) if x.dtype.name in TWO_BYTE else x
    return np.argsort(wide, axis=axis, kind="stable")


def scan_expected(op, x, axis, out_dtype):
    """The scan in float64 (complex128) for inexact results, and a bound for its other order of
    operations (blocks on CPUs, trees on GPUs); exact wrapping arithmetic for integers."""
    if not is_inexact(out_dtype):
        return getattr(np, op)(x, axis=axis, dtype=out_dtype), ["exact"]
    wide = x.astype(np.complex128 if is_complex(out_dtype) else np.float64)
    with np.errstate(all="ignore"):
        result = cast(getattr(np, op)(wide, axis=axis), out_dtype)
        flat = wide if axis is not None else wide.reshape(-1)
        along = axis if axis is not None else 0
        steps = np.cumsum(np.ones_like(np.abs(flat)), axis=along)
        eps = ulps(out_dtype)
        if op in ("cumsum", "nancumsum"):
            # Recursive summation's bound, (n - 1) u sum |x| to first order: CPUs add rows in order (NumPy's
            # rounding), which a tree's log2(n) bound does not cover (1904 equal float32 values erred by 5.4
            # where it allowed 5.35). It covers the GPU's trees too.
            magnitude = np.cumsum(np.nan_to_num(np.abs(flat), nan=0.0), axis=along)
            bound = eps * (steps + 2) * magnitude
        else:
            bound = 4 * eps * (steps + 2) * np.abs(result).astype(np.float64)
        # Where the bound reaches past the largest finite number, rounding may overflow (a bfloat16 cumprod
        # of 3.1e38 within its bound of 2.4e40 came out inf): any result is within it there.
        bound = np.where(np.abs(result).astype(np.float64) + bound > float(finfo(out_dtype).max), np.inf, bound)
    tiny = finfo(out_dtype).smallest_subnormal if out_dtype == "float16" else finfo(out_dtype).tiny
    return result, ["bound", np.nan_to_num(bound, nan=0.0, posinf=np.inf) + 4 * float(tiny)]


def along_axis_case(draw, number):
    op = draw.pick(ALONG_AXIS)
    dtype = draw.pick(DTYPES)
    shape = draw.shape(draw.rank())
    spec = drawn_array(draw, dtype, shape, "prod" if op in ("cumprod", "nancumprod") else None)
    case = Case(number, op)
    case.operands.append(spec.tokens())
    ndim = len(shape)
    flattened = op not in ("sort", "argsort", "diff") and draw.chance(0.3)
    axis = None if flattened else int(draw.rng.integers(-ndim - 1, ndim + 1)) if ndim else -1
    n = int(draw.pick([0, 1, 1, 2, 3])) if op == "diff" else 1
    case.along = ["none" if axis is None else axis, n]
    x = spec.array
    if axis is not None and not -ndim <= axis < ndim or (op == "diff" and ndim == 0):
        case.expect = ["error", "ValueError"]
        return case
    if op in ("sort", "argsort"):
        order = sort_order(x, axis)
        if op == "argsort":
            case.expect = expect_array(order.astype(np.int64), "int64", ["exact"])
        else:
            case.expect = expect_array(np.take_along_axis(x, order, axis=axis), dtype, ["exact"])
    elif op == "diff":
        with np.errstate(all="ignore"):
            result = np.diff(x, n=n, axis=axis)
        case.expect = expect_array(result, dtype, ["exact"])
    else:
        result, tolerance = scan_expected(op, x, axis, scan_dtype(dtype))
        case.expect = expect_array(result, scan_dtype(dtype), tolerance)
    return case


def flat_spec(draw, dtype, values):
    return ArraySpec(dtype, [len(values)], np.asarray(values).astype(dtype) if dtype not in TWO_BYTE else values)


def sorted_values(draw, dtype, n):
    values = draw.values(dtype, n)
    return values[sort_order(values, 0)]


def search_case(draw, number, op):
    case = Case(number, op)
    if op == "searchsorted":
        dtype = draw.pick(DTYPES)
        sorted_spec = flat_spec(draw, dtype, sorted_values(draw, dtype, int(draw.rng.integers(0, 40))))
        spec = drawn_array(draw, dtype, draw.shape(draw.rank()))
        right = int(draw.chance(0.5))
        case.operands += [sorted_spec.tokens(), spec.tokens()]
        case.along = ["none", right]
        wide = (lambda a: a.astype(np.float32)) if dtype in TWO_BYTE else (lambda a: a)
        result = np.searchsorted(wide(sorted_spec.array), wide(spec.array), side="right" if right else "left")
        case.expect = expect_array(np.asarray(result, dtype=np.int64), "int64", ["exact"])
        return case
    if op == "digitize":
        dtype = draw.pick(REAL_DTYPES)
        bins = sorted_values(draw, "float64", int(draw.rng.integers(1, 12)))
        bins = bins[~np.isnan(bins)] if len(bins[~np.isnan(bins)]) else np.array([0.0])
        if draw.chance(0.4):
            bins = bins[::-1].copy()
        spec = drawn_array(draw, dtype, draw.shape(draw.rank()))
        right = int(draw.chance(0.5))
        case.operands += [spec.tokens(), flat_spec(draw, "float64", bins).tokens()]
        case.along = ["none", right]
        x = spec.array.astype(np.float32) if dtype in TWO_BYTE else spec.array
        case.expect = expect_array(np.digitize(x, bins, right=bool(right)).astype(np.int64), "int64", ["exact"])
        return case
    dtype = draw.pick([t for t in DTYPES if t not in TWO_BYTE])
    shape = draw.shape(draw.rank())
    ndim = len(shape)
    keys = [drawn_array(draw, dtype, shape) for _ in range(int(draw.rng.integers(1, 4)))]
    axis = int(draw.rng.integers(-ndim, ndim)) if ndim else -1
    case.operands += [k.tokens() for k in keys]
    case.along = [axis, 0]
    if ndim == 0:
        case.expect = ["error", "ValueError"]
        return case
    case.expect = expect_array(np.lexsort([k.array for k in keys], axis=axis).astype(np.int64), "int64", ["exact"])
    return case


def unique_expected(op, x, axis):
    """NumPy's unique; 2-byte floats through float32 (exact), complex NaNs left out (NumPy equates
    every complex NaN only when they sort last)."""
    wide = x.astype(np.float32) if x.dtype.name in TWO_BYTE else x
    values, index, inverse, counts = np.unique(wide, return_index=True, return_inverse=True, return_counts=True,
                                               axis=axis)
    if op == "unique_values":
        return np.asarray(values).astype(x.dtype), x.dtype.name
    return np.asarray({"unique_index": index, "unique_inverse": inverse, "unique_counts": counts}[op],
                      dtype=np.int64), "int64"


def unique_case(draw, number, op):
    case = Case(number, op)
    by_axis = draw.chance(0.3)
    dtype = draw.pick(["int8", "int32", "uint16", "int64", "float32", "float64"] if by_axis else DTYPES)
    shape = draw.shape(draw.rank())
    ndim = len(shape)
    spec = drawn_array(draw, dtype, shape)
    x = spec.array
    if is_complex(dtype) and np.isnan(x).any():
        return None
    if by_axis and is_float(dtype) and np.isnan(x).any():
        x = np.nan_to_num(x)
        spec = ArraySpec(dtype, shape, x)
    axis = int(draw.rng.integers(-ndim, ndim)) if by_axis and ndim else None
    case.operands.append(spec.tokens())
    case.along = ["none" if axis is None else axis, 0]
    result, out_dtype = unique_expected(op, x, axis)
    case.expect = expect_array(result, out_dtype, ["exact"])
    return case


def counting_case(draw, number, op):
    case = Case(number, op)
    if op == "count_nonzero":
        dtype = draw.pick(DTYPES)
        shape = draw.shape(draw.rank())
        spec = drawn_array(draw, dtype, shape)
        axis = int(draw.rng.integers(-len(shape), len(shape))) if shape and draw.chance(0.6) else None
        case.operands.append(spec.tokens())
        case.along = ["none" if axis is None else axis, 0]
        case.expect = expect_array(np.asarray(np.count_nonzero(spec.array, axis=axis), dtype=np.int64), "int64",
                                   ["exact"])
        return case
    if op in ("bincount", "bincount_weights"):
        dtype = draw.pick(["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32"])
        n = int(draw.rng.integers(0, 60))
        values = draw.rng.integers(0, 2 if dtype == "bool" else 40, n)
        if n and draw.chance(0.1) and dtype.startswith("int"):
            values[int(draw.rng.integers(n))] = -1
        minlength = int(draw.pick([0, 0, 5, 50]))
        case.operands.append(flat_spec(draw, dtype, values).tokens())
        case.along = ["none", minlength]
        weights = draw.rng.integers(-8, 9, n) / 2
        if op == "bincount_weights":
            case.operands.append(flat_spec(draw, "float64", weights).tokens())
        if (values < 0).any():
            case.expect = ["error", "ValueError"]
            return case
        x = values.astype(dtype)
        result = np.bincount(x, weights=weights if op == "bincount_weights" else None, minlength=minlength)
        out = "float64" if op == "bincount_weights" else "int64"
        case.expect = expect_array(result.astype(out), out, ["exact"])
        return case
    dtype = draw.pick(["int8", "int32", "uint16", "int64", "float16", "float32", "float64"])
    spec = drawn_array(draw, dtype, draw.shape(draw.rank()))
    bins = int(draw.rng.integers(1, 12))
    ranged = draw.chance(0.5)
    x = spec.array
    finite = x[np.isfinite(x)] if is_float(dtype) else x
    lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    span = [lo - 1.0, hi + float(draw.rng.integers(0, 3))] if ranged else None
    case.operands.append(spec.tokens())
    case.along = ["none" if not ranged else repr(span[0]) + ":" + repr(span[1]), bins]
    try:
        hist, edges = np.histogram(x, bins=bins, range=span)
    except ValueError:
        case.expect = ["error", "ValueError"]
        return case
    if op == "histogram":
        case.expect = expect_array(hist.astype(np.int64), "int64", ["exact"])
    else:
        case.expect = expect_array(edges, edges.dtype.name, ["exact"])
    return case


def order_statistic_case(draw, number, op):
    case = Case(number, op)
    dtype = draw.pick(DTYPES if op == "median" else REAL_DTYPES[1:] + ["complex64"])
    shape = draw.shape(draw.rank())
    ndim = len(shape)
    spec = drawn_array(draw, dtype, shape)
    style = draw.rng.integers(3)
    axes = None if style == 0 or ndim == 0 else [int(draw.rng.integers(-ndim, ndim))] if style == 1 else \
        sorted({int(a) for a in draw.rng.permutation(ndim)[:int(draw.rng.integers(1, ndim + 1))]})
    case.operands.append(spec.tokens())
    case.axes = ["all"] if axes is None else ["list", len(axes)] + axes
    case.keepdims = int(draw.chance(0.3))
    method = int(draw.rng.integers(len(QUANTILE_METHODS)))
    case.along = ["none", method]
    x = spec.array
    axis = None if axes is None else tuple(axes)
    # NumPy computes float16 itself; ml_dtypes' bfloat16 does not sort NaNs last: through float32.
    wide = x.astype(np.float32) if dtype == "bfloat16" else x
    reduced = size_of(shape) if axes is None else size_of([shape[a] for a in axes])
    if op != "median" and (is_complex(dtype) or reduced == 0):
        case.expect = ["error", "TypeError" if is_complex(dtype) else "IndexError"]
        return case
    with np.errstate(all="ignore"):
        if size_of(shape) == 0 and axes is not None and len(axes) > 1:
            return None  # NumPy cannot reshape an empty array with -1 there (its error, not a result)
        if op == "median":
            result = np.median(wide, axis=axis, keepdims=bool(case.keepdims))
            out = dtype if is_inexact(dtype) else "float64"
        else:
            q = np.array(QUANTILES) * (100 if op == "percentile" else 1)
            result = getattr(np, op)(wide, q, axis=axis, keepdims=bool(case.keepdims), method=QUANTILE_METHODS[method])
            out = np.asarray(result).dtype.name
            out = dtype if dtype == "bfloat16" and out == "float32" else out
    # Equal elements may be either zero (NumPy selects by partition, not a stable sort).
    tolerance = ["signed-zero"]
    if dtype == "bfloat16" and op != "median" and out == "float64":
        # b - a rounds to bfloat16 here and not in the float32 reference: a bound of that rounding.
        scale = float(np.nanmax(np.abs(wide[np.isfinite(wide)]))) if np.isfinite(wide).any() else 0.0
        tolerance = ["bound", np.full(np.shape(result), 2 * ulps("bfloat16") * scale)]
    case.expect = expect_array(cast(result, out), out, tolerance)
    return case


def statistics_case(draw, number):
    op = draw.pick(STATISTICS)
    if op in ("searchsorted", "digitize", "lexsort"):
        return search_case(draw, number, op)
    if op.startswith("unique"):
        return unique_case(draw, number, op)
    if op in ("median", "quantile", "percentile"):
        return order_statistic_case(draw, number, op)
    return counting_case(draw, number, op)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--no-fft", action="store_true", help="leave out numpy.fft's cases (xp::fft not built)")
    args = parser.parse_args()
    warnings.simplefilter("ignore")  # NumPy warns of what the cases are about: 0 / 0, empty means
    import creation_cases  # they import this file's helpers: loaded once they exist
    import indexing_cases
    import fft_cases
    import linalg_cases
    import manipulation_cases
    import random_cases
    import reduction_into_cases
    import reduction_routine_cases
    draw = Draw(args.seed)
    written = 0
    with open(args.out, "w") as out:
        out.write(f"# xparray differential cases, seed {args.seed}, NumPy {np.__version__}\n")
        while written < args.count:
            kind = draw.rng.random()
            maker = elementwise_case if kind < 0.38 else reduction_case if kind < 0.48 else \
                reduction_routine_cases.reduction_routine_case if kind < 0.55 else \
                reduction_into_cases.reduction_into_case if kind < 0.61 else \
                along_axis_case if kind < 0.69 else statistics_case if kind < 0.79 else \
                manipulation_cases.manipulation_case if kind < 0.845 else \
                linalg_cases.linalg_case if kind < 0.86 else \
                fft_cases.fft_case if kind < 0.875 else \
                creation_cases.creation_case if kind < 0.90 else random_cases.random_case if kind < 0.93 else \
                indexing_cases.indexing_case
            if args.no_fft and maker is fft_cases.fft_case:
                continue
            case = maker(draw, written)
            if case is None:
                continue
            case.write(out)
            written += 1
    print(f"generate.py: {written} cases, seed {args.seed}", file=sys.stderr)


if __name__ == "__main__":
    main()
