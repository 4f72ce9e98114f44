"""NumPy on sort_bench's measurements (same names with numpy_, same line format), for the ratios."""
import statistics

import numpy as np

from numpy_bench import rounds_argument, seconds_per_call


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    n = 1 << 24
    x = rng.random(n, dtype=np.float32)
    integers = rng.integers(-(1 << 31), (1 << 31) - 1, n, dtype=np.int32)
    out = np.empty_like(x)
    repeated = rng.integers(0, 1 << 16, 1 << 22, dtype=np.int32)
    sorted_values = np.sort(rng.random(1 << 20))
    queries = rng.random(1 << 20)
    measurements = [  # (name, array, calls, function)
        ("numpy_sort_float32", x, 2, lambda: np.sort(x)),
        ("numpy_argsort_float32", x, 1, lambda: np.argsort(x, kind="stable")),
        ("numpy_sort_int32", integers, 2, lambda: np.sort(integers)),
        # Into an existing array, like xparray's pooled output (no fresh 64 MiB mmap per call).
        ("numpy_cumsum_float32", x, 8, lambda: np.cumsum(x, out=out)),
        ("numpy_unique_int32", repeated, 2, lambda: np.unique(repeated)),
        ("numpy_searchsorted_float64", queries, 2, lambda: np.searchsorted(sorted_values, queries)),
    ]
    print("# threads numpy 1")
    samples = {name: [] for name, *_ in measurements}
    for _ in range(rounds):
        for name, _, calls, f in measurements:
            samples[name].append(seconds_per_call(calls, f))
    for name, array, _, _ in measurements:
        seconds = statistics.median(samples[name])
        print(f"{name} {array.size} {seconds:.9g} {2 * array.nbytes / seconds / 1e9:.3f}")


if __name__ == "__main__":
    main()
