"""Runs index_bench (on all threads, and again on one: its rows get _1thread) and numpy_index_bench
alternately over several rounds (the VM's memory bandwidth drifts: alternating spreads the drift over
both) and prints the indexing table with the ratios the targets are stated in: xparray against NumPy
(on all threads, and on one thread like NumPy's), a += b against the STREAM-like add of the same run,
and pick against the one-hot pick it replaced; a target not met is marked MISSED."""
import argparse
import os
import statistics
import sys
from collections import defaultdict

from bench_runs import run

TARGETS = [  # (row measured, row compared with, wanted ratio of the second's time to the first's)
    ("xp_gather_float32", "numpy_gather_float32", 1.5),
    ("xp_gather_float32_1thread", "numpy_gather_float32", None),
    ("xp_mask_float32", "numpy_mask_float32", 2.0),
    ("xp_mask_float32_1thread", "numpy_mask_float32", None),
    ("xp_mask_assign_float32", "numpy_mask_assign_float32", 2.0),
    ("xp_mask_assign_float32_1thread", "numpy_mask_assign_float32", None),
    ("xp_iadd_float32", "numpy_iadd_float32", None),
    ("xp_iadd_float32", "stream_add", 0.9),
    ("xp_pick_4096x1000", "xp_one_hot_pick_4096x1000", 10.0),
    ("xp_pick_4096x1000", "numpy_pick_4096x1000", None),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("index_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    samples, threads = defaultdict(list), {}
    one_thread = dict(os.environ, OMP_NUM_THREADS="1")
    numpy_bench = [sys.executable, os.path.join(os.path.dirname(__file__), "numpy_index_bench.py"), "--rounds", "3"]
    for _ in range(args.rounds):
        for figures in (run([args.index_bench, "--rounds", "3"], threads),
                        run([args.index_bench, "--rounds", "3"], {}, "_1thread", one_thread),
                        run(numpy_bench, threads)):
            for name, seconds in figures.items():
                samples[name].append(seconds)
    t = {name: statistics.median(values) for name, values in samples.items()}
    print(f"Indexing at the issue's sizes (medians of {args.rounds} alternating runs); threads: xparray "
          f"{threads.get('xparray')}, STREAM add {threads.get('stream')}, NumPy {threads.get('numpy')}")
    print(f"{'measurement':34} {'against':28} {'ms':>8} {'their ms':>9} {'ratio':>7} {'target':>7}")
    for ours, theirs, wanted in TARGETS:
        ratio = t[theirs] / t[ours]
        verdict = "" if wanted is None or ratio >= wanted else "  MISSED"
        target = "-" if wanted is None else f"{wanted:.2f}"
        print(f"{ours:34} {theirs:28} {1e3 * t[ours]:8.2f} {1e3 * t[theirs]:9.2f} {ratio:7.2f} {target:>7}{verdict}")


if __name__ == "__main__":
    main()
