"""CuPy on the same GPU: the peer of bench/gpu_bench.cpp, the same measurements under the same names,
printed as "name elements seconds" (medians over repeats). Device work is timed with CUDA events on
the null stream, host costs on the host clock. CuPy's nearest to a fused functor is an
ElementwiseKernel, so "kernel_sqdiff" is the peer of both xparray rows."""
import os
import shutil
import statistics
import tempfile
import time

# A private kernel cache, set before CuPy reads it: the first calls really compile.
CACHE = tempfile.mkdtemp(prefix="cupy-gpu-bench-")
os.environ["CUPY_CACHE_DIR"] = CACHE

import cupy as cp  # noqa: E402
import cupyx  # noqa: E402
import numpy as np  # noqa: E402


def emit(name, elements, seconds):
    print(f"{name} {elements} {seconds:.6e}", flush=True)


def synchronize():
    cp.cuda.Device().synchronize()


def device_copy(dst, src):
    """The ceiling: the runtime's own device-to-device copy, on the null stream."""
    cp.cuda.runtime.memcpyAsync(dst.data.ptr, src.data.ptr, src.nbytes, cp.cuda.runtime.memcpyDeviceToDevice, 0)


def device_seconds(calls, f):
    """Seconds per call on the device: events around `calls` calls, median of 15 after a warm-up."""
    for _ in range(3):
        f()
    samples = []
    for _ in range(15):
        start, end = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        for _ in range(calls):
            f()
        end.record()
        end.synchronize()
        samples.append(1e-3 * cp.cuda.get_elapsed_time(start, end) / calls)
    return statistics.median(samples)


def host_seconds(f, calls=100):
    """Host seconds per call: batches of 100 calls, the device drained between batches."""
    samples = []
    for batch in range(51):
        synchronize()
        start = time.perf_counter()
        for _ in range(calls):
            f()
        if batch > 0:  # the first batch warms up
            samples.append((time.perf_counter() - start) / calls)
    synchronize()
    return statistics.median(samples)


