#!/usr/bin/env bash
# One command on a machine with an NVIDIA GPU, run from the repository root with .gpu-kit/ beside it
# (made here by scripts/gpu-kit.sh): unpacks the kit into a private prefix; builds the CUDA preset for
# the GPU present with all cores; runs the whole test suite with the GPU cases active, failing if a GPU
# case skipped; runs the GPU cases under compute-sanitizer (memcheck, racecheck, synccheck, initcheck);
# runs the GPU benchmarks beside CuPy. Writes summary.txt and one log per step into $XP_GPU_OUT
# (default build/gpu-report). On a machine without a GPU it says so, skips the sanitizer and benchmark
# steps, and passes when the rest does: the dry run. Installs nothing over /.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$PWD
kit=$repo/.gpu-kit
prefix=$repo/build/gpu-kit-root
build_dir=build/gpu
out=${XP_GPU_OUT:-build/gpu-report}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/*.log "$out/summary.txt"
summary=$out/summary.txt
triplet=$(uname -m)-linux-gnu
started=$(date +%s.%N)
# With a GPU the whole run must fit one 10-minute call: the steps that can run long get a share of
# this budget (0: no limits, the default for the dry run, whose build alone takes longer on few cores).
budget=${XP_GPU_BUDGET:-570}
failed=()
timings=()

note() {
  echo "gpu.sh: $*"
  echo "$*" >>"$summary"
}
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# allowance CAP RESERVE: the seconds a step may take: CAP, or less so that RESERVE seconds of the budget
# are left for the steps after it (30 at least); 0 (no limit) without a budget.
allowance() {
  ((budget)) || { echo 0; return; }
  local left=$((budget - SECONDS - $2))
  ((left < $1)) || left=$1
  echo $((left > 30 ? left : 30))
}
# limited SECONDS COMMAND...: COMMAND, stopped when it runs longer.
limited() { timeout --kill-after=10 "$@"; }

# record NAME START STATUS: keeps a step's wall time; a failure is reported with the end of its log.
record() {
  local name=$1 start=$2 status=$3
  timings+=("$(printf '%-18s %7s s  %s' "$name" "$(seconds_since "$start")" "$( ((status)) && echo FAILED || echo ok)")")
  if ((status)); then
    failed+=("$name")
    echo "gpu.sh: $name FAILED (exit $status$( ((status == 124)) && echo ': out of time')); the end of $out/$name.log:"
    tail -n 40 "$out/$name.log"
  fi
  return "$status"
}

# step NAME COMMAND...: runs COMMAND with its output in $out/NAME.log, in a child shell where set -e
# holds (it would not in a function called from an || list).
step() {
  local name=$1 start status=0
  shift
  start=$(date +%s.%N)
  echo "gpu.sh: $name ..."
  ("$@") >"$out/$name.log" 2>&1 &
  wait $! || status=$?
  record "$name" "$start" "$status"
}

finish() {
  {
    echo
    echo "steps (wall time):"
    printf '  %s\n' "${timings[@]}"
    echo "  total        $(seconds_since "$started") s"
  } >>"$summary"
  echo
  echo "===== $summary"
  cat "$summary"
  if ((${#failed[@]})); then
    echo "gpu.sh: FAILED: ${failed[*]} (logs in $out)"
    exit 1
  fi
  echo "gpu.sh: passed (logs in $out)"
  exit 0
}

# --- The machine -------------------------------------------------------------------------------------
if ! command -v nvcc >/dev/null 2>&1 && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH="/usr/local/cuda/bin:$PATH"
fi
gpus=0
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  gpus=$(nvidia-smi -L | grep -c '^GPU ' || true)
fi
{
  echo "xparray GPU verification, $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "host: $(nproc) cores, $(uname -m), $(. /etc/os-release 2>/dev/null && echo "$PRETTY_NAME")"
  echo "nvcc: $(nvcc --version 2>/dev/null | grep -o 'release [0-9.]*' || echo 'not found')"
  echo "cmake: $(cmake --version | head -1), ninja $(ninja --version 2>/dev/null || echo 'not found'), $(c++ --version | head -1)"
} >"$summary"
if ((gpus > 0)); then
  nvidia-smi --query-gpu=index,name,compute_cap,memory.total,driver_version --format=csv,noheader |
    sed 's/^/gpu: /' >>"$summary"
  capabilities=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | tr -d '. ' | sort -u | tr '\n' ' ')
else
  note "NO GPU on this machine: a dry run. The sanitizer and GPU benchmark steps are skipped;" \
    "the GPU test cases are registered and skip."
  capabilities=""
  budget=${XP_GPU_BUDGET:-0}
fi
architectures=$(printf '%s\n' 80 90 $capabilities | sort -un | paste -sd ';')
note "CUDA architectures: $architectures"

# --- 1. The kit: Debian packages unpacked into a private prefix ---------------------------------------
unpack_kit() {
  [ -f "$kit/MANIFEST" ] || { echo "no $kit/MANIFEST: run scripts/gpu-kit.sh where apt works, carry .gpu-kit"; exit 1; }
  local stamp="$prefix/unpacked-from"
  if ! { cat "$kit/MANIFEST"; echo "$prefix"; } | cmp -s - "$stamp"; then
    rm -rf "$prefix"
    mkdir -p "$prefix"
    while read -r deb; do
      if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -x "$kit/debs/$deb" "$prefix"
      else  # a .deb is an ar archive holding data.tar.*
        (cd "$prefix" && ar p "$kit/debs/$deb" "$(ar t "$kit/debs/$deb" | grep '^data\.tar')" | tar -xa)
      fi
      echo "unpacked $deb"
    done <"$kit/MANIFEST"
    # Some packages' CMake and pkg-config files name /usr itself (doctest's does): point them here.
    grep -rlZ --include='*.cmake' -e 'set(_IMPORT_PREFIX "/usr")' "$prefix" |
      xargs -0 -r sed -i "s|set(_IMPORT_PREFIX \"/usr\")|set(_IMPORT_PREFIX \"$prefix/usr\")|"
    grep -rlZ --include='*.pc' -e '=/usr' "$prefix" | xargs -0 -r sed -i -E "s#=/usr(/|\$)#=$prefix/usr\1#"
    { cat "$kit/MANIFEST"; echo "$prefix"; } >"$stamp"
  fi
  # Run-time libraries this machine lacks, and only those: the kit's copies of what the system has
  # (the C library's neighbours, OpenSSL, zlib) must not shadow the system's for other programs.
  rm -rf "$prefix/missing-libs"
  mkdir -p "$prefix/missing-libs"
  local known soname
  known=$(ldconfig -p | awk 'NR > 1 { print $1 }' | sort -u)
  for lib in "$prefix/usr/lib/$triplet"/lib*.so* "$prefix/lib/$triplet"/lib*.so*; do
    [ -f "$lib" ] && [ ! -L "$lib" ] || continue
    soname=$(readelf -d "$lib" | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    if [ -n "$soname" ] && ! grep -qxF "$soname" <<<"$known"; then
      ln -sf "$lib" "$prefix/missing-libs/$soname"
      echo "missing here, taken from the kit: $soname"
    elif [[ $soname =~ ^lib(mpi|open-pal|open-rte|mca_common_) ]]; then
      # OpenMPI's own libraries always come from the kit: libmpi, mpirun and the plugins are one build.
      ln -sf "$lib" "$prefix/missing-libs/$soname"
      echo "OpenMPI, taken from the kit: $soname"
    fi
  done
}
step kit unpack_kit || finish
export LD_LIBRARY_PATH="$prefix/missing-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if ! command -v openssl >/dev/null 2>&1; then  # the HTTPS download tests make a certificate with it
  export PATH="$PATH:$prefix/usr/bin" OPENSSL_CONF="$prefix/etc/ssl/openssl.cnf"
fi
# The kit's OpenMPI, moved into the prefix (OPAL_PREFIX), with Debian's settings file (which keeps UCX and
# verbs out of a run on one machine); mpirun and mpicxx by their usual names.
export OPAL_PREFIX=$prefix/usr OMPI_MCA_mca_base_param_files=$prefix/etc/openmpi/openmpi-mca-params.conf
mkdir -p "$prefix/mpi-bin"
ln -sf "$prefix/usr/bin/mpirun.openmpi" "$prefix/mpi-bin/mpirun"
ln -sf "$prefix/usr/bin/mpicxx.openmpi" "$prefix/mpi-bin/mpicxx"
export PATH="$prefix/mpi-bin:$PATH"
note "kit: $(wc -l <"$kit/MANIFEST") packages in $prefix; $(find "$prefix/missing-libs" -type l | wc -l) run-time libraries come from it (those missing here, and OpenMPI's)"

# --- 2. Configure and build ---------------------------------------------------------------------------
# Warnings do not stop this build (another compiler may warn differently): they are counted instead.
configure() {
  cmake --preset gpu \
    -DCMAKE_PREFIX_PATH="$prefix/usr" \
    -DOPENSSL_ROOT_DIR="$prefix/usr" \
    -DCMAKE_CXX_STANDARD_INCLUDE_DIRECTORIES="$prefix/usr/include/$triplet" \
    -DCMAKE_CUDA_ARCHITECTURES="$architectures" \
    -DXP_MPI=ON -DMPI_CXX_COMPILER="$prefix/mpi-bin/mpicxx"
}
step configure configure || finish
step build cmake --build --preset gpu --parallel "$(nproc)" || finish
note "build: $(grep -c 'warning:' "$out/build.log" || true) compiler warnings (build.log)"

# --- 3. The whole test suite, GPU cases active -------------------------------------------------------
tests=$build_dir/tests/xp_tests
export XP_CACHE_DIR="$repo/$build_dir/kernel-cache"
count() { "$tests" --count "$@" | grep -o '[0-9]*$' || echo 0; }
gpu_cases=$(count --test-suite=gpu --no-skip)
gpu_active=$(count --test-suite=gpu)
note "tests: GPU cases $gpu_active of $gpu_cases active; multi-GPU cases: $(count --test-suite=multi-gpu --no-skip), active $(count --test-suite=multi-gpu)"
if ((gpus > 0 && gpu_active != gpu_cases)); then
  note "FAILED: a GPU is present but $((gpu_cases - gpu_active)) of the $gpu_cases GPU test cases skip (xp::num_gpus() sees none?)"
  failed+=(gpu-cases-skipped)
fi
step tests limited "$(allowance 240 180)" "$tests" || true
note "tests: $(grep -h '^\[doctest\] test cases:' "$out/tests.log" | tail -1 | sed 's/^\[doctest\] //')"
# The NumPy differential test's cases (as the test command draws them), on cpu(0) and gpu(0).
step differential limited "$(allowance 60 120)" bash -c \
  'python3 tests/differential/generate.py --seed 1 --count 3000 --out "$1" && "$2" "$1"' \
  _ "$out/differential-cases.txt" "$build_dir/tests/xp_differential" || true
note "differential: $(grep -h '^xp_differential:' "$out/differential.log" | tail -1)"
# xp::dist under the kit's mpirun: one process per GPU, two at most (one without a GPU, where the NCCL
# case skips, as do the cases that need two processes). With a GPU present the NCCL case must have run
# (--duration names every case that ran).
ranks=$((gpus > 1 ? 2 : 1))
nccl_case="dist: GPU arrays through NCCL"
step dist env XP_MPIRUN_LIMIT="$(allowance 60 120)" \
  tests/dist/mpirun.sh "$ranks" "$build_dir/tests/xp_dist_tests" --no-colors --duration=true || true
note "dist, $ranks process(es): $(grep -h '^\[doctest\] test cases:' "$out/dist.log" | sed 's/^\[doctest\] //' | paste -sd ';')"
if ((gpus > 0)) && ! grep -q "^[0-9.]* s: $nccl_case" "$out/dist.log"; then
  note "FAILED: a GPU is present but the case \"$nccl_case ...\" did not run (dist.log)"
  failed+=(dist-nccl-skipped)
fi

# DLPack with the machine's CuPy and PyTorch (those installed), both ways, on gpu(0).
if ((gpus > 0)); then
  step dlpack-gpu limited "$(allowance 60 100)" \
    python3 tests/dlpack/gpu_exchange.py "$repo/$build_dir/tests/libxp_dlpack_exchange.so" || true
  note "DLPack with CuPy / PyTorch: $(grep -h 'skipped\|FAILED\|GPU DLPack exchange:' "$out/dlpack-gpu.log" | paste -sd ';')"
fi

# --- 4. The GPU cases under compute-sanitizer ---------------------------------------------------------
sanitize() {
  local tool=$1 seconds=$2 sanitizer
  sanitizer=$(command -v compute-sanitizer || echo "$(dirname "$(command -v nvcc)")/compute-sanitizer")
  # Pools keep memory for reuse by design, so leaks are not checked; everything reported is a finding.
  limited "$seconds" "$sanitizer" --tool "$tool" --error-exitcode 99 --print-limit 200 "$tests" --test-suite=gpu
}
tools=(memcheck racecheck synccheck initcheck)
if ((gpus > 0)); then
  echo "gpu.sh: compute-sanitizer ${tools[*]}, at once ..."
  start=$(date +%s.%N)
  seconds=$(allowance 240 100)
  declare -A pids=()
  for tool in "${tools[@]}"; do
    (sanitize "$tool" "$seconds") >"$out/sanitize-$tool.log" 2>&1 &
    pids[$tool]=$!
  done
  for tool in "${tools[@]}"; do
    status=0
    wait "${pids[$tool]}" || status=$?
    record "sanitize-$tool" "$start" "$status" || true
  done
  for tool in "${tools[@]}"; do
    log=$out/sanitize-$tool.log
    note "compute-sanitizer $tool: $(grep -hE '(ERROR|RACECHECK) SUMMARY' "$log" | sed 's/^=* *//' | paste -sd ';')," \
      "tests: $(grep -h '^\[doctest\] test cases:' "$log" | sed 's/^\[doctest\] //')"
    # racecheck's possible hazards are warnings, which do not set the exit code: count every finding.
    findings=$(grep -ohE 'ERROR SUMMARY: [0-9]+ error|[0-9]+ hazards? displayed' "$log" | grep -oE '[0-9]+' |
      awk '{ n += $1 } END { print n + 0 }')
    if ((findings > 0)); then
      note "FAILED: compute-sanitizer $tool reported $findings findings ($log)"
      failed+=("sanitize-$tool-findings")
    fi
  done
else
  note "compute-sanitizer: skipped (no GPU)"
fi

# --- 5. GPU benchmarks beside CuPy --------------------------------------------------------------------
if ((gpus > 0)); then
  step bench limited "$(allowance 180 0)" python3 bench/run_gpu_benchmarks.py "$build_dir/bench/gpu_bench" || true
  if [ -f "$out/bench.log" ]; then
    echo >>"$summary"
    cat "$out/bench.log" >>"$summary"
  fi
else
  note "GPU benchmarks: skipped (no GPU)"
fi
finish
