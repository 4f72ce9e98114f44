#!/usr/bin/env bash
# Installs what is missing, builds the benchmarks and runs them.
source "$(dirname "$0")/common.sh"
build "$XP_PRESET" pool_bench >/dev/null
"build/$XP_PRESET/bench/pool_bench"
