"""Runs sort_bench and numpy_sort_bench alternately over several rounds (the VM's memory bandwidth
drifts: alternating spreads the drift over both) and prints the sorting table with the ratios the
targets are stated in: xparray against NumPy, and cumsum against the STREAM-like copy of the same run;
a target not met is marked MISSED."""
import argparse
import os
import statistics
import sys
from collections import defaultdict

from bench_runs import run

TARGETS = [  # (xparray row, NumPy row, wanted ratio of NumPy's time to xparray's)
    ("xp_sort_float32", "numpy_sort_float32", 1.5),
    ("xp_argsort_float32", "numpy_argsort_float32", 1.5),
    ("xp_sort_int32", "numpy_sort_int32", 1.5),
    ("xp_cumsum_float32", "numpy_cumsum_float32", 2.0),
    ("xp_unique_int32", "numpy_unique_int32", 1.5),
    ("xp_searchsorted_float64", "numpy_searchsorted_float64", 1.5),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("sort_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    samples, threads = defaultdict(list), {}
    for _ in range(args.rounds):
        for command in ([args.sort_bench, "--rounds", "3"],
                        [sys.executable, os.path.join(os.path.dirname(__file__), "numpy_sort_bench.py"), "--rounds", "3"]):
            for name, seconds in run(command, threads).items():
                samples[name].append(seconds)
    t = {name: statistics.median(values) for name, values in samples.items()}
    print(f"Sorting, scans and searches at their issue sizes (medians of {args.rounds} alternating runs); "
          f"threads: xparray {threads.get('xparray')}, STREAM copy {threads.get('stream')}, NumPy {threads.get('numpy')}")
    print(f"{'measurement':28} {'xparray ms':>11} {'NumPy ms':>10} {'ratio':>7} {'target':>7}")
    for ours, theirs, wanted in TARGETS:
        ratio = t[theirs] / t[ours]
        print(f"{ours:28} {1e3 * t[ours]:11.2f} {1e3 * t[theirs]:10.2f} {ratio:7.2f} {wanted:7.2f}{'' if ratio >= wanted else '  MISSED'}")
    ceiling = t["stream_copy"] / t["xp_cumsum_float32"]
    print(f"{'cumsum / STREAM copy':28} {1e3 * t['xp_cumsum_float32']:11.2f} {1e3 * t['stream_copy']:10.2f} "
          f"{ceiling:7.2f} {0.7:7.2f}{'' if ceiling >= 0.7 else '  MISSED'}")


if __name__ == "__main__":
    main()
