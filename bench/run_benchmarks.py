"""Runs the C++ array benchmark and the NumPy one alternately over several rounds (the VM's memory
bandwidth drifts: alternating spreads the drift over both), then prints one table of GB/s and the
ratios the targets are stated in."""
import argparse
import os
import statistics
import subprocess
import sys
from collections import defaultdict


def run(command, threads):
    """The figures a program printed; its `# threads name count ...` line goes into `threads`."""
    figures = {}
    quiet = {name: value for name, value in os.environ.items() if name != "XP_NVTX"}  # ranges off, as measured
    for line in subprocess.run(command, check=True, capture_output=True, text=True, env=quiet).stdout.splitlines():
        if line.startswith("# threads"):
            words = line.split()[2:]
            threads.update(zip(words[::2], map(int, words[1::2])))
            continue
        if line.startswith("#"):
            continue
        name, elements, seconds, _ = line.split()
        figures[(name, int(elements))] = float(seconds)
    return figures


def last_level_cache_bytes():
    """The largest CPU cache, from sysfs (0 when unknown): rows whose arrays fit in it are not memory-bound."""
    sizes = []
    for index in range(8):
        try:
            with open(f"/sys/devices/system/cpu/cpu0/cache/index{index}/size") as f:
                text = f.read().strip()
        except OSError:
            break
        scale = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}.get(text[-1], 1)
        sizes.append(int(text.rstrip("KMG")) * scale)
    return max(sizes, default=0)


