"""NumPy's `@` on the measurements of gemm_bench (same names with numpy_ for xp_, same line format),
for the ratios."""
import argparse
import statistics

import numpy as np

from numpy_bench import seconds_per_call


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    rng = np.random.default_rng(1)
    measurements = []  # (name, n, calls, function)
    for dtype, letter in ((np.float32, "s"), (np.float64, "d")):
        for n in (64, 256, 1024, 2048):
            a = rng.uniform(-1, 1, (n, n)).astype(dtype)
            b = rng.uniform(-1, 1, (n, n)).astype(dtype)
            c = np.empty((n, n), dtype)
            calls = max(1, int(20e-3 * 50e9 / (2.0 * n**3)))
            measurements.append((f"numpy_{letter}gemm", n, calls, lambda a=a, b=b, c=c: np.matmul(a, b, out=c)))
    s8a, s8b = (rng.uniform(-1, 1, (4096, 8, 8)).astype(np.float32) for _ in range(2))
    s64a, s64b = (rng.uniform(-1, 1, (512, 64, 64)).astype(np.float32) for _ in range(2))
    x, y = (rng.uniform(-1, 1, (4, 4)).astype(np.float32) for _ in range(2))
    measurements += [
        ("numpy_stack_4096x8x8", 4096, 20, lambda: s8a @ s8b),
        ("numpy_stack_512x64x64", 512, 5, lambda: s64a @ s64b),
        ("numpy_matmul_4x4", 4, 20000, lambda: x @ y),
    ]
    for _, _, _, f in measurements:
        f()
    samples = {(name, n): [] for name, n, *_ in measurements}
    for _ in range(rounds):
        for name, n, calls, f in measurements:
            samples[(name, n)].append(seconds_per_call(calls, f))
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    print(f"# NumPy {np.__version__} on {blas.get('name')} {blas.get('version')}")
    for name, n, _, _ in measurements:
        print(f"{name} {n} {statistics.median(samples[(name, n)]):.9g}")


if __name__ == "__main__":
    main()
