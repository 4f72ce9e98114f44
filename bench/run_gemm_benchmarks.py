"""Runs the matrix-product benchmark (bench/gemm_bench.cpp) and NumPy's (bench/numpy_gemm_bench.py)
alternately over several rounds, then prints one table: GFLOP/s with the ratios to the direct CBLAS
call on the same buffers and to the FMA peak (both measured in the same process as xparray), and to
NumPy; then the stacks and the 4x4 call against NumPy, and the targets."""
import argparse
import os
import sys

from alternate import medians

OPENBLAS_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE",
                      "OPENBLAS_VERBOSE")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gemm_bench")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--plot", metavar="DIR", help="also write the GFLOP/s-vs-size chart there")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    t, comments = medians([[args.gemm_bench, "--rounds", "5"],
                           [sys.executable, os.path.join(here, "numpy_gemm_bench.py"), "--rounds", "5"]], args.rounds)
    peak = {kind: n / t[(name, n)] / 1e9 for (name, n) in t for kind in ("f32", "f64") if name == f"fma_peak_{kind}"}

    print(f"matrix products on the CPU (medians of {args.rounds} alternating runs of each program)")
    for comment in sorted(comments):
        print(f"  {comment}")
    print("  environment: " + ", ".join(f"{v}={os.environ.get(v, 'unset')}" for v in OPENBLAS_VARIABLES))
    print(f"  FMA peak measured here: float32 {peak['f32']:.1f} GFLOP/s, float64 {peak['f64']:.1f} GFLOP/s")
    print(f"{'':>8} {'n':>5} {'xp GFLOP/s':>11} {'of CBLAS':>9} {'x NumPy':>8} {'of peak':>8} {'CBLAS GFLOP/s':>14} "
          f"{'NumPy GFLOP/s':>14}")
    targets = []
    for letter, kind, label in (("s", "f32", "sgemm"), ("d", "f64", "dgemm")):
        for n in (64, 256, 1024, 2048):
            flops = 2.0 * n**3
            xp, cblas, numpy = (flops / t[(f"{who}_{letter}gemm", n)] / 1e9 for who in ("xp", "cblas", "numpy"))
            print(f"{label:>8} {n:5d} {xp:11.1f} {xp / cblas:9.2f} {xp / numpy:8.2f} {xp / peak[kind]:8.2f} "
                  f"{cblas:14.1f} {numpy:14.1f}")
            if n >= 1024:
                targets.append((f"{label} {n} >= 0.95x direct CBLAS", xp / cblas >= 0.95))
    for n in (256, 1024):  # complex64: 8 n^3 real operations a product
        xp, cblas = (8.0 * n**3 / t[(f"{who}_cgemm", n)] / 1e9 for who in ("xp", "cblas"))
        print(f"{'cgemm':>8} {n:5d} {xp:11.1f} {xp / cblas:9.2f} {'':>8} {xp / peak['f32']:8.2f} {cblas:14.1f}")
        if n == 1024:
            targets.append(("complex64 matmul 1024 >= 0.95x direct cblas_cgemm", xp / cblas >= 0.95))
    for n in (256, 1024):  # 2-byte floats: float32 products over converted operands, against sgemm's
        cblas = 2.0 * n**3 / t[("cblas_sgemm", n)] / 1e9
        for dtype in ("float16", "bfloat16"):
            xp = 2.0 * n**3 / t[(f"xp_{dtype}_gemm", n)] / 1e9
            print(f"{dtype:>8} {n:5d} {xp:11.1f} {xp / cblas:9.2f} {'':>8} {xp / peak['f32']:8.2f} {cblas:14.1f}"
                  "  (CBLAS: sgemm)")
            if n == 1024:
                targets.append((f"{dtype} matmul 1024 >= 0.8x direct cblas_sgemm", xp / cblas >= 0.8))
    threads = next((c.split("OpenMP threads ")[1] for c in comments if "OpenMP threads" in c), "?")
    print(f"\n{'float32':<44} {'xparray':>11} {'NumPy':>11} {'x NumPy':>8}")
    for name, n, label, target in (
            ("stack_4096x8x8", 4096, f"stack of 4096 8x8 (xp {threads} threads, NumPy 1)", 2),
            ("stack_512x64x64", 512, f"stack of 512 64x64 (xp {threads} threads, NumPy 1)", 2),
            ("matmul_4x4", 4, "one 4x4 product: a C++ call, a CPython call", 3)):
        xp, numpy = t[(f"xp_{name}", n)], t[(f"numpy_{name}", n)]
        unit, scale = ("us", 1e6) if xp > 1e-5 else ("ns", 1e9)
        print(f"{label:<44} {xp * scale:8.1f} {unit} {numpy * scale:8.1f} {unit} {numpy / xp:8.2f}")
        targets.append((f"{label} >= {target}x NumPy", numpy / xp >= target))
    # NumPy's 4x4 `@` in C is a BLAS call: that is the cost xparray's call is like for like with.
    xp, cblas = t[("xp_matmul_4x4", 4)], t[("cblas_matmul_4x4", 4)]
    print(f"{'  the same 4x4 product by cblas_sgemm (C)':<44} {xp * 1e9:8.1f} ns {cblas * 1e9:8.1f} ns "
          f"{cblas / xp:8.2f}  (the last column: cblas / xparray)")
    print("targets: " + "; ".join(f"{text}: {'met' if ok else 'MISSED'}" for text, ok in targets))
    if args.plot:
        plot(args.plot, t, peak, args.rounds)


def plot(directory, t, peak, rounds):
    import plots  # matplotlib: only with --plot

    sizes = sorted(n for name, n in t if name == "xp_sgemm")
    panels = []
    for letter, kind, label in (("s", "f32", "float32 (sgemm)"), ("d", "f64", "float64 (dgemm)")):
        gflops = {who: [2.0 * n**3 / t[(f"{key}_{letter}gemm", n)] / 1e9 for n in sizes]
                  for who, key in (("xp::matmul", "xp"), ("CBLAS called directly", "cblas"), ("NumPy @", "numpy"))}
        panels.append((label, sizes, gflops, ("FMA peak measured here", [peak[kind]] * len(sizes))))
    plots.save(os.path.join(directory, "matmul_gflops.png"),
               f"n x n matrix products on the CPU, GFLOP/s (medians of {rounds} alternating runs)",
               panels, "n", "GFLOP/s")


if __name__ == "__main__":
    main()
