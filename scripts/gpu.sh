#!/usr/bin/env bash
# One command on a machine with an NVIDIA GPU, from the repository root with .gpu-kit/ beside it (made
# here by scripts/gpu-kit.sh): nothing is built there. It unpacks the kit's build and run-time libraries
# into private folders, then runs, most valuable first, each step under a fixed cap in seconds: the GPU
# test cases; compute-sanitizer memcheck + initcheck + synccheck, then racecheck and memcheck + initcheck
# without the pool; DLPack with CuPy and PyTorch; xp::dist (NCCL over MPI); the GPU benchmarks beside
# CuPy; the NumPy differential test; the fault sweeps without the pool; the whole suite with what is left.
# A step whose cap no longer fits the budget (XP_GPU_BUDGET, 540 s) is skipped with a note; XP_GPU_STEPS
# (names from the plan, space-separated) runs only those.
# Into $XP_GPU_OUT (default build/gpu-report) go two files, both rewritten after every step, so that a run
# killed at any moment returns what it did: summary.txt and logs.tar.gz (every step's log).
# Without a GPU it is the dry run: the same steps with the GPU ones skipped, no time limits, the plan
# printed (scripts/gpu-rehearse.sh runs it with this machine's own libraries hidden).
# Installs nothing over /.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
kit=$repo/.gpu-kit
prefix=$repo/build/gpu-kit-root
# The kit's build goes beside this checkout's own (build/cuda), never over it: a dry run in a working
# checkout must not delete the developer's build.
build=$repo/build/gpu-run
out=${XP_GPU_OUT:-build/gpu-report}
mkdir -p "$out" && out=$(cd "$out" && pwd)
logs=$repo/build/gpu-logs
rm -rf "$logs" "$out/summary.txt" "$out/logs.tar.gz"
mkdir -p "$logs"
triplet=$(uname -m)-linux-gnu
export PYTHONUNBUFFERED=1
# The Python with NumPy (and, on a GPU machine, CuPy and PyTorch): XP_GPU_PYTHON, else python3.
python=${XP_GPU_PYTHON:-python3}
source "$repo/scripts/gpu_steps.sh" || exit 1

# --- The machine ---------------------------------------------------------------------------------------
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
gpus=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L | grep -c '^GPU ' || true)
fi
header "xparray GPU verification, $(date -u '+%Y-%m-%d %H:%M UTC'), checkout of $(git rev-parse --short HEAD 2>/dev/null || echo 'a commit unknown here (no .git)')"
header "host: $(nproc) cores, $(uname -m), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
header "nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found'); kit built from $(head -2 "$kit/BUILT" 2>/dev/null | paste -sd ';' -)"
if ((gpus > 0)); then
  header "$(nvidia-smi --query-gpu=index,name,compute_cap,memory.total,driver_version --format=csv,noheader | sed 's/^/gpu: /')"
  budget=${XP_GPU_BUDGET:-540}
else
  header "NO GPU on this machine: a dry run (GPU steps skipped, no time limits; the caps below are the plan)."
  budget=0
fi
plan

# --- 1. The kit ----------------------------------------------------------------------------------------
step kit unpack_kit || finish
setup_environment || finish

# --- 2. The GPU cases ----------------------------------------------------------------------------------
tests=$build/tests/xp_tests
count() { "$tests" --count "$@" | grep -o '[0-9]*$' || echo 0; }
gpu_cases=$(count --test-suite=gpu --no-skip)
gpu_active=$(count --test-suite=gpu)
note "tests: GPU cases $gpu_active of $gpu_cases active; multi-GPU cases: $(count --test-suite=multi-gpu --no-skip), active $(count --test-suite=multi-gpu)"
if ((gpus > 0 && gpu_active != gpu_cases)); then
  fail gpu-cases-skipped "a GPU is present but $((gpu_cases - gpu_active)) of the $gpu_cases GPU test cases skip (xp::num_gpus() sees none?)"