def wall_seconds(repeats, f):
    """Wall seconds of f with the device work it queues, median of `repeats`."""
    samples = []
    for _ in range(repeats):
        synchronize()
        start = time.perf_counter()
        f()
        synchronize()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def bandwidth(squared_diff):
    for power in range(20, 29):
        n = 1 << power
        x, y = cp.random.random(n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
        z = cp.empty(n, dtype=cp.float32)
        calls = 50 if power < 24 else 5
        emit("copy", n, device_seconds(calls, lambda: device_copy(z, x)))
        emit("kernel_sqdiff", n, device_seconds(calls, lambda: squared_diff(x, y, z)))
        emit("sum", n, device_seconds(calls, lambda: x.sum()))
        del x, y, z
    rows = 4096
    m = cp.random.random((rows, rows), dtype=cp.float32)
    copy = cp.empty_like(m)
    emit("copy_4096x4096", rows * rows, device_seconds(20, lambda: device_copy(copy, m)))
    emit("sum_all_4096x4096", rows * rows, device_seconds(20, lambda: m.sum()))
    emit("sum_axis0_4096x4096", rows * rows, device_seconds(20, lambda: m.sum(axis=0)))
    emit("sum_axis1_4096x4096", rows * rows, device_seconds(20, lambda: m.sum(axis=1)))
    other = cp.random.random((rows, rows), dtype=cp.float32)
    emit("matmul_4096", rows * rows, device_seconds(10, lambda: cp.matmul(m, other, out=copy)))


def two_byte_floats():
    """gpu_bench's 2-byte rows: a float16 subtract at 2^26, float16 products of 4096 by CuPy, and bfloat16's
    by PyTorch (CuPy has no bfloat16), each into an existing array."""
    n, rows = 1 << 26, 4096
    x, y = cp.random.random(n, dtype=cp.float32).astype(cp.float16), cp.random.random(n, dtype=cp.float32).astype(cp.float16)
    z = cp.empty(n, dtype=cp.float16)
    emit("subtract_float16", n, device_seconds(20, lambda: cp.subtract(x, y, out=z)))
    del x, y, z
    a, b = (cp.random.random((rows, rows), dtype=cp.float32).astype(cp.float16) for _ in range(2))
    c = cp.empty((rows, rows), dtype=cp.float16)
    emit("matmul_4096_float16", rows * rows, device_seconds(10, lambda: cp.matmul(a, b, out=c)))
    del a, b, c
    try:
        import torch
    except ImportError:
        return
    a, b = (torch.rand((rows, rows), device="cuda").to(torch.bfloat16) for _ in range(2))
    c = torch.empty((rows, rows), device="cuda", dtype=torch.bfloat16)
    torch.cuda.synchronize()
    emit("matmul_4096_bfloat16", rows * rows, device_seconds(10, lambda: torch.matmul(a, b, out=c)))


def fused_expression():
    """gpu_bench's fused row: cupy.fuse of exp(z + 2) * y at 2^24 float32, a new array each call."""
    n = 1 << 24
    z, y = cp.random.uniform(-1, 1, n, dtype=cp.float32), cp.random.random(n, dtype=cp.float32)
    fused = cp.fuse(lambda a, b: cp.exp(a + 2) * b)
    fused(z, y)
    emit("fused_exp_chain", n, device_seconds(20, lambda: fused(z, y)))


def sorting():
    """gpu_bench's sorting rows at 2^26: new arrays each call."""
    n = 1 << 26
    x = cp.random.random(n, dtype=cp.float32)
    emit("sort_float32", n, device_seconds(5, lambda: cp.sort(x)))
    emit("argsort_float32", n, device_seconds(5, lambda: cp.argsort(x)))
    emit("cumsum_float32", n, device_seconds(10, lambda: cp.cumsum(x)))
    repeated = cp.random.randint(0, 1 << 16, n, dtype=cp.int32)
    emit("unique_int32", n, device_seconds(5, lambda: cp.unique(repeated)))


def random_numbers():
    """gpu_bench's random rows at 2^26: CuPy's Generator, new arrays each call."""
    n = 1 << 26
    rng = cp.random.default_rng(1)
    emit("standard_normal_float32", n, device_seconds(10, lambda: rng.standard_normal(n, dtype=cp.float32)))


def indexing():
    """gpu_bench's indexing rows at 2^26: random int64 positions, a half-true mask, np.add.at's twin."""
    n = 1 << 26
    x = cp.random.random(n, dtype=cp.float32)
    positions = cp.random.randint(0, n, n, dtype=cp.int64)
    mask = x < 0.5
    target = cp.zeros(n, dtype=cp.float32)
    emit("gather_float32", n, device_seconds(10, lambda: x[positions]))
    emit("mask_float32", n, device_seconds(10, lambda: x[mask]))
    emit("scatter_add_float32", n, device_seconds(10, lambda: cupyx.scatter_add(target, positions, x)))


def captured_step():
    """20 operations on 8 elements captured once (Stream.begin_capture) and replayed: host time per operation."""
    x = cp.ones(8, dtype=cp.float32)
    stream = cp.cuda.Stream(non_blocking=True)

    def step():
        t = x
        for _ in range(20):
            t = t * cp.float32(1.0001)
        return t

    with stream:
        step()  # kernels compiled and blocks cached before the capture
        stream.begin_capture()
        try:
            step()
        finally:
            graph = stream.end_capture()
    emit("captured_20_ops_host", 20, host_seconds(lambda: graph.launch(stream)) / 20)
    with stream:
        emit("uncaptured_20_ops_host", 20, host_seconds(step) / 20)


def small_calls(squared_diff):
    a, b = cp.ones(8, dtype=cp.float32), cp.ones(8, dtype=cp.float32)
    out = cp.zeros(8, dtype=cp.float32)
    emit("add_n8_host", 8, host_seconds(lambda: cp.add(a, b, out=out)))
    emit("kernel_n8_host", 8, host_seconds(lambda: squared_diff(a, b, out)))
    captured_step()

    # First calls: a new kernel each time (the cache directory starts empty), then the same source
    # after clear_memo in a new kernel object, served by the disk cache.
    elementwise, reduction, disk = [], [], []
    for k in range(5):
        constant = k + 2
        source = ("T x, T y", "T z", f"z = (x - y) * (x - y) + {constant}", f"cold_{constant}")
        kernel = cp.ElementwiseKernel(*source)
        elementwise.append(wall_seconds(1, lambda: kernel(a, b, out)))
        norm = cp.ReductionKernel("T x", "T y", "x * x", "a + b", f"y = sqrt(a) + {constant}", "0",
                                  f"cold_norm_{constant}")
        reduction.append(wall_seconds(1, lambda: norm(a)))
        cp.clear_memo()
        again = cp.ElementwiseKernel(*source)
        disk.append(wall_seconds(1, lambda: again(a, b, out)))
    emit("first_call_elementwise", 8, statistics.median(elementwise))
    emit("first_call_reduction", 8, statistics.median(reduction))
    emit("first_call_disk_cache", 8, statistics.median(disk))

    pool = cp.get_default_memory_pool()
    for size in (512, 1 << 20, 64 << 20):
        samples = []
        for _ in range(9):
            start = time.perf_counter()
            for _ in range(20000):
                pool.malloc(size)  # freed back to the pool as the pointer object dies
            samples.append((time.perf_counter() - start) / 20000)
        emit("pool_pair", size, statistics.median(samples))


def transfers():
    n = 64 << 20  # 256 MiB of float32
    pageable = np.random.default_rng(1).random(n, dtype=np.float32)
    pinned = cupyx.empty_pinned(n, dtype=np.float32)
    pinned[...] = pageable
    on_gpu = cp.random.random(n, dtype=cp.float32)
    # Into arrays made beforehand, on both sides (bench/gpu_bench.cpp: copyto): the copies alone.
    target = cp.empty(n, dtype=cp.float32)
    host_target = np.empty(n, dtype=np.float32)
    pinned_target = cupyx.empty_pinned(n, dtype=np.float32)
    repeats = 7
    emit("to_gpu_pageable", n, wall_seconds(repeats, lambda: target.set(pageable)))
    emit("to_cpu_pageable", n, wall_seconds(repeats, lambda: on_gpu.get(out=host_target)))
    emit("to_gpu_pinned", n, wall_seconds(repeats, lambda: target.set(pinned)))
    emit("to_cpu_pinned", n, wall_seconds(repeats, lambda: on_gpu.get(out=pinned_target)))


def solvers_and_transforms():
    """gpu_bench's solver and FFT rows: new arrays each call."""
    a = cp.random.uniform(-1, 1, (1024, 1024)) + 1024 * cp.eye(1024)
    b = cp.random.uniform(-1, 1, 1024)
    emit("solve_1024_float64", 1024, device_seconds(5, lambda: cp.linalg.solve(a, b)))
    small = cp.random.uniform(-1, 1, (4096, 8, 8)).astype(cp.float32)
    symmetric = small + cp.swapaxes(small, -1, -2)
    emit("eigh_4096x8x8_float32", 4096, device_seconds(5, lambda: cp.linalg.eigh(symmetric)))
    c64 = (cp.random.uniform(-1, 1, 1 << 20) + 1j * cp.random.uniform(-1, 1, 1 << 20)).astype(cp.complex64)
    f32 = cp.random.uniform(-1, 1, 1 << 22).astype(cp.float32)
    prime = cp.random.uniform(-1, 1, 10007) + 1j * cp.random.uniform(-1, 1, 10007)
    emit("fft_2^20_complex64", 1 << 20, device_seconds(20, lambda: cp.fft.fft(c64)))
    emit("rfft_2^22_float32", 1 << 22, device_seconds(20, lambda: cp.fft.rfft(f32)))
    emit("fft_10007_complex128", 10007, device_seconds(50, lambda: cp.fft.fft(prime)))


def main():
    squared_diff = cp.ElementwiseKernel("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff")
    try:
        bandwidth(squared_diff)
        two_byte_floats()
        fused_expression()
        sorting()
        random_numbers()
        indexing()
        solvers_and_transforms()
        small_calls(squared_diff)
        transfers()
    finally:
        shutil.rmtree(CACHE, ignore_errors=True)


if __name__ == "__main__":
    main()
