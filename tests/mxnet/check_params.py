"""Reads with MXNet (`mx.nd.load`) the file tests/mxnet/write_params.cpp wrote with xparray, and checks
every name, dtype, shape and value against fixture_values.ARRAYS. Run by scripts/bench.sh in .bench-venv,
where MXNet 1.9.1 is."""
import sys

import mxnet as mx
import numpy as np

from fixture_values import ARRAYS


def main():
    loaded = mx.nd.load(sys.argv[1])
    problems = [] if set(loaded) == set(ARRAYS) else [f"names {sorted(loaded)}, not {sorted(ARRAYS)}"]
    for name, want in ARRAYS.items():
        got = loaded.get(name)
        if got is None:
            continue
        got = got.asnumpy()
        if got.dtype != want.dtype or got.shape != want.shape or not np.array_equal(got, want):
            problems.append(f"{name}: {got.dtype} {got.shape} {got.tolist()}, not {want.dtype} {want.shape} {want.tolist()}")
    if problems:
        sys.exit("MXNet reading xparray's file: " + "; ".join(problems))
    print(f"MXNet {mx.__version__} read xparray's parameter file: {len(ARRAYS)} arrays, every dtype, shape and value as written")


if __name__ == "__main__":
    main()
