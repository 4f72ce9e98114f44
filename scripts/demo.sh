#!/usr/bin/env bash
# Installs what is missing, configures, builds and runs the demo: the d2l "GPU computing" chapter.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
source scripts/env.sh
cmake --preset "$XP_PRESET" >/dev/null
cmake --build --preset "$XP_PRESET" --target gpu_computing
exec "build/$XP_PRESET/examples/gpu_computing"
