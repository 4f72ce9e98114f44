"""Runs the C++ array benchmark and the NumPy one alternately over several rounds (the VM's memory
bandwidth drifts: alternating spreads the drift over both), then prints one table of GB/s and the
ratios the targets are stated in."""
import argparse
import os
import statistics
import subprocess
import sys
from collections import defaultdict


def run(command):
    figures = {}
    quiet = {name: value for name, value in os.environ.items() if name != "XP_NVTX"}  # ranges off, as measured
    for line in subprocess.run(command, check=True, capture_output=True, text=True, env=quiet).stdout.splitlines():
        if line.startswith("#"):
            continue
        name, elements, seconds, _ = line.split()
        figures[(name, int(elements))] = float(seconds)
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("array_bench")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--plot", metavar="DIR", help="also write the bandwidth-vs-size chart there")
    args = parser.parse_args()
    seconds = defaultdict(list)
    for _ in range(args.rounds):
        for command in ([args.array_bench, "--rounds", "9"],
                        [sys.executable, __file__.replace("run_benchmarks.py", "numpy_bench.py"), "--rounds", "9"]):
            for key, value in run(command).items():
                seconds[key].append(value)
    t = {key: statistics.median(values) for key, values in seconds.items()}

    def gbs(name, n, arrays):
        return arrays * 4.0 * n / t[(name, n)] / 1e9

    rows = []
    targets = []
    for n, label in ((1 << 20, "2^20"), (1 << 24, "2^24")):
        add, sqdiff = gbs("stream_add", n, 3), gbs("xp_transform_sqdiff", n, 3)
        rows.append((label, "STREAM-like copy (OpenMP)", gbs("stream_copy", n, 2), ""))
        rows.append((label, "STREAM-like add (OpenMP)", add, ""))
        rows.append((label, "xp::transform (x-y)*(x-y)", sqdiff,
                     f"{sqdiff / add:.2f} of STREAM add; {t[('numpy_sqdiff', n)] / t[('xp_transform_sqdiff', n)]:.2f}x NumPy; "
                     f"{t[('eigen_sqdiff', n)] / t[('xp_transform_sqdiff', n)]:.2f}x Eigen"))
        rows.append((label, "xp::sum", gbs("xp_sum", n, 1),
                     f"{t[('openmp_sum', n)] / t[('xp_sum', n)]:.2f} of OpenMP sum; {t[('numpy_sum', n)] / t[('xp_sum', n)]:.2f}x NumPy; "
                     f"{t[('eigen_sum', n)] / t[('xp_sum', n)]:.2f}x Eigen"))
        rows.append((label, "hand-written OpenMP sum", gbs("openmp_sum", n, 1), ""))
        if n == 1 << 24:
            targets.append(("fused (x-y)^2 >= 0.9 of STREAM add", sqdiff / add >= 0.9))
            targets.append(("fused (x-y)^2 >= 2x NumPy", t[("numpy_sqdiff", n)] / t[("xp_transform_sqdiff", n)] >= 2))
            targets.append(("xp::sum >= 0.9 of OpenMP sum", t[("openmp_sum", n)] / t[("xp_sum", n)] >= 0.9))
            targets.append(("xp::sum >= 3x NumPy", t[("numpy_sum", n)] / t[("xp_sum", n)] >= 3))
    m = 4096 * 4096
    for axis, name in (("all", "sum()"), ("axis1", "sum(axis=1)"), ("axis0", "sum(axis=0)")):
        xp_name = f"xp_sum_{axis}_4096x4096"
        note = f"{t[(f'numpy_sum_{axis}_4096x4096', m)] / t[(xp_name, m)]:.2f}x NumPy"
        if axis != "all":
            note = f"{t[('xp_sum_all_4096x4096', m)] / t[(xp_name, m)]:.2f} of xp::sum; " + note
        rows.append(("4096^2", f"xp {name}", gbs(xp_name, m, 1), note))
    targets.append(("sum(axis=1) >= 0.8 of xp::sum", t[("xp_sum_all_4096x4096", m)] / t[("xp_sum_axis1_4096x4096", m)] >= 0.8))
    add_ns, numpy_ns = 1e9 * t[("xp_add_out_n8", 8)], 1e9 * t[("numpy_add_out_n8", 8)]
    targets.append(("xp::add(a, b, out), n = 8, <= 30 ns", add_ns <= 30))
    beneath_ns, recording_ns = 1e9 * t[("api_add_out_n8", 8)], 1e9 * t[("xp_add_out_n8_recording", 8)]
    targets.append(("autograd's entry (not recording) within 5 ns", add_ns - beneath_ns <= 5))
    range_ns = 1e9 * t[("profile_range_off_x1000", 1000)] / 1000
    targets.append(("an NVTX range with XP_NVTX off within 2 ns", range_ns <= 2))

    print(f"array benchmarks, float32 on the CPU (medians of {args.rounds} alternating runs of each program)")
    print(f"{'size':>7}  {'measurement':<28} {'GB/s':>7}  ratios")
    for size, name, rate, note in rows:
        print(f"{size:>7}  {name:<28} {rate:7.1f}  {note}")
    print(f"{'n = 8':>7}  {'xp::add(a, b, out)':<28} {add_ns:6.0f} ns  NumPy np.add(a, b, out=c): {numpy_ns:.0f} ns")
    print(f"{'':>7}  {'  beneath autograd':<28} {beneath_ns:6.0f} ns  the same call without autograd's entry "
          f"({add_ns - beneath_ns:+.1f} ns); while recording: {recording_ns:.0f} ns")
    print(f"{'':>7}  {'  its NVTX range, XP_NVTX off':<28} {range_ns:6.2f} ns  every operation's profile_range "
          f"({100 * range_ns / add_ns:.1f}% of the call)")
    print("targets: " + "; ".join(f"{text}: {'met' if ok else 'MISSED'}" for text, ok in targets))
    if args.plot:
        plot(args.plot, t, gbs, args.rounds)


def plot(directory, t, gbs, rounds):
    import plots  # matplotlib: only with --plot

    sizes = sorted(n for name, n in t if name == "stream_add")

    def series(name, arrays):
        return [gbs(name, n, arrays) for n in sizes]

    plots.save(os.path.join(directory, "array_bandwidth.png"),
               f"float32 on the CPU, GB/s by size (medians of {rounds} alternating runs)",
               [("(x - y)^2 elementwise: 3 arrays moved", sizes,
                 {"xp::transform": series("xp_transform_sqdiff", 3), "Eigen": series("eigen_sqdiff", 3),
                  "NumPy (x - y)**2": series("numpy_sqdiff", 3)},
                 ("STREAM-like add (OpenMP): the ceiling", series("stream_add", 3))),
                # No measured ceiling for a sum: it only reads, and the hand-written loop is a peer, not a bound
                # (one accumulator per thread: in cache it is latency-bound).
                ("sum of all elements: 1 array read", sizes,
                 {"xp::sum": series("xp_sum", 1), "hand-written OpenMP sum": series("openmp_sum", 1),
                  "Eigen": series("eigen_sum", 1), "NumPy sum()": series("numpy_sum", 1)},
                 None)],
               "elements", "GB/s")


if __name__ == "__main__":
    main()
