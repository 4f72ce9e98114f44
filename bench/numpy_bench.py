"""NumPy on the same measurements as array_bench (same names and line format), for the ratios."""
import argparse
import statistics
import time

import numpy as np


def seconds_per_call(calls, f):
    start = time.perf_counter()
    for _ in range(calls):
        f()
    return (time.perf_counter() - start) / calls


def print_medians(measurements, rounds):
    """Times each (name, elements, calls, function) `rounds` times, interleaved, and prints one line per
    measurement in the C++ programs' format: name, elements, the median seconds per call."""
    samples = {name: [] for name, *_ in measurements}
    for _ in range(rounds):
        for name, _, calls, f in measurements:
            samples[name].append(seconds_per_call(calls, f))
    for name, n, _, _ in measurements:
        print(f"{name} {n} {statistics.median(samples[name]):.9g} 0")


def rounds_argument(default):
    """The --rounds N of the command line, else `default`."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=default)
    return parser.parse_args().rounds


def main():
    rounds = rounds_argument(11)
    rng = np.random.default_rng(1)
    measurements = []  # (name, elements, bytes, calls, function)
    for n in (1 << k for k in (14, 16, 18, 20, 22, 24)):  # as array_bench
        x = rng.random(n, dtype=np.float32)
        y = rng.random(n, dtype=np.float32)
        z = np.zeros(n, dtype=np.float32)
        calls = max(4, (1 << 26) // n)
        f = 4.0 * n
        measurements += [
            ("numpy_copy", n, 2 * f, calls, lambda x=x, z=z: np.copyto(z, x)),
            ("numpy_add", n, 3 * f, calls, lambda x=x, y=y, z=z: np.add(x, y, out=z)),
            ("numpy_sqdiff", n, 3 * f, calls, lambda x=x, y=y: (x - y) ** 2),
            # Like for like with xparray's pooled output: no fresh temporary per call (at 2^24 the one
            # above is a 64 MiB mmap, page faults and zeroing included).
            ("numpy_sqdiff_out", n, 3 * f, calls,
             lambda x=x, y=y, t=np.empty_like(x): (np.subtract(x, y, out=t), np.square(t, out=t))),
            ("numpy_sum", n, f, calls, lambda x=x: x.sum()),
        ]
        # (x-y)^2 as two ufuncs into existing float16 arrays: array_bench's xp_sqdiff_ops_float16.
        hx, hy, hd, hr = x.astype(np.float16), y.astype(np.float16), np.empty(n, np.float16), np.empty(n, np.float16)
        measurements.append(("numpy_sqdiff_ops_float16", n, 6 * 2.0 * n, calls,
                             lambda hx=hx, hy=hy, hd=hd, hr=hr: (np.subtract(hx, hy, out=hd),
                                                                 np.multiply(hd, hd, out=hr))))
    m = rng.random((4096, 4096), dtype=np.float32)
    mb = 4.0 * 4096 * 4096
    measurements += [
        ("numpy_sum_all_4096x4096", 4096 * 4096, mb, 4, lambda: m.sum()),
        ("numpy_sum_axis1_4096x4096", 4096 * 4096, mb, 4, lambda: m.sum(axis=1)),
        ("numpy_sum_axis0_4096x4096", 4096 * 4096, mb, 4, lambda: m.sum(axis=0)),
    ]
    a, b, c = np.ones(8, np.float32), np.ones(8, np.float32), np.zeros(8, np.float32)
    measurements.append(("numpy_add_out_n8", 8, 0, 20000, lambda: np.add(a, b, out=c)))

    # NumPy's elementwise operations and reductions run on the calling thread (its BLAS alone has threads).
    print("# threads numpy 1")
    samples = {(name, elements): [] for name, elements, *_ in measurements}
    for _ in range(rounds):
        for name, elements, _, calls, f in measurements:
            samples[(name, elements)].append(seconds_per_call(calls, f))
    for name, elements, size, _, _ in measurements:
        seconds = statistics.median(samples[(name, elements)])
        print(f"{name} {elements} {seconds:.9g} {size / seconds / 1e9:.3f}")


if __name__ == "__main__":
    main()
