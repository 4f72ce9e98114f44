"""Runs the GPU benchmark of xparray (bench/gpu_bench.cpp) and CuPy's (bench/cupy_bench.py) one after
the other on the same GPU, then prints one table: GB/s with the ratio to the device-to-device copy
measured in the same process (the ceiling) and to CuPy; host times with the ratio CuPy / xparray (above
1: xparray is faster). A program that fails leaves its columns empty and the exit status 1."""
import argparse
import os
import subprocess
import sys


def run(command):
    """The figures a benchmark printed ("name elements seconds"), and whether it exited cleanly."""
    print(f"running {' '.join(command)}", file=sys.stderr, flush=True)
    result = subprocess.run(command, capture_output=True, text=True)
    figures = {}
    for line in result.stdout.splitlines():
        name, elements, seconds = line.split()
        figures[(name, int(elements))] = float(seconds)
    if result.returncode != 0:
        print(f"{command[-1]} exited with {result.returncode}:\n{result.stderr[-3000:]}", file=sys.stderr)
    return figures, result.returncode == 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("gpu_bench")
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    xp, xp_ok = run([args.gpu_bench])
    cupy, cupy_ok = run([sys.executable, os.path.join(here, "cupy_bench.py")])

    def gbs(figures, name, n, arrays):
        seconds = figures.get((name, n))
        return arrays * 4.0 * n / seconds / 1e9 if seconds else None

    def number(value, form):  # "n/a" where a program gave no figure, as wide as the form
        return format(value, form) if value is not None else "n/a".rjust(int(form.split(".")[0] or 0))

    def ratio(a, b):
        return f"{a / b:.2f}" if a is not None and b is not None else "n/a"

    print("GPU benchmarks, float32 (medians; xparray and CuPy measured one after the other in this run)")
    print("GB/s count bytes read + written; 'of copy': of the device-to-device copy in the same process;"
          " 'x CuPy': rate / CuPy's rate")
    header = (f"{'elements':>9} {'copy':>7} | {'xp::transform (x-y)^2':>26} | {'xp ElementwiseKernel':>26} | "
              f"{'CuPy EK':>14} | {'xp::sum':>26} | {'CuPy sum':>14}")
    print(header)
    print(f"{'':>9} {'GB/s':>7} | {'GB/s   of copy   x CuPy':>26} | {'GB/s   of copy   x CuPy':>26} | "
          f"{'GB/s  of copy':>14} | {'GB/s   of copy   x CuPy':>26} | {'GB/s  of copy':>14}")
    for power in range(20, 29):
        n = 1 << power
        copy, cupy_copy = gbs(xp, "copy", n, 2), gbs(cupy, "copy", n, 2)
        transform, kernel = gbs(xp, "transform_sqdiff", n, 3), gbs(xp, "kernel_sqdiff", n, 3)
        cupy_kernel = gbs(cupy, "kernel_sqdiff", n, 3)
        total, cupy_total = gbs(xp, "sum", n, 1), gbs(cupy, "sum", n, 1)
        print(f"{'2^' + str(power):>9} {number(copy, '7.0f')} | "
              f"{number(transform, '6.0f')} {ratio(transform, copy):>9} {ratio(transform, cupy_kernel):>8} | "
              f"{number(kernel, '6.0f')} {ratio(kernel, copy):>9} {ratio(kernel, cupy_kernel):>8} | "
              f"{number(cupy_kernel, '6.0f')} {ratio(cupy_kernel, cupy_copy):>7} | "
              f"{number(total, '6.0f')} {ratio(total, copy):>9} {ratio(total, cupy_total):>8} | "
              f"{number(cupy_total, '6.0f')} {ratio(cupy_total, cupy_copy):>7}")

    m = 4096 * 4096
    copy, cupy_copy = gbs(xp, "copy_4096x4096", m, 2), gbs(cupy, "copy_4096x4096", m, 2)
    print(f"\n4096x4096 float32 (copy: xparray {number(copy, '.0f')} GB/s, CuPy {number(cupy_copy, '.0f')} GB/s)")
    print(f"{'':>14} {'xp GB/s':>8} {'of copy':>8} {'x CuPy':>7} {'CuPy GB/s':>10} {'of copy':>8}")
    for axis, label in (("all", "sum()"), ("axis0", "sum(axis=0)"), ("axis1", "sum(axis=1)")):
        mine, theirs = gbs(xp, f"sum_{axis}_4096x4096", m, 1), gbs(cupy, f"sum_{axis}_4096x4096", m, 1)
        print(f"{label:>14} {number(mine, '8.0f')} {ratio(mine, copy):>8} {ratio(mine, theirs):>7} "
              f"{number(theirs, '10.0f')} {ratio(theirs, cupy_copy):>8}")

    def tflops(figures, name="matmul_4096"):
        seconds = figures.get((name, m))
        return 2.0 * 4096**3 / seconds / 1e12 if seconds else None

    mine, theirs = tflops(xp), tflops(cupy)
    met = "met" if mine is not None and theirs is not None and mine >= 0.95 * theirs else "MISSED"
    # TF32 is off unless these say otherwise (xparray: XP_ALLOW_TF32=1; CuPy: CUPY_TF32=1).
    tf32 = ", ".join(f"{v}={os.environ.get(v, 'unset')}" for v in ("XP_ALLOW_TF32", "CUPY_TF32"))
    print(f"\nmatmul 4096x4096 float32 ({tf32}): xparray {number(mine, '.1f')} TFLOP/s, "
          f"CuPy {number(theirs, '.1f')} TFLOP/s, {ratio(mine, theirs)}x CuPy (target >= 0.95: {met})")

    def against_copy(label, name, n, arrays, peer):  # GB/s against the float32 copy at n, target 0.9
        copy, cupy_copy = gbs(xp, "copy", n, 2), gbs(cupy, "copy", n, 2)
        mine, theirs = gbs(xp, name, n, arrays), gbs(cupy, name, n, arrays)
        met = "met" if mine is not None and copy is not None and mine >= 0.9 * copy else "MISSED"
        print(f"{label}: xparray {number(mine, '.0f')} GB/s ({ratio(mine, copy)} of copy, target >= 0.9: {met}), "
              f"{peer} {number(theirs, '.0f')} GB/s ({ratio(theirs, cupy_copy)} of its copy), {ratio(mine, theirs)}x CuPy")

    print()
    # 2-byte floats: three arrays of 2 bytes a subtract (1.5 float32 arrays)
    against_copy("float16 subtract at 2^26, out=", "subtract_float16", 1 << 26, 1.5, "CuPy")
    # xp::fuse: two arrays read and one written, a new one each call
    against_copy("fused exp(z + 2) * y at 2^24", "fused_exp_chain", 1 << 24, 3, "cupy.fuse")
    for dtype, peer in (("float16", "CuPy"), ("bfloat16", "PyTorch")):
        mine, theirs = tflops(xp, f"matmul_4096_{dtype}"), tflops(cupy, f"matmul_4096_{dtype}")
        met = "met" if mine is not None and theirs is not None and mine >= 0.95 * theirs else "MISSED"
        print(f"matmul 4096x4096 {dtype} (float32 accumulation): xparray {number(mine, '.1f')} TFLOP/s, "
              f"{peer} {number(theirs, '.1f')} TFLOP/s, {ratio(mine, theirs)}x {peer} (target >= 0.95: {met})")

    # Sorts, scans, unique and indexing at 2^26: times against CuPy's; cumsum also against the copy (one read,
    # one write of 4 bytes).
    print(f"\n{'at 2^26 elements':<20} {'xparray ms':>10} {'CuPy ms':>8} {'x CuPy':>7} {'target':>7}")
    for name, label in (("sort_float32", "sort float32"), ("argsort_float32", "argsort float32"),
                        ("cumsum_float32", "cumsum float32"), ("unique_int32", "unique int32"),
                        ("gather_float32", "a[idx] float32"), ("mask_float32", "a[mask] float32"),
                        ("scatter_add_float32", "scatter_add float32")):
        mine, theirs = xp.get((name, n)), cupy.get((name, n))
        speed = theirs / mine if mine and theirs else None
        met = "met" if speed is not None and speed >= 0.95 else "MISSED"
        print(f"{label:<20} {number(mine and mine * 1e3, '10.2f')} {number(theirs and theirs * 1e3, '8.2f')} "
              f"{number(speed, '7.2f')} {'0.95':>7} {met}")
    # Solvers and transforms: times against CuPy's (issue 42: >= 0.95).
    print(f"\n{'solvers and FFT':<24} {'xparray ms':>10} {'CuPy ms':>8} {'x CuPy':>7} {'target':>7}")
    for name, size in (("solve_1024_float64", 1024), ("eigh_4096x8x8_float32", 4096),
                       ("fft_2^20_complex64", 1 << 20), ("rfft_2^22_float32", 1 << 22),
                       ("fft_10007_complex128", 10007)):
        mine, theirs = xp.get((name, size)), cupy.get((name, size))
        speed = theirs / mine if mine and theirs else None
        met = "met" if speed is not None and speed >= 0.95 else "MISSED"
        print(f"{name:<24} {number(mine and mine * 1e3, '10.3f')} {number(theirs and theirs * 1e3, '8.3f')} "
              f"{number(speed, '7.2f')} {'0.95':>7} {met}")
    mine = gbs(xp, "cumsum_float32", n, 2)
    met = "met" if mine is not None and copy is not None and mine >= 0.8 * copy else "MISSED"
    print(f"cumsum float32: {number(mine, '.0f')} GB/s, {ratio(mine, copy)} of copy (target >= 0.8: {met})")

    # standard_normal float32 at 2^26: bytes written against the copy's (which writes half its GB/s), and CuPy.
    mine, theirs = gbs(xp, "standard_normal_float32", n, 1), gbs(cupy, "standard_normal_float32", n, 1)
    written = copy / 2 if copy is not None else None
    met = "met" if mine is not None and written is not None and mine >= 0.9 * written else "MISSED"
    versus = "met" if mine is not None and theirs is not None and mine >= theirs else "MISSED"
    print(f"standard_normal float32: {number(mine, '.0f')} GB/s written, {ratio(mine, written)} of the copy's writes "
          f"(target >= 0.9: {met}); CuPy {number(theirs, '.0f')} GB/s, x CuPy {ratio(mine, theirs)} (target >= 1: {versus})")

    def host_row(label, name, n, scale, unit):
        mine, theirs = xp.get((name, n)), cupy.get((name, n))
        print(f"{label:<46} {number(mine and mine * scale, '9.2f')} {unit:<3} "
              f"{number(theirs and theirs * scale, '9.2f')} {unit:<3} {ratio(theirs, mine):>8}")

    # A C++ call against a CPython call (the interpreter's dispatch included): what a CuPy user saves per call.
    print(f"\n{'host-side costs (C++ calls, CPython calls)':<46} {'xparray':>13} {'CuPy':>13} {'CuPy/xp':>8}")
    host_row("xp::add(a, b, out) / cp.add, n = 8, per call", "add_n8_host", 8, 1e6, "us")
    host_row("ElementwiseKernel memo hit, n = 8, per call", "kernel_n8_host", 8, 1e6, "us")
    host_row("captured 20-op step, launch, per op", "captured_20_ops_host", 20, 1e6, "us")
    host_row("the same step uncaptured, per op", "uncaptured_20_ops_host", 20, 1e6, "us")
    mine = xp.get(("captured_20_ops_host", 20))
    print(f"  captured replay per op: target <= 1 us: {'met' if mine is not None and mine <= 1e-6 else 'MISSED'}")
    host_row("ElementwiseKernel first call (NVRTC)", "first_call_elementwise", 8, 1e3, "ms")
    host_row("ReductionKernel first call (NVRTC)", "first_call_reduction", 8, 1e3, "ms")
    host_row("first call from the disk cache", "first_call_disk_cache", 8, 1e3, "ms")
    for size, label in ((512, "512 B"), (1 << 20, "1 MiB"), (64 << 20, "64 MiB")):
        host_row(f"pool alloc+free pair, {label}", "pool_pair", size, 1e6, "us")

    n = 64 << 20
    print(f"\n{'256 MiB transfers':<34} {'xp GB/s':>8} {'cudaMemcpy':>11} {'of memcpy':>10} {'CuPy GB/s':>10} {'x CuPy':>7}")
    for name, memcpy, label in (("to_gpu_pageable", "memcpy_h2d_pageable", "to_gpu, pageable"),
                                ("to_cpu_pageable", "memcpy_d2h_pageable", "to_cpu, pageable"),
                                ("to_gpu_pinned", "memcpy_h2d_pinned", "to_gpu, pinned"),
                                ("to_cpu_pinned", "memcpy_d2h_pinned", "to GPU -> cpu_pinned")):
        mine, ceiling, theirs = gbs(xp, name, n, 1), gbs(xp, memcpy, n, 1), gbs(cupy, name, n, 1)
        print(f"{label:<34} {number(mine, '8.1f')} {number(ceiling, '11.1f')} {ratio(mine, ceiling):>10} "
              f"{number(theirs, '10.1f')} {ratio(mine, theirs):>7}")
    if not (xp_ok and cupy_ok):
        sys.exit(1)


if __name__ == "__main__":
    main()
