"""The random cases of the NumPy differential test (generate.py draws them among the others).

Random numbers differ from NumPy's (another generator), so these cases are where the Generator's methods
must agree with NumPy's anyway: parameters at which a distribution has one value (uniform(a, a),
normal(loc, 0), exponential(0), gamma(0, scale), binomial(n, 0 or 1), poisson(0), geometric(1),
integers(k, k + 1), choice with a one-hot p) and parameters NumPy refuses (its ValueError). The numbers
line holds the parameters, the shape line the size, the dtype line the real dtype; NumPy's
default_rng(0) computes the expected result or error.
"""
import numpy as np

from generate import Case, expect_array

OPS = ["rng_uniform", "rng_normal", "rng_exponential", "rng_gamma", "rng_binomial", "rng_poisson",
       "rng_geometric", "rng_integers", "rng_choice"]
VALUES = [0.0, 1.0, -2.5, 7.0, 1e6]


def parameters(draw, op):
    """The op's parameters: mostly the degenerate ones, sometimes ones NumPy refuses."""
    value = float(draw.pick(VALUES))
    refused = draw.chance(0.3)
    if op == "rng_uniform":
        return [value, float("inf") if refused else value]
    if op in ("rng_normal", "rng_exponential"):
        scale = -1.5 if refused else 0.0
        return [value, scale] if op == "rng_normal" else [scale]
    if op == "rng_gamma":
        return [-1.0, 2.0] if refused else [0.0, abs(value)] if draw.chance(0.5) else [0.0, -1.0]
    if op == "rng_binomial":
        n = int(draw.pick([0, 1, 5, 1000]))
        return [n, draw.pick([-0.5, 1.5])] if refused else [-n - 1, 0.5] if draw.chance(0.1) else [n, draw.pick([0.0, 1.0])]
    if op == "rng_poisson":
        return [-3.0 if refused else 0.0]
    if op == "rng_geometric":
        return [draw.pick([0.0, -0.5, 1.5]) if refused else 1.0]
    if op == "rng_integers":
        low = int(draw.pick([0, -7, 100, 2**40]))
        return [low, low if refused else low + 1]
    n = int(draw.pick([1, 3, 10]))  # rng_choice: n, the one index p picks, and whether p sums to 1
    return [n, int(draw.rng.integers(0, n)), 0 if refused else 1]


def numpy_result(op, p, size, dtype):
    rng = np.random.default_rng(0)
    if op == "rng_uniform":
        return rng.uniform(p[0], p[1], size).astype(dtype)
    if op == "rng_normal":
        return rng.normal(p[0], p[1], size).astype(dtype)
    if op == "rng_exponential":
        return rng.exponential(p[0], size).astype(dtype)
    if op == "rng_gamma":
        return rng.gamma(p[0], p[1], size).astype(dtype)
    if op == "rng_binomial":
        return rng.binomial(int(p[0]), p[1], size)
    if op == "rng_poisson":
        return rng.poisson(p[0], size)
    if op == "rng_geometric":
        return rng.geometric(p[0], size)
    if op == "rng_integers":
        return rng.integers(int(p[0]), int(p[1]), size)
    n, pick, sums = int(p[0]), int(p[1]), p[2]
    probabilities = np.zeros(n)
    probabilities[pick] = 1.0 if sums else 0.5
    return rng.choice(n, size, True, probabilities)


def random_case(draw, number):
    op = draw.pick(OPS)
    case = Case(number, op)
    case.numbers = parameters(draw, op)
    case.shape = draw.shape(int(draw.pick([0, 1, 2])))
    case.dtype = draw.pick(["float32", "float64"])
    case.along = ["none", 0]
    try:
        result = numpy_result(op, case.numbers, tuple(case.shape), case.dtype)
    except (ValueError, OverflowError):  # OverflowError: uniform's infinite range, a ValueError here
        case.expect = ["error", "ValueError"]
        return case
    result = np.asarray(result)
    case.expect = expect_array(result, str(result.dtype), ["exact"])
    return case
