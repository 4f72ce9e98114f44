"""Runs linalg_bench and numpy_linalg_bench alternately over several rounds, both on the machine's threads
(OMP_NUM_THREADS and OPENBLAS_NUM_THREADS set alike), and prints the table with the issue's ratios:
NumPy's time over xparray's, and einsum's against the matmul of the same batch; a target not met is
marked MISSED."""
import argparse
import os
import sys

from bench_runs import alternate

TARGETS = [  # (measurement, wanted ratio of NumPy's time to xparray's)
    ("solve_1024_float64", 0.95),
    ("svd_512_float64", 0.9),
    ("eigh_4096x8x8_float32", 2.0),
    ("einsum_bij_bjk_float32", None),
    ("matmul_bij_bjk_float32", None),
]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("linalg_bench")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    threads_wanted = str(os.cpu_count())
    env = dict(os.environ, OMP_NUM_THREADS=threads_wanted, OPENBLAS_NUM_THREADS=threads_wanted)
    numpy_bench = os.path.join(os.path.dirname(__file__), "numpy_linalg_bench.py")
    commands = ([args.linalg_bench, "--rounds", "3"], [sys.executable, numpy_bench, "--rounds", "3"])
    t, threads = alternate(commands, args.rounds, env)
    print(f"Solvers and einsum (medians of {args.rounds} alternating runs); threads: NumPy {threads.get('numpy')}, "
          f"xparray {threads.get('xparray')}")
    print(f"{'measurement':26} {'NumPy ms':>9} {'xp ms':>9} {'ratio':>7} {'target':>7}")
    for name, wanted in TARGETS:
        numpy, ours = t["numpy_" + name], t["xp_" + name]
        verdict = "" if wanted is None or numpy / ours >= wanted else "  MISSED"
        print(f"{name:26} {1e3 * numpy:9.2f} {1e3 * ours:9.2f} {numpy / ours:7.2f} {wanted or '':>7}{verdict}")
    einsum, matmul = t["xp_einsum_bij_bjk_float32"], t["xp_matmul_bij_bjk_float32"]
    verdict = "" if matmul / einsum >= 0.95 else "  MISSED"
    print(f"{'einsum / matmul (xparray)':26} {'':9} {'':9} {matmul / einsum:7.2f} {0.95:>7}{verdict}")


if __name__ == "__main__":
    main()
