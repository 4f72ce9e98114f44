#!/usr/bin/env bash
# Installs what is missing (NumPy for the comparison comes with the setup's .venv), builds the
# benchmarks and runs them: the array-math table (xparray, a STREAM-like ceiling, Eigen and NumPy),
# then the pool's, then the run-time kernels', then matrix products (xparray, direct CBLAS, NumPy).
source "$(dirname "$0")/common.sh"
build "$XP_PRESET" array_bench pool_bench kernel_bench gemm_bench >/dev/null
.venv/bin/python3 bench/run_benchmarks.py "build/$XP_PRESET/bench/array_bench"
echo
"build/$XP_PRESET/bench/pool_bench"
echo
"build/$XP_PRESET/bench/kernel_bench"
echo
.venv/bin/python3 bench/run_gemm_benchmarks.py "build/$XP_PRESET/bench/gemm_bench"
