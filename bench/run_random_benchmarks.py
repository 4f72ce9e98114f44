"""Runs random_bench (on one thread, and on the machine's threads) and numpy_random_bench alternately over
several rounds and prints the random-numbers table with the ratios the targets are stated in: xparray
against NumPy's Generator, both on one thread (like for like), and on all threads as a second column;
a target not met on one thread is marked MISSED."""
import argparse
import os
import statistics
import sys
from collections import defaultdict

from bench_runs import run

TARGETS = [  # (measurement, wanted ratio of NumPy's time to xparray's)
    ("standard_normal_float32", 2.0),
    ("integers_int32", 2.0),
    ("permutation", 1.5),
    ("gamma2_float64", 1.5),
    ("random_float32", None),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("random_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    samples, threads, one_thread = defaultdict(list), {}, {}
    single = dict(os.environ, OMP_NUM_THREADS="1")
    numpy_bench = os.path.join(os.path.dirname(__file__), "numpy_random_bench.py")
    for _ in range(args.rounds):
        for name, seconds in run([args.random_bench, "--rounds", "3"], one_thread, "@1", single).items():
            samples[name].append(seconds)
        for command in ([args.random_bench, "--rounds", "3"], [sys.executable, numpy_bench, "--rounds", "3"]):
            for name, seconds in run(command, threads).items():
                samples[name].append(seconds)
    t = {name: statistics.median(values) for name, values in samples.items()}
    print(f"Random numbers (medians of {args.rounds} alternating runs); threads: NumPy {threads.get('numpy')}, "
          f"xparray {one_thread.get('xparray')} and {threads.get('xparray')}")
    print(f"{'measurement':26} {'NumPy ms':>9} {'xp ms @1':>9} {'ratio @1':>9} {'xp ms':>7} {'ratio':>6} {'target':>7}")
    for name, wanted in TARGETS:
        numpy, one, all_threads = t["numpy_" + name], t["xp_" + name + "@1"], t["xp_" + name]
        verdict = "" if wanted is None or numpy / one >= wanted else "  MISSED"
        print(f"{name:26} {1e3 * numpy:9.1f} {1e3 * one:9.1f} {numpy / one:9.2f} {1e3 * all_threads:7.1f} "
              f"{numpy / all_threads:6.2f} {wanted or '':>7}{verdict}")
    print(f"{'STREAM-like fill, 4 B':26} {'':9} {1e3 * t['stream_fill@1']:9.1f} {'':9} {1e3 * t['stream_fill']:7.1f}")


if __name__ == "__main__":
    main()
