#!/usr/bin/env bash
# Installs what is missing (NumPy from PyPI for the comparison), builds the benchmarks and runs
# them: the array-math table (xparray, a STREAM-like ceiling, Eigen and NumPy), then the pool's, then
# the run-time kernels'.
source "$(dirname "$0")/common.sh"
python3 -c "import numpy" 2>/dev/null || python3 -m pip install --quiet numpy
build "$XP_PRESET" array_bench pool_bench kernel_bench >/dev/null
python3 bench/run_benchmarks.py "build/$XP_PRESET/bench/array_bench"
echo
"build/$XP_PRESET/bench/pool_bench"
echo
"build/$XP_PRESET/bench/kernel_bench"