fi
if ((gpus > 0)) && asked_for gpu-tests; then
  step gpu-tests "$tests" --test-suite=gpu --duration=true
  note "gpu-tests: $(doctest_totals gpu-tests)"
fi
# The program's own kernels through the shared library (xp_tests links the library's objects instead).
user_module=$build/tests/xp_user_module_tests
if ((gpus > 0)) && asked_for user-module; then
  step user-module "$user_module" --duration=true
  note "user-module: $(doctest_totals user-module)"
  if [ "$("$user_module" --count --test-suite=gpu | grep -o '[0-9]*$')" = 0 ]; then
    fail user-module-skipped "a GPU is present but xp_user_module_tests has no active GPU case"
  fi
fi

# --- 3. compute-sanitizer ------------------------------------------------------------------------------
if ((gpus > 0)) && { asked_for sanitize-1 || asked_for sanitize-2; }; then
  if probe_sanitizer; then
    sanitize sanitize-1 memcheck initcheck synccheck
    sanitize sanitize-2 racecheck/4 memcheck:nopool initcheck:nopool
  fi
elif ((gpus == 0)); then
  note "compute-sanitizer: skipped (no GPU)"
fi

# --- 4. DLPack with CuPy and PyTorch; xp::dist ---------------------------------------------------------
if ((gpus > 0)) && asked_for dlpack-gpu; then
  step dlpack-gpu "$python" tests/dlpack/gpu_exchange.py "$build/tests/libxp_dlpack_exchange.so"
  note "DLPack with CuPy / PyTorch: $(grep -h 'skipped\|FAILED\|GPU DLPack exchange:' "$logs/dlpack-gpu.log" | paste -sd ';')"
elif ((gpus == 0)); then
  note "dlpack-gpu: skipped (no GPU)"
fi
# One process per GPU, two at most (NCCL refuses two ranks on one GPU); two in the dry run, where the
# kit's mpirun and PMIx are what is tried.
ranks=$((gpus > 1 ? 2 : gpus == 1 ? 1 : 2))
if asked_for dist; then
  step dist env XP_MPIRUN_LIMIT="$(cap_of dist)" tests/dist/mpirun.sh "$ranks" "$build/tests/xp_dist_tests" \
    --no-colors --duration=true
  note "dist, $ranks process(es): $(grep -h '^\[doctest\] test cases:' "$logs/dist.log" | sed 's/^\[doctest\] //' | paste -sd ';')"
  nccl_case="dist: GPU arrays through NCCL"
  if ((gpus > 0)) && ! grep -q "^[0-9.]* s: $nccl_case" "$logs/dist.log"; then
    fail dist-nccl-skipped "a GPU is present but the case \"$nccl_case ...\" did not run (dist.log)"
  fi
fi

# --- 5. Benchmarks beside CuPy -------------------------------------------------------------------------
if ((gpus > 0)) && asked_for bench; then
  step bench "$python" bench/run_gpu_benchmarks.py "$build/bench/gpu_bench"
  [ -f "$logs/bench.log" ] && { echo; grep -v '^running ' "$logs/bench.log"; } >>"$logs/summary.body"
elif ((gpus == 0)); then
  note "bench: skipped (no GPU)"
fi

# --- 6. The rest ---------------------------------------------------------------------------------------
if asked_for differential; then
  step differential bash -c '"$1" tests/differential/generate.py --seed 1 --count 3000 --out "$2" && "$3" "$2"' \
    _ "$python" "$logs/differential-cases.txt" "$build/tests/xp_differential"
  note "differential: $(grep -h '^xp_differential:' "$logs/differential.log" | tail -1)"
fi
if asked_for faults; then
  step faults env XP_DISABLE_POOL=1 "$tests" --test-suite=faults
  note "faults (no pool): $(doctest_totals faults)"
fi
if asked_for whole-suite; then
  step whole-suite "$tests"
  note "whole suite: $(doctest_totals whole-suite)"
fi
finish
