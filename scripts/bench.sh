#!/usr/bin/env bash
# Installs what is missing (NumPy for the comparison comes with the setup's .venv), builds the
# benchmarks and runs them: the array-math table (xparray, a STREAM-like ceiling, Eigen and NumPy),
# then sorting, scans and searches (xparray, NumPy, the copy ceiling), then .npy files beside write(2) and
# read(2), then the pool's, then the
# run-time kernels', then matrix products (xparray, direct CBLAS, NumPy), then
# one training step beside MXNet 1.9.1's Gluon and PyTorch's (both from PyPI, in .bench-venv: MXNet 1.9.1
# needs a NumPy older than 1.24, so they stay out of the tests' .venv), then the executor manager's step,
# then allreduce across 2 processes under mpirun beside OpenMPI's own.
# --plot: also draws the array and matrix-product tables as PNG charts into build/plots (matplotlib,
# installed into .venv when missing).
source "$(dirname "$0")/common.sh"
plot=()
if [ "${1:-}" = "--plot" ]; then
  plot=(--plot build/plots)
  if ! .venv/bin/python3 -c "import matplotlib" 2>/dev/null; then
    echo "bench: installing matplotlib into .venv"
    .venv/bin/python3 -m pip install --quiet matplotlib
  fi
fi
build "$XP_PRESET" array_bench sort_bench index_bench ufunc_bench random_bench linalg_bench fft_bench file_bench pool_bench kernel_bench fuse_bench gemm_bench train_bench manager_bench dist_bench xp_write_params >/dev/null
.venv/bin/python3 bench/run_benchmarks.py "build/$XP_PRESET/bench/array_bench" "${plot[@]}"
echo
.venv/bin/python3 bench/run_sort_benchmarks.py "build/$XP_PRESET/bench/sort_bench"
echo
.venv/bin/python3 bench/run_index_benchmarks.py "build/$XP_PRESET/bench/index_bench"
echo
.venv/bin/python3 bench/run_ufunc_benchmarks.py "build/$XP_PRESET/bench/ufunc_bench"
echo
.venv/bin/python3 bench/run_random_benchmarks.py "build/$XP_PRESET/bench/random_bench"
echo
.venv/bin/python3 bench/run_linalg_benchmarks.py "build/$XP_PRESET/bench/linalg_bench"
echo
.venv/bin/python3 bench/run_fft_benchmarks.py "build/$XP_PRESET/bench/fft_bench"
echo
"build/$XP_PRESET/bench/file_bench"
echo
"build/$XP_PRESET/bench/pool_bench"
echo
"build/$XP_PRESET/bench/kernel_bench"
echo
"build/$XP_PRESET/bench/fuse_bench"
echo
.venv/bin/python3 bench/run_gemm_benchmarks.py "build/$XP_PRESET/bench/gemm_bench" "${plot[@]}"
echo
if ! .bench-venv/bin/python3 -c "import mxnet, torch" 2>/dev/null; then
  echo "bench: installing mxnet 1.9.1 and torch into .bench-venv (several GB: PyPI's torch is its CUDA build)"
  python3 -m venv .bench-venv
  .bench-venv/bin/python3 -m pip install --quiet "mxnet==1.9.1" "numpy<1.24" torch
fi
.venv/bin/python3 bench/run_train_benchmarks.py "build/$XP_PRESET/bench/train_bench" --python .bench-venv/bin/python3
# The other direction of the parameter-file check (the unit tests load files MXNet 1.9.1 wrote).
params=$(mktemp --suffix=.params)
"build/$XP_PRESET/tests/xp_write_params" "$params"
.bench-venv/bin/python3 tests/mxnet/check_params.py "$params"
rm -f "$params"
"build/$XP_PRESET/bench/manager_bench" --rounds 3
echo
tests/dist/mpirun.sh 2 "build/$XP_PRESET/bench/dist_bench"
