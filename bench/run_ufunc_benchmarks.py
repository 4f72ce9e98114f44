"""Runs ufunc_bench (on every core, then on one) and numpy_ufunc_bench alternately over several rounds and
prints the ratios the targets are stated in: a memory-bound function against the STREAM-like copy of the
same run at the same thread count (>= 0.9), a compute-bound one on one thread against NumPy, which has
one (>= 2); every function against NumPy besides. A target not met is marked MISSED."""
import argparse
import os
import statistics
import sys
from collections import defaultdict

from bench_runs import run

MEMORY_BOUND = ["floor", "rint", "sign", "square", "reciprocal", "deg2rad", "isnan", "signbit"]
COMPUTE_BOUND = ["cbrt", "sinh", "arcsin", "arctanh", "exp2", "log2", "arctan2", "hypot"]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("ufunc_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    samples, threads, single = defaultdict(list), {}, {}
    numpy_bench = [sys.executable, os.path.join(os.path.dirname(__file__), "numpy_ufunc_bench.py"), "--rounds", "3"]
    ours = [args.ufunc_bench, "--rounds", "3"]
    one_thread = dict(os.environ, OMP_NUM_THREADS="1")
    for _ in range(args.rounds):
        for figures in (run(ours, threads), run(ours, single, "@1", one_thread), run(numpy_bench, threads)):
            for name, seconds in figures.items():
                samples[name].append(seconds)
    t = {name: statistics.median(values) for name, values in samples.items()}
    print(f"Ufuncs at 2^24 float32 into a preallocated output (medians of {args.rounds} alternating runs); "
          f"threads: xparray {threads.get('xparray')} and {single.get('xparray')}, "
          f"STREAM copy {threads.get('stream')}, NumPy {threads.get('numpy')}")
    print(f"{'function':12} {'ms':>8} {'copy ms':>8} {'vs copy':>8} {'1-thr ms':>9} {'NumPy ms':>9} "
          f"{'vs NumPy':>9} {'1-thr vs':>9} {'target':>20}")
    for name in MEMORY_BOUND + COMPUTE_BOUND:
        mine, mine_alone = t[f"xp_{name}"], t[f"xp_{name}@1"]
        copy, numpy = t["stream_copy"], t[f"numpy_{name}"]
        bound = name in MEMORY_BOUND
        ratio = copy / mine if bound else numpy / mine_alone
        wanted = 0.9 if bound else 2.0
        verdict = "" if ratio >= wanted else "  MISSED"
        target = "copy >= 0.9" if bound else "NumPy, 1 thread >= 2"
        print(f"{name:12} {1e3 * mine:8.2f} {1e3 * copy:8.2f} {copy / mine:8.2f} {1e3 * mine_alone:9.2f} "
              f"{1e3 * numpy:9.2f} {numpy / mine:9.2f} {numpy / mine_alone:9.2f} {target:>20}{verdict}")


if __name__ == "__main__":
    main()
