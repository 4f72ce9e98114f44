#!/usr/bin/env bash
# Installs what is missing, configures, builds and runs the demo: the d2l "GPU computing" chapter.
source "$(dirname "$0")/common.sh"
build "$XP_PRESET" gpu_computing >/dev/null
exec "build/$XP_PRESET/examples/gpu_computing"
