#!/usr/bin/env python3
"""The alpha-beta model of docs/scaling.md: a bucketed, hierarchical ring allreduce of a model's float32
gradients on N nodes of 8 GPUs (NVLink inside a node, one 400 Gb/s link per node between nodes).
Prints the tables of docs/scaling.md; its check against this machine's loopback is --loopback FILE,
FILE being bench/dist_bench's output."""
import argparse
import math
import re

MIB = 1 << 20
BUCKET = 25 * MIB  # xp::dist::kBucketBytes
GPUS = 8
# Inside a node: NVLink (H100 SXM, NCCL's measured all-reduce bus bandwidth about 360 GB/s; a step's latency).
ALPHA_NVLINK, BETA_NVLINK = 3e-6, 360e9
# Between nodes: 400 Gb/s (50 GB/s, 45 achieved) per node, a step's latency through the NIC and switch.
ALPHA_NET, BETA_NET = 6e-6, 45e9


def ring(size_bytes, ranks, alpha, beta):
    """Ring allreduce: 2 (p - 1) steps, each moving size / p bytes."""
    if ranks == 1:
        return 0.0
    return 2 * (ranks - 1) * alpha + 2 * (ranks - 1) / ranks * size_bytes / beta


def hierarchical(size_bytes, nodes):
    """Reduce-scatter inside the node, a ring over the nodes of what the node holds (its link carries
    the whole bucket: one NIC per node), all-gather inside the node."""
    inside = 2 * ((GPUS - 1) * ALPHA_NVLINK + (GPUS - 1) / GPUS * size_bytes / BETA_NVLINK)
    return inside + ring(size_bytes, nodes, ALPHA_NET, BETA_NET)


def bucketed(total_bytes, nodes):
    full, rest = divmod(total_bytes, BUCKET)
    return full * hierarchical(BUCKET, nodes) + (hierarchical(rest, nodes) if rest else 0.0)


MODELS = [  # name, float32 gradient bytes, step compute time on one H100 (forward + backward, no overlap)
    ("ResNet-50 (25.6 M parameters, batch 256/GPU, ~85 ms)", 25.6e6 * 4, 0.085),
    ("BERT-large (340 M, batch 32/GPU, ~120 ms)", 340e6 * 4, 0.120),
    ("GPT 1.3 B (1.3 B, batch 8 x 2048 tokens/GPU, ~330 ms)", 1.3e9 * 4, 0.330),
]


def tables():
    print("| nodes (x 8 GPUs) | " + " | ".join(name.split(" (")[0] for name, _, _ in MODELS) + " |")
    print("|---|" + "---|" * len(MODELS))
    for nodes in (1, 2, 4, 8, 16, 32, 64):
        cells = []
        for _, size, compute in MODELS:
            t = bucketed(int(size), nodes)
            cells.append(f"{t * 1e3:.1f} ms, {compute / (compute + t):.2f}")
        print(f"| {nodes} | " + " | ".join(cells) + " |")
    print()
    print("| nodes | one 25 MiB bucket | latency part | bandwidth part (between nodes) |")
    print("|---|---|---|---|")
    for nodes in (1, 2, 4, 8, 16, 32, 64):
        t = hierarchical(BUCKET, nodes)
        latency = 2 * (GPUS - 1) * ALPHA_NVLINK + (2 * (nodes - 1) * ALPHA_NET if nodes > 1 else 0)
        net = 2 * (nodes - 1) / nodes * BUCKET / BETA_NET if nodes > 1 else 0
        print(f"| {nodes} | {t * 1e3:.3f} ms | {latency * 1e3:.3f} ms | {net * 1e3:.3f} ms |")


def loopback(path):
    """Fits alpha and the two bandwidths of 2 processes on this machine to the measured xp::dist column
    and prints the model's time beside the measured one at every size."""
    rows = []
    for line in open(path):
        m = re.match(r"\s*(\d+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*$", line)
        if m:
            size = int(m.group(1))
            rows.append((size, size / (float(m.group(2)) * 1e9)))  # 2 processes: busbw = algbw
    small = rows[0]
    alpha = small[1] / 2  # 2 (p - 1) = 2 steps; 1 KiB is all latency
    # Each bandwidth from the largest size of its regime, where alpha no longer matters.
    in_cache = next(size / (t - 2 * alpha) for size, t in reversed(rows) if size <= 4 * MIB)
    in_memory = rows[-1][0] / (rows[-1][1] - 2 * alpha)
    print(f"Fitted: alpha {alpha * 1e6:.2f} us (half the 1 KiB call), beta {in_cache / 1e9:.1f} GB/s up to 4 MiB "
          f"(in the caches, from 4 MiB), {in_memory / 1e9:.2f} GB/s above (in memory, from 256 MiB).\n")
    print("| bytes | measured | model | model / measured |")
    print("|---|---|---|---|")
    for size, t in rows:
        beta = in_cache if size <= 4 * MIB else in_memory
        model = 2 * alpha + size / beta
        print(f"| {size} | {t * 1e6:.1f} us | {model * 1e6:.1f} us | {model / t:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--loopback")
    args = parser.parse_args()
    if args.loopback:
        loopback(args.loopback)
    else:
        tables()
