"""Runs the training-step benchmarks of xparray (bench/train_bench.cpp), MXNet 1.9.1's Gluon and
PyTorch's CPU build alternately over several rounds, and prints their medians and the ratios."""
import argparse
import os
import sys

from alternate import medians


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("train_bench")
    parser.add_argument("--python", required=True, help="the Python with mxnet and torch")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    commands = [[args.train_bench, "--rounds", "3"],
                [args.python, os.path.join(here, "mxnet_train_bench.py"), "--rounds", "3"],
                [args.python, os.path.join(here, "torch_train_bench.py"), "--rounds", "3"]]
    medians_by_key, comments = medians(commands, args.rounds)
    t = {name: value for (name, _), value in medians_by_key.items()}
    print(f"one training step of a 64-512-512-10 MLP at batch 256 on cpu(0) "
          f"(medians of {args.rounds} alternating runs of each program)")
    for comment in sorted(comments):
        print(f"  {comment}")
    xp = t["xp_mlp_step"]
    print(f"{'':<28} {'ms/step':>8} {'xparray faster by':>18}")
    for name, label in (("xp_mlp_step", "xparray Gluon"), ("mxnet_mlp_step", "MXNet Gluon (imperative)"),
                        ("mxnet_hybrid_mlp_step", "MXNet Gluon (hybridized)"), ("torch_mlp_step", "PyTorch")):
        print(f"{label:<28} {t[name] * 1e3:8.2f} {t[name] / xp:17.2f}x")
    # MXNet at its best: the faster of its imperative and hybridized modes.
    mxnet_best = min(t["mxnet_mlp_step"], t["mxnet_hybrid_mlp_step"])
    targets = [("faster than MXNet Gluon (the faster of imperative and hybridized)", mxnet_best > xp),
               ("faster than PyTorch", t["torch_mlp_step"] > xp)]
    print("targets: " + "; ".join(f"{text}: {'met' if ok else 'MISSED'}" for text, ok in targets))


if __name__ == "__main__":
    sys.exit(main())