def array_rows(t, gbs, threads, cache):
    """The table's rows at 2^20 and 2^24 elements, each with its thread count, and the targets at 2^24."""
    n_threads = threads["xparray"]

    def faster(peer, name, n):
        return t[(peer, n)] / t[(name, n)]

    rows = []  # (size, measurement, threads, GB/s, ratios)
    targets = []
    for n, label in ((1 << 20, "2^20"), (1 << 24, "2^24")):
        in_cache = 3 * 4 * n <= cache
        if in_cache:
            label += "*"
        add, sqdiff = gbs("stream_add", n, 3), gbs("xp_transform_sqdiff", n, 3)
        products = gbs("xp_multiply_complex64", n, 3)
        # Six arrays move per call: float32's counted as six of 4 bytes, float16's as three.
        ops32, ops16 = gbs("xp_sqdiff_ops_float32", n, 6), gbs("xp_sqdiff_ops_float16", n, 3)
        ceiling = "in-cache add" if in_cache else "STREAM add (the DRAM ceiling)"
        rows += [
            (label, "STREAM-like copy (OpenMP)", threads["stream"], gbs("stream_copy", n, 2), ""),
            (label, "STREAM-like add (OpenMP)", threads["stream"], add, "in cache: not a DRAM ceiling" if in_cache else ""),
            (label, "xp::transform (x-y)*(x-y)", n_threads, sqdiff, f"{sqdiff / add:.2f} of the {ceiling}"),
            (label, "xp::multiply complex64, out=", n_threads, products,
             f"{products / add:.2f} of the {ceiling} (n/2 elements: the same bytes)"),
            (label, "xp subtract+multiply f32, out=", n_threads, ops32, "(x-y)^2 as two operations"),
            (label, "xp subtract+multiply f16, out=", n_threads, ops16,
             f"{ops16 / ops32:.2f} of float32's bytes/s; {faster('numpy_sqdiff_ops_float16', 'xp_sqdiff_ops_float16', n):.2f}x "
             f"NumPy float16"),
            (label, "NumPy subtract+multiply f16", threads["numpy"], gbs("numpy_sqdiff_ops_float16", n, 3), ""),
            (label, "xp::transform (x-y)*(x-y)", 1, gbs("xp_transform_sqdiff_1thread", n, 3),
             f"{faster('numpy_sqdiff_out', 'xp_transform_sqdiff_1thread', n):.2f}x NumPy out=; "
             f"{faster('numpy_sqdiff', 'xp_transform_sqdiff_1thread', n):.2f}x NumPy (x-y)**2; "
             f"{faster('eigen_sqdiff', 'xp_transform_sqdiff_1thread', n):.2f}x Eigen"),
            (label, "NumPy (x-y)**2 (a temporary)", threads["numpy"], gbs("numpy_sqdiff", n, 3), ""),
            (label, "NumPy subtract, square out=", threads["numpy"], gbs("numpy_sqdiff_out", n, 3), "no temporary"),
            (label, "Eigen (ex-ey).square()", threads["eigen"], gbs("eigen_sqdiff", n, 3), ""),
            (label, "xp::sum", n_threads, gbs("xp_sum", n, 1), f"{faster('openmp_sum', 'xp_sum', n):.2f} of OpenMP sum"),
            (label, "xp::sum", 1, gbs("xp_sum_1thread", n, 1),
             f"{faster('numpy_sum', 'xp_sum_1thread', n):.2f}x NumPy; {faster('eigen_sum', 'xp_sum_1thread', n):.2f}x Eigen"),
            (label, "hand-written OpenMP sum", threads["stream"], gbs("openmp_sum", n, 1), ""),
            (label, "NumPy sum()", threads["numpy"], gbs("numpy_sum", n, 1), ""),
            (label, "Eigen sum()", threads["eigen"], gbs("eigen_sum", n, 1), ""),
        ]
        if n == 1 << 24:
            many = f"xparray on {n_threads} threads, NumPy on {threads['numpy']}"
            targets += [
                (f"fused (x-y)^2 >= 0.9 of STREAM add ({n_threads} threads each)", sqdiff / add >= 0.9),
                (f"complex64 multiply >= 0.9 of STREAM add ({n_threads} threads each)", products / add >= 0.9),
                (f"float16 (x-y)^2 >= 0.8 of float32's bytes/s ({n_threads} threads each)", ops16 / ops32 >= 0.8),
                (f"fused (x-y)^2 >= 2x NumPy (x-y)**2 ({many})", faster("numpy_sqdiff", "xp_transform_sqdiff", n) >= 2),
                (f"xp::sum >= 0.9 of OpenMP sum ({n_threads} threads each)", faster("openmp_sum", "xp_sum", n) >= 0.9),
                (f"xp::sum >= 3x NumPy ({many})", faster("numpy_sum", "xp_sum", n) >= 3),
            ]
    return rows, targets


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("array_bench")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--plot", metavar="DIR", help="also write the bandwidth-vs-size chart there")
    args = parser.parse_args()
    seconds = defaultdict(list)
    threads = {}
    for _ in range(args.rounds):
        for command in ([args.array_bench, "--rounds", "9"],
                        [sys.executable, __file__.replace("run_benchmarks.py", "numpy_bench.py"), "--rounds", "9"]):
            for key, value in run(command, threads).items():
                seconds[key].append(value)
    t = {key: statistics.median(values) for key, values in seconds.items()}
    cache = last_level_cache_bytes()
    n_threads = threads["xparray"]

    def gbs(name, n, arrays):
        return arrays * 4.0 * n / t[(name, n)] / 1e9

    rows, targets = array_rows(t, gbs, threads, cache)
    m = 4096 * 4096
    for axis, name in (("all", "sum()"), ("axis1", "sum(axis=1)"), ("axis0", "sum(axis=0)")):
        xp_name = f"xp_sum_{axis}_4096x4096"
        note = f"{t[(f'numpy_sum_{axis}_4096x4096', m)] / t[(xp_name, m)]:.2f}x NumPy (on {threads['numpy']})"
        if axis != "all":
            note = f"{t[('xp_sum_all_4096x4096', m)] / t[(xp_name, m)]:.2f} of xp::sum; " + note
        rows.append(("4096^2", f"xp {name}", n_threads, gbs(xp_name, m, 1), note))
    targets.append(("sum(axis=1) >= 0.8 of xp::sum", t[("xp_sum_all_4096x4096", m)] / t[("xp_sum_axis1_4096x4096", m)] >= 0.8))
    add_ns, numpy_ns = 1e9 * t[("xp_add_out_n8", 8)], 1e9 * t[("numpy_add_out_n8", 8)]
    targets.append(("xp::add(a, b, out), n = 8, <= 30 ns", add_ns <= 30))
    beneath_ns, recording_ns = 1e9 * t[("api_add_out_n8", 8)], 1e9 * t[("xp_add_out_n8_recording", 8)]
    targets.append(("autograd's entry (not recording) within 5 ns", add_ns - beneath_ns <= 5))
    range_ns = 1e9 * t[("profile_range_off_x1000", 1000)] / 1000
    targets.append(("an NVTX range with XP_NVTX off within 2 ns", range_ns <= 2))

    print(f"array benchmarks, float32 on the CPU (medians of {args.rounds} alternating runs of each program); "
          f"threads: xparray and the OpenMP loops {n_threads}, NumPy {threads['numpy']}, Eigen {threads['eigen']}")
    print(f"{'size':>7}  {'measurement':<30} {'threads':>7} {'GB/s':>7}  ratios (to rows of the same size)")
    for size, name, count, rate, note in rows:
        print(f"{size:>7}  {name:<30} {count:>7} {rate:7.1f}  {note}")
    if cache:
        print(f"  * in cache: the three arrays ({3 * 4 * (1 << 20) >> 20} MiB) fit the {cache >> 20} MiB last-level cache")
    print(f"{'n = 8':>7}  {'xp::add(a, b, out)':<30} {'':>7} {add_ns:6.0f} ns  one C++ call; NumPy's np.add(a, b, out=c), "
          f"one CPython call with its interpreter and ufunc dispatch: {numpy_ns:.0f} ns")
    print(f"{'':>7}  {'  beneath autograd':<30} {'':>7} {beneath_ns:6.0f} ns  the same call without autograd's entry "
          f"({add_ns - beneath_ns:+.1f} ns); while recording: {recording_ns:.0f} ns")
    print(f"{'':>7}  {'  its NVTX range, XP_NVTX off':<30} {'':>7} {range_ns:6.2f} ns  every operation's profile_range "
          f"({100 * range_ns / add_ns:.1f}% of the call)")
    print("targets: " + "; ".join(f"{text}: {'met' if ok else 'MISSED'}" for text, ok in targets))
    if args.plot:
        plot(args.plot, t, gbs, args.rounds, threads, cache)


