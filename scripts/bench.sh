#!/usr/bin/env bash
# Installs what is missing, builds the benchmarks and runs them.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
cmake --preset "$XP_PRESET" >/dev/null
cmake --build --preset "$XP_PRESET" --target pool_bench
"build/$XP_PRESET/bench/pool_bench"
