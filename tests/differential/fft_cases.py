"""The numpy.fft cases of the NumPy differential test (generate.py draws them among the others).

Each is one function of <xp/fft.hpp> on a small array of uniform values (any dtype NumPy transforms),
along one axis with a length that crops, pads or keeps it (primes among them), or over some axes with
lengths; a norm. The "along" line holds the axis and n (-1: none), the "numbers" line the norm's index
(NORMS) and fftfreq's spacing, the "shape" line the n-dimensional lengths, the "axes" line their axes.
Within a bound of an FFT's accuracy: 20 units of the result's last place times the points transformed,
on the largest magnitude of the input or the result (and for float16 input, whose norm factor NumPy
rounds to float16, a thousandth of the value).
"""
import numpy as np

from generate import ArraySpec, Case, expect_array, finfo, is_complex

ONE_AXIS = ["fft_fft", "fft_ifft", "fft_rfft", "fft_irfft", "fft_hfft", "fft_ihfft"]
MANY_AXES = ["fft_fftn", "fft_ifftn", "fft_rfftn", "fft_irfftn", "fft_fft2"]
OTHERS = ["fft_fftfreq", "fft_rfftfreq", "fft_fftshift", "fft_ifftshift"]
FFT_DTYPES = ["float32", "float64", "complex64", "complex128", "int32", "int8", "bool", "float16"]
NORMS = ["backward", "ortho", "forward"]  # the runner's kFftNorms


def values(draw, dtype, shape):
    rng = draw.rng
    x = rng.uniform(-2, 2, shape)
    if is_complex(dtype):
        x = x + 1j * rng.uniform(-2, 2, shape)
    if dtype == "bool":
        return x > 0
    if dtype in ("int32", "int8"):
        return np.round(20 * x).astype(dtype)
    return x.astype(dtype)


def numpy_result(op, a, axis, n, s, axes, norm, d):
    f = np.fft
    if op in ONE_AXIS:
        return getattr(f, op[4:])(a, n, axis, norm)
    if op == "fft_fft2":
        return f.fft2(a, s, axes if axes is not None else (-2, -1), norm)
    if op in MANY_AXES:
        return getattr(f, op[4:])(a, s, axes, norm)
    if op in ("fft_fftfreq", "fft_rfftfreq"):
        return getattr(f, op[4:])(n, d)
    return getattr(f, op[4:])(a, axes)


def transformed_points(op, shape, axis, n, s, axes):
    """How many points each output element sums (its error grows with them)."""
    if op in ONE_AXIS:
        return max(n if n is not None else shape[axis], 1) * 2
    if op in MANY_AXES:
        lengths = s if s is not None else [shape[k] for k in (axes if axes is not None else range(len(shape)))]
        return max(int(np.prod(lengths)), 1) * 2
    return 1


def draw_arguments(draw, op, ndim):
    """axis, n, s, axes for `op` on an array of ndim axes (bad ones now and then: NumPy's errors)."""
    rng = draw.rng
    axis = int(rng.integers(-ndim, ndim)) if ndim else -1
    n = None if draw.chance(0.4) else int(rng.integers(0 if draw.chance(0.05) else 1, 18))
    s, axes = None, None
    if op in MANY_AXES or op in ("fft_fftshift", "fft_ifftshift"):
        if ndim and draw.chance(0.6):
            count = int(rng.integers(1, ndim + 1))
            axes = [int(k) for k in rng.permutation(ndim)[:count]]
            if op in MANY_AXES and draw.chance(0.5):
                s = [int(rng.integers(1, 9)) for _ in axes]
        if op == "fft_fft2" and axes is None:
            axes = [-2, -1]
    return axis, n, s, axes


def fft_case(draw, number):
    op = draw.pick(ONE_AXIS + MANY_AXES + OTHERS)
    dtype = draw.pick(FFT_DTYPES)
    if op in ("fft_rfft", "fft_ihfft", "fft_rfftn") and is_complex(dtype):
        dtype = draw.pick(["complex64", "float64", "float32"])  # complex input: a TypeError now and then
    ndim = int(draw.pick([1, 1, 2, 3])) if op != "fft_fft2" else int(draw.pick([2, 3]))
    shape = [int(d) for d in draw.rng.integers(1, 7, ndim)]
    case = Case(number, op)
    axis, n, s, axes = draw_arguments(draw, op, ndim)
    norm_index = int(draw.rng.integers(len(NORMS)))
    d = float(draw.pick([1.0, 0.5, 3.0]))
    a = values(draw, dtype, shape)
    if op not in ("fft_fftfreq", "fft_rfftfreq"):
        spec = ArraySpec(dtype, shape, np.asarray(a).ravel())
        case.operands = [spec.tokens()]
    elif n is None:
        n = int(draw.rng.integers(1, 12))
    case.along = [axis, -1 if n is None else n]
    case.numbers = [norm_index, d]
    if s is not None:
        case.shape = s
    if axes is not None:
        case.axes = ["list", len(axes)] + axes
    try:
        result = np.asarray(numpy_result(op, a, axis, n, s, axes, NORMS[norm_index], d))
    except (ValueError, TypeError, IndexError, ZeroDivisionError) as error:  # fftfreq(0): the library's ValueError
        case.expect = ["error", "TypeError" if isinstance(error, TypeError) else "ValueError"]
        return case
    if op in ("fft_fftshift", "fft_ifftshift"):
        case.expect = expect_array(result, result.dtype.name, ["exact"])
        return case
    eps = float(finfo(result.dtype.name).eps)
    points = transformed_points(op, shape, axis, n, s, axes)
    scale = max(float(np.max(np.abs(result))) if result.size else 0.0, float(np.max(np.abs(a))) if a.size else 0.0)
    bound = 20 * eps * points * scale + 1e-30
    if dtype == "float16":  # NumPy rounds a norm's factor to the input's float16
        bound = bound + 1e-3 * np.abs(result)
    case.expect = expect_array(result, result.dtype.name, ["bound", bound])
    return case
