"""NumPy's Generator on random_bench's measurements (same names with numpy_, same line format). Where
NumPy takes an output array (standard_normal, random) it is given one, like xparray's pooled output;
integers, permutation and gamma make a fresh array per call, as a NumPy user gets them."""
import statistics

import numpy as np

from numpy_bench import rounds_argument, seconds_per_call


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    large, medium = 1 << 24, 1 << 22
    out32 = np.empty(large, dtype=np.float32)
    measurements = [  # (name, elements, bytes per element, calls, function)
        ("numpy_standard_normal_float32", large, 4, 2, lambda: rng.standard_normal(large, dtype=np.float32, out=out32)),
        ("numpy_random_float32", large, 4, 2, lambda: rng.random(large, dtype=np.float32, out=out32)),
        ("numpy_integers_int32", large, 4, 2, lambda: rng.integers(0, 1000, large, dtype=np.int32)),
        ("numpy_permutation", medium, 8, 1, lambda: rng.permutation(medium)),
        ("numpy_gamma2_float64", medium, 8, 1, lambda: rng.gamma(2.0, 1.0, medium)),
    ]
    print("# threads numpy 1")
    samples = {name: [] for name, *_ in measurements}
    for _ in range(rounds):
        for name, _, _, calls, f in measurements:
            samples[name].append(seconds_per_call(calls, f))
    for name, n, item, _, _ in measurements:
        seconds = statistics.median(samples[name])
        print(f"{name} {n} {seconds:.9g} {n * item / seconds / 1e9:.3f}")


if __name__ == "__main__":
    main()
