#!/usr/bin/env bash
# Installs what is missing, then builds and runs every test twice: the release build (with the CUDA
# backend compiled by nvcc whenever the toolkit is here; GPU tests skip without a GPU), and a CPU-only
# Clang build under AddressSanitizer and UndefinedBehaviorSanitizer, which builds the fuzzers too (one
# build of the library for both). With CUDA, the two builds' libraries must define the same strong symbols
# (one ABI with and without CUDA), and the GPU kit is made and its dry run rehearsed with this machine's
# own libraries hidden (scripts/gpu-rehearse.sh). Then the unit tests and the allocation-failure sweeps
# under ThreadSanitizer (Clang), every fuzzer for a few seconds (scripts/fuzz.sh runs them longer), and the
# API reference, which fails on an undocumented public name. First of all, the C++ files' format
# (scripts/check_format.sh). The sanitizer builds keep line tables only (what their reports print), and
# TSan's library compiles at -O1 (about half the compiler time of -O2 with full debug information), the
# tests' own code at -O0. The unit suite runs in one process per core (scripts/unit_tests.sh); each
# sanitizer build runs in the background, niced, while the tests before it run.
source "$(dirname "$0")/common.sh"
# Each step's header says how long the run has taken so far: the times per step (issue 36's table).
say() { echo "=== $* (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

# The next build runs while the tests before it do (they leave a core idle much of the time), at the
# lowest priority so that the tests keep the cores they use; its output is printed when it is waited for.
# In a process group of its own, ended with the script (a failing step leaves no build running).
export -f build forget_headerless_objects
start_build() {
  background_preset=$1
  background_log=$(mktemp)
  setsid -w nice -n 19 bash -c 'build "$1"' _ "$background_preset" >"$background_log" 2>&1 &
  background_pid=$!
}
trap '[ -z "${background_pid:-}" ] || kill -- "-$background_pid" 2>/dev/null || true' EXIT
finish_build() {
  local status=0
  say "build: $background_preset (running in the background since the step before)"
  wait "$background_pid" || status=$?
  cat "$background_log"
  rm -f "$background_log"
  return "$status"
}
# The install test (a package built and consumed by four programs, 70 to 80 s) runs in the release build
# only: the sanitizer build installs the same files, and abi_compare.sh checks that its libraries define
# the release build's symbols.
run_tests() {
  say "tests: $1"
  export XP_CACHE_DIR="$PWD/build/$1/kernel-cache"  # run-time kernels stay out of ~/.cache
  scripts/unit_tests.sh "build/$1/tests/xp_tests"
  if [ "$1" = asan ]; then ctest --preset "$1" --exclude-regex '^(unit|install_and_consume)$'
  else ctest --preset "$1" --exclude-regex '^unit$'; fi
}

say "format"
scripts/check_format.sh
say "build: $XP_PRESET"
build "$XP_PRESET"
start_build asan
run_tests "$XP_PRESET"
finish_build
start_build tsan
run_tests asan
if [ "$XP_PRESET" = cuda ]; then
  say "ABI: the CPU-only build's libraries define what the CUDA build's do (scripts/abi_compare.sh)"
  scripts/abi_compare.sh build/asan build/cuda
  say "GPU kit and rehearsal (scripts/gpu-rehearse.sh)"
  if [ "$(id -u)" -eq 0 ]; then scripts/gpu-rehearse.sh; else echo "skipped: the rehearsal needs root"; fi
fi
finish_build
say "tests: tsan"
XP_CACHE_DIR="$PWD/build/tsan/kernel-cache" ctest --preset tsan --output-on-failure
say "fuzz: 10 s each"
scripts/fuzz.sh 10
say "docs"
scripts/docs.sh
say "all tests passed"
