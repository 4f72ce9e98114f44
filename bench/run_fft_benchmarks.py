"""Runs fft_bench and numpy_fft_bench alternately over several rounds (xparray on the machine's threads,
NumPy's pocketfft on one, as it runs) and prints the table with the issue's ratios, NumPy's time over
xparray's; a target not met is marked MISSED. Like with like: the same dtypes and lengths, each call
allocating its result."""
import argparse
import os
import sys

from bench_runs import alternate

TARGETS = [  # (measurement, wanted ratio of NumPy's time to xparray's)
    ("fft_2^20_complex64", 1.5),
    ("rfft_2^22_float32", 1.5),
    ("fft_10007_complex128", 1.0),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("fft_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    env = dict(os.environ, OMP_NUM_THREADS=str(os.cpu_count()))
    numpy_bench = os.path.join(os.path.dirname(__file__), "numpy_fft_bench.py")
    commands = ([args.fft_bench, "--rounds", "5"], [sys.executable, numpy_bench, "--rounds", "5"])
    t, threads = alternate(commands, args.rounds, env)
    print(f"FFT (medians of {args.rounds} alternating runs); threads: NumPy {threads.get('numpy')}, "
          f"xparray {threads.get('xparray')}")
    print(f"{'measurement':24} {'NumPy ms':>9} {'xp ms':>9} {'ratio':>7} {'target':>7}")
    for name, wanted in TARGETS:
        numpy, ours = t["numpy_" + name], t["xp_" + name]
        verdict = "" if numpy / ours >= wanted else "  MISSED"
        print(f"{name:24} {1e3 * numpy:9.3f} {1e3 * ours:9.3f} {numpy / ours:7.2f} {wanted:>7}{verdict}")


if __name__ == "__main__":
    main()
