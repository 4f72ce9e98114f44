"""NumPy on ufunc_bench's measurements (same names with numpy_, same line format), for the ratios."""
import statistics

import numpy as np

from numpy_bench import rounds_argument, seconds_per_call

UNARY = ["floor", "rint", "sign", "square", "reciprocal", "deg2rad", "isnan", "signbit", "cbrt", "sinh", "arcsin",
         "arctanh", "exp2", "log2"]
BINARY = ["arctan2", "hypot"]
ON_B = {"reciprocal", "log2"}  # as ufunc_bench: away from 0


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    n = 1 << 24
    a = rng.uniform(-0.9, 0.9, n).astype(np.float32)
    b = rng.uniform(0.1, 2.0, n).astype(np.float32)
    c = np.zeros(n, np.float32)
    flags = np.zeros(n, np.bool_)
    measurements = []
    for name in UNARY:
        out = flags if name in ("isnan", "signbit") else c
        x = b if name in ON_B else a
        measurements.append((f"numpy_{name}", lambda f=getattr(np, name), x=x, out=out: f(x, out=out)))
    for name in BINARY:
        measurements.append((f"numpy_{name}", lambda f=getattr(np, name): f(a, b, out=c)))
    print("# threads numpy 1")
    samples = {name: [] for name, _ in measurements}
    for _ in range(rounds):
        for name, f in measurements:
            samples[name].append(seconds_per_call(8, f))
    for name, _ in measurements:
        print(f"{name} {n} {statistics.median(samples[name]):.9g}")


if __name__ == "__main__":
    main()