def plot(directory, t, gbs, rounds, threads, cache):
    import plots  # matplotlib: only with --plot

    sizes = sorted(n for name, n in t if name == "stream_add")
    many = threads["xparray"]

    def series(name, arrays):
        return [gbs(name, n, arrays) for n in sizes]

    # The ceiling is drawn only where the arrays do not fit the cache: there the add is a memory bound.
    ceiling = [rate if 3 * 4 * n > cache else float("nan") for n, rate in zip(sizes, series("stream_add", 3))]
    plots.save(os.path.join(directory, "array_bandwidth.png"),
               f"float32 on the CPU, GB/s by size (medians of {rounds} alternating runs)",
               [("(x - y)^2 elementwise: 3 arrays moved", sizes,
                 {f"xp::transform ({many} threads)": series("xp_transform_sqdiff", 3),
                  "xp::transform (1 thread)": series("xp_transform_sqdiff_1thread", 3),
                  "Eigen (1 thread)": series("eigen_sqdiff", 3),
                  "NumPy (x - y)**2 (1 thread)": series("numpy_sqdiff", 3),
                  "NumPy subtract, square out= (1 thread)": series("numpy_sqdiff_out", 3)},
                 (f"STREAM-like add ({many} threads), out of cache: the ceiling", ceiling)),
                # No measured ceiling for a sum: it only reads, and the hand-written loop is a peer, not a bound
                # (one accumulator per thread: in cache it is latency-bound).
                ("sum of all elements: 1 array read", sizes,
                 {f"xp::sum ({many} threads)": series("xp_sum", 1), "xp::sum (1 thread)": series("xp_sum_1thread", 1),
                  f"hand-written OpenMP sum ({many} threads)": series("openmp_sum", 1),
                  "Eigen (1 thread)": series("eigen_sum", 1), "NumPy sum() (1 thread)": series("numpy_sum", 1)},
                 None)],
               "elements", "GB/s")


if __name__ == "__main__":
    main()
