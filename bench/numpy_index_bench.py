"""NumPy on index_bench's measurements (same names with numpy_, same line format), for the ratios."""
import statistics

import numpy as np

from numpy_bench import rounds_argument, seconds_per_call


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    n = 1 << 24
    a = rng.random(n, dtype=np.float32)
    b = rng.random(n, dtype=np.float32)
    c = np.zeros(n, dtype=np.float32)
    target = rng.random(n, dtype=np.float32)
    positions = rng.integers(0, n, n, dtype=np.int64)
    mask = a < 0.5
    rows = rng.random((4096, 1000), dtype=np.float32)
    picks = (rng.random(4096) * 999.5).astype(np.int64)
    everywhere = np.arange(4096)

    def mask_assign():
        target[mask] = 0

    def iadd():
        np.add(c, b, out=c)  # c += b

    measurements = [  # (name, elements, calls, function)
        ("numpy_gather_float32", n, 2, lambda: a[positions]),
        ("numpy_mask_float32", n, 4, lambda: a[mask]),
        ("numpy_mask_assign_float32", n, 8, mask_assign),
        ("numpy_iadd_float32", n, 8, iadd),
        ("numpy_pick_4096x1000", 4096, 64, lambda: rows[everywhere, picks]),
    ]
    print("# threads numpy 1")
    samples = {name: [] for name, *_ in measurements}
    for _ in range(rounds):
        for name, _, calls, f in measurements:
            samples[name].append(seconds_per_call(calls, f))
    for name, elements, _, _ in measurements:
        print(f"{name} {elements} {statistics.median(samples[name]):.9g}")


if __name__ == "__main__":
    main()
