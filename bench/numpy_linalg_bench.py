"""NumPy on linalg_bench's measurements (same names with numpy_, same line format), on the same inputs'
shapes and dtypes; its OpenBLAS's threads are the machine's unless OPENBLAS_NUM_THREADS says otherwise."""
import os

import numpy as np

from numpy_bench import print_medians, rounds_argument


def conditioned(rng, shape, dtype):
    n = shape[-1]
    return (rng.standard_normal(shape) + n * np.eye(n)).astype(dtype)


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    a, b = conditioned(rng, (1024, 1024), np.float64), rng.standard_normal(1024)
    square = conditioned(rng, (512, 512), np.float64)
    small = conditioned(rng, (4096, 8, 8), np.float32)
    symmetric = small + np.swapaxes(small, -1, -2)
    left = rng.standard_normal((64, 128, 128), dtype=np.float32)
    right = rng.standard_normal((64, 128, 128), dtype=np.float32)
    measurements = [  # (name, elements, calls, function)
        ("numpy_solve_1024_float64", 1024, 2, lambda: np.linalg.solve(a, b)),
        ("numpy_svd_512_float64", 512, 1, lambda: np.linalg.svd(square)),
        ("numpy_eigh_4096x8x8_float32", 4096, 4, lambda: np.linalg.eigh(symmetric)),
        ("numpy_einsum_bij_bjk_float32", 64, 4, lambda: np.einsum("bij,bjk->bik", left, right)),
        ("numpy_matmul_bij_bjk_float32", 64, 4, lambda: np.matmul(left, right)),
    ]
    print(f"# threads numpy {int(os.environ.get('OPENBLAS_NUM_THREADS', os.cpu_count()))}")
    print_medians(measurements, rounds)


if __name__ == "__main__":
    main()
