"""NumPy on fft_bench's measurements (same names with numpy_, same line format), on the same inputs' sizes
and dtypes. NumPy's pocketfft runs on the calling thread alone."""
import numpy as np

from numpy_bench import print_medians, rounds_argument


def complex_values(rng, n, dtype):
    return (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)


def main():
    rounds = rounds_argument(7)
    rng = np.random.default_rng(1)
    c64 = complex_values(rng, 1 << 20, np.complex64)
    f32 = rng.standard_normal(1 << 22, dtype=np.float32)
    prime = complex_values(rng, 10007, np.complex128)
    measurements = [  # (name, elements, calls, function)
        ("numpy_fft_2^20_complex64", 1 << 20, 4, lambda: np.fft.fft(c64)),
        ("numpy_rfft_2^22_float32", 1 << 22, 2, lambda: np.fft.rfft(f32)),
        ("numpy_fft_10007_complex128", 10007, 50, lambda: np.fft.fft(prime)),
    ]
    print("# threads numpy 1")
    print_medians(measurements, rounds)


if __name__ == "__main__":
    main()
