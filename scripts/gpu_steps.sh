# Sourced by scripts/gpu.sh: the plan of steps with their caps, running a step under its cap, the summary
# and the archive of logs (both rewritten after every step), the kit's unpacking and environment, and
# compute-sanitizer's runs. Uses gpu.sh's variables: repo, kit, prefix, build, out, logs, triplet, gpus, budget.

# Seconds each step may take with a GPU, most valuable first, from the H100 runs of 2026-11-26 (kit 5 s,
# gpu-tests 32, memcheck + initcheck + synccheck of every gpu case 55, racecheck 90 s for the first 46
# cases in one process, dlpack 6, dist 2, bench 11, differential 1, faults 3, whole suite 49); the whole
# suite takes what is left of the 540-s budget (9 minutes of a 10-minute call): at least 110 s. gpu-tests
# grew to 45 s by the run of 1e45397 (36 s of it NVRTC compiling CuPy's reduction cases, each with CUB).
# The H100 run of 110ff41 (2026-11-27): kit 7, gpu-tests 46-57, sanitize-1 74, sanitize-2 149 (of its 150:
# raised to 180), dlpack 11, dist 3, bench 26-27 (with the sort and index rows), differential 3, faults
# 3, whole suite 78; 410 s in all.
declare -A caps=([kit]=20 [gpu-tests]=60 [user-module]=15 [sanitize-1]=100 [sanitize-2]=180 [dlpack-gpu]=20 [dist]=20 [bench]=45
  [differential]=15 [faults]=15)
step_order=(kit gpu-tests user-module sanitize-1 sanitize-2 dlpack-gpu dist bench differential faults whole-suite)
started=$(date +%s.%N)
failed=()
timings=()
: >"$logs/summary.head"
: >"$logs/summary.body"

elapsed() { awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }
header() { echo "$*" | tee -a "$logs/summary.head"; }
note() {
  echo "gpu.sh: $*"
  echo "$*" >>"$logs/summary.body"
}
fail() {
  failed+=("$1")
  note "FAILED: $2"
}
cap_of() { echo "${caps[$1]:-0}"; }
# XP_GPU_STEPS="bench user-module" runs those steps alone (and the kit's), for a second call on a lease
# that has too little time left for the whole run.
asked_for() { [ -z "${XP_GPU_STEPS:-}" ] || [ "$1" = kit ] || [[ " $XP_GPU_STEPS " == *" $1 "* ]]; }

plan() {
  local name line="plan (cap in s):"
  for name in "${step_order[@]}"; do
    if [ -n "${caps[$name]:-}" ]; then line+=" $name ${caps[$name]},"; else line+=" $name: what is left"; fi
  done
  header "$line; budget $( ((budget)) && echo "$budget s" || echo 'none (dry run)')"
  [ -z "${XP_GPU_STEPS:-}" ] || header "XP_GPU_STEPS: only kit $XP_GPU_STEPS"
}

# The summary: the header, what the steps noted, their times so far, and the step now running (if any).
write_summary() {
  local running=${1:-}
  {
    cat "$logs/summary.head"
    echo
    cat "$logs/summary.body"
    echo
    echo "steps (wall time):"
    printf '  %s\n' "${timings[@]}"
    [ -z "$running" ] || echo "  $running"
    echo "  elapsed $(elapsed) s"
  } >"$out/summary.txt.tmp"
  mv "$out/summary.txt.tmp" "$out/summary.txt"
}

# Every log, the long ones cut to their first and last MiB, in one archive beside the summary.
archive_logs() {
  local log size
  for log in "$logs"/*.log; do
    [ -f "$log" ] || continue
    size=$(stat -c %s "$log")
    if ((size > 4 * 1048576)); then
      { head -c 1048576 "$log"; printf '\n[... %d bytes cut by gpu.sh ...]\n' "$((size - 4 * 1048576))"; tail -c 3145728 "$log"; } >"$log.cut"
      mv "$log.cut" "$log"
    fi
  done
  tar -czf "$out/logs.tar.gz.tmp" -C "$(dirname "$logs")" "$(basename "$logs")" && mv "$out/logs.tar.gz.tmp" "$out/logs.tar.gz"
}

# The lines of a failed step's log worth reading first.
failing_lines() {
  local log=$1
  if grep -qE 'ERROR|FAILED|[Ee]rror:|error while loading|not found|what\(\)' "$log"; then
    grep -m 20 -E 'ERROR|FAILED|[Ee]rror:|error while loading|not found|what\(\)' "$log"
  else
    tail -n 10 "$log"
  fi
}

# step NAME COMMAND...: COMMAND from the repository root with its output in $logs/NAME.log, stopped at
# the step's cap (or at what is left of the budget); skipped with a note when less than 15 s are left.
step() {
  local name=$1 cap allowed begin status=0
  shift
  if ! asked_for "$name"; then
    note "$name: not asked for (XP_GPU_STEPS=$XP_GPU_STEPS)"
    return 0
  fi
  cap=$(cap_of "$name")
  allowed=0
  if ((budget)); then
    allowed=$((budget - $(elapsed)))
    ((cap == 0 || cap > allowed)) || allowed=$cap
    if ((allowed < 15)); then
      note "$name: skipped, the budget is gone ($((budget - $(elapsed))) s left)"
      timings+=("$(printf '%-14s %6s s  skipped' "$name" 0)")
      write_summary
      return 0
    fi
  fi
  echo "gpu.sh: $name (cap $( ((allowed)) && echo "$allowed s" || echo none)) ..."
  write_summary "$name: running since $(elapsed) s, cap $( ((allowed)) && echo "$allowed s" || echo none)"
  begin=$(date +%s.%N)
  run_capped "$allowed" "$logs/$name.log" "$@" || status=$?
  record "$name" "$begin" "$status"
  return "$status"
}

# run_capped SECONDS LOG COMMAND...: COMMAND (a program or one of these functions) from the repository
# root in a process group of its own, ended with everything it started after SECONDS (0: never); 124
# when it ran out of time.
run_capped() {
  local seconds=$1 log=$2 pid watchdog status=0
  shift 2
  rm -f "$logs/.timed-out"
  set -m
  (cd "$repo" && "$@") >"$log" 2>&1 &
  pid=$!
  if ((seconds)); then
    (sleep "$seconds" && touch "$logs/.timed-out" && kill -TERM -- "-$pid" && sleep 5 && kill -KILL -- "-$pid") \
      >/dev/null 2>&1 &
    watchdog=$!
  fi
  wait "$pid" || status=$?
  if ((seconds)); then kill -- "-$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null; fi
  set +m
  if [ -f "$logs/.timed-out" ]; then
    rm -f "$logs/.timed-out"
    return 124
  fi
  return "$status"
}

# record NAME BEGIN STATUS: the step's time and verdict; a failure goes into the summary with its lines.
record() {
  local name=$1 status=$3 verdict=ok
  ((status == 0)) || verdict="FAILED ($( ((status == 124)) && echo 'out of time' || echo "exit $status"))"
  timings+=("$(printf '%-14s %6s s  %s' "$name" "$(awk -v a="$2" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')" "$verdict")")
  if ((status)); then
    failed+=("$name")
    note "$name: $verdict; from $name.log:"
    failing_lines "$logs/$name.log" | cut -c1-300 | sed 's/^/    /' >>"$logs/summary.body"
  fi
  write_summary
  archive_logs
}

doctest_totals() { grep -h '^\[doctest\] test cases:' "$logs/$1.log" 2>/dev/null | tail -1 | sed 's/^\[doctest\] //'; }

finish() {
  if ((${#failed[@]})); then
    note "VERDICT: FAILED: ${failed[*]}"
  else
    note "VERDICT: passed"
  fi
  write_summary
  archive_logs
  echo
  echo "===== $out/summary.txt"
  cat "$out/summary.txt"
  ((${#failed[@]} == 0))
  exit $?
}

# --- The kit -------------------------------------------------------------------------------------------
# The Debian packages into $prefix (once per kit), the build into $build, and links to the run-time
# libraries this machine lacks (by SONAME, per its linker cache) in $prefix/missing-libs. OpenMPI and PMIx
# always come from the kit (libmpi, mpirun, their plugins and PMIx are one build), and so does OpenBLAS (the
# library's BLAS is its OpenMP build, which shares the library's OpenMP threads).
unpack_kit() {
  local deb stamp=$prefix/unpacked-from
  for file in MANIFEST build.tar.xz; do
    [ -f "$kit/$file" ] || { echo "no $kit/$file: run scripts/gpu-kit.sh where apt and nvcc work, carry .gpu-kit"; return 1; }
  done
  cat "$kit/BUILT"
  if ! { cat "$kit/MANIFEST"; echo "$prefix"; } | cmp -s - "$stamp"; then
    rm -rf "$prefix"
    mkdir -p "$prefix"
    while read -r deb; do
      if command -v dpkg-deb >/dev/null 2>&1; then
        dpkg-deb -x "$kit/debs/$deb" "$prefix"
      else  # a .deb is an ar archive holding data.tar.*
        (cd "$prefix" && ar p "$kit/debs/$deb" "$(ar t "$kit/debs/$deb" | grep '^data\.tar')" | tar -xa)
      fi
    done <"$kit/MANIFEST"
    { cat "$kit/MANIFEST"; echo "$prefix"; } >"$stamp"
  fi
  echo "unpacked $(wc -l <"$kit/MANIFEST") packages into $prefix"
  rm -rf "$build"
  mkdir -p "$build"
  tar -xJf "$kit/build.tar.xz" -C "$build" --strip-components=2  # made here as build/cuda/...
  echo "unpacked the build: $(find "$build" -type f | wc -l) files"
  link_missing_libraries
}

link_missing_libraries() {
  local known library real soname
  rm -rf "$prefix/missing-libs"
  mkdir -p "$prefix/missing-libs"
  known=$(ldconfig -p | awk 'NR > 1 { print $1 }' | sort -u)
  while IFS= read -r -d '' library; do
    real=$(readlink -f "$library")
    [ -f "$real" ] || continue
    soname=$(readelf -d "$real" 2>/dev/null | sed -n 's/.*Library soname: \[\(.*\)\]/\1/p')
    [ -n "$soname" ] && [ ! -e "$prefix/missing-libs/$soname" ] || continue
    if [[ $soname =~ ^lib(mpi|open-pal|open-rte|mca_common_|pmix|openblas) ]]; then
      ln -s "$real" "$prefix/missing-libs/$soname"
      echo "OpenMPI, PMIx or OpenBLAS, taken from the kit: $soname"
    elif ! grep -qxF "$soname" <<<"$known"; then
      ln -s "$real" "$prefix/missing-libs/$soname"
      echo "missing here, taken from the kit: $soname"
    fi
  done < <(find "$prefix/usr/lib/$triplet" "$prefix/lib/$triplet" -name 'lib*.so*' \( -type f -o -type l \) -print0 2>/dev/null)
}

# The environment of every later step: the kit's libraries and programs, the CUDA libraries the build
# loads (the toolkit's, else those of the Python wheels), and where the tests find their sources.
setup_environment() {
  export LD_LIBRARY_PATH="$prefix/missing-libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! command -v openssl >/dev/null 2>&1; then  # the HTTPS download tests make a certificate with it
    export PATH="$PATH:$prefix/usr/bin" OPENSSL_CONF="$prefix/etc/ssl/openssl.cnf"
  fi
  # The kit's OpenMPI moved into the prefix, with Debian's settings file (which keeps UCX and verbs out of
  # a run on one machine); PMIx's plugins from the kit too; mpirun by its usual name.
  export OPAL_PREFIX=$prefix/usr OMPI_MCA_mca_base_param_files=$prefix/etc/openmpi/openmpi-mca-params.conf
  export PMIX_MCA_mca_base_component_path=$prefix/usr/lib/$triplet/pmix2/lib/pmix
  mkdir -p "$prefix/mpi-bin"
  ln -sf "$prefix/usr/bin/mpirun.openmpi" "$prefix/mpi-bin/mpirun"
  export PATH="$prefix/mpi-bin:$PATH"
  if command -v nvcc >/dev/null 2>&1; then  # NVRTC compiles against this machine's toolkit headers
    CUDA_PATH=$(dirname "$(dirname "$(readlink -f "$(command -v nvcc)")")")
    export CUDA_PATH
  fi
  export XP_TEST_SOURCE_DIR=$repo/tests XP_CACHE_DIR=$repo/build/gpu-kernel-cache
  find_cuda_libraries
  local program missing=""
  for program in tests/xp_tests tests/xp_user_module_tests tests/xp_dist_tests tests/xp_differential tests/libxp_dlpack_exchange.so bench/gpu_bench; do
    missing+=$(ldd "$build/$program" | grep 'not found' | sed "s|^|$program: |")
  done
  note "kit: $(find "$prefix/missing-libs" -type l | wc -l) run-time libraries from it; CUDA_PATH=${CUDA_PATH:-none};" \
    "NCCL: $(ldd "$build/lib/libxparray.so" | grep -o 'libnccl[^ ]* => [^ ]*' || echo 'not linked')"
  if [ -n "$missing" ]; then
    fail kit-libraries "libraries not found: $(sort -u <<<"$missing" | paste -sd ';')"
    return 1
  fi
}

# The CUDA libraries the build was linked with (cuBLAS, cuSOLVER, cuFFT, NVRTC, NCCL) that the linker cache
# does not know: looked up in the toolkit's folders and in the NVIDIA Python wheels' (nvidia/*/lib).
find_cuda_libraries() {
  local soname folder folders=()
  [ -z "${CUDA_PATH:-}" ] || folders+=("$CUDA_PATH/lib64" "$CUDA_PATH/lib" "$CUDA_PATH/targets/$(uname -m)-linux/lib")
  mapfile -t -O "${#folders[@]}" folders < <("$python" -c 'import glob, nvidia
for p in nvidia.__path__: print("\n".join(sorted(glob.glob(p + "/*/lib"))))' 2>/dev/null)
  for soname in $(ldd "$build/lib/libxparray.so" "$build/tests/xp_tests" | awk '/not found/ { print $1 }' | sort -u); do
    for folder in "${folders[@]}"; do
      if [ -e "$folder/$soname" ]; then
        export LD_LIBRARY_PATH="$LD_LIBRARY_PATH:$folder"
        note "kit: $soname from $folder"
        break
      fi
    done
  done
}

# --- compute-sanitizer ---------------------------------------------------------------------------------
sanitizer=""
# One GPU case under memcheck: where the tool refuses the device (gVisor machines), one line says so.
probe_sanitizer() {
  local root=${CUDA_PATH:-/usr/local/cuda} candidate
  sanitizer=$(command -v compute-sanitizer || true)
  for candidate in "$root/bin/compute-sanitizer" "$root/compute-sanitizer/compute-sanitizer"; do
    [ -n "$sanitizer" ] || [ ! -x "$candidate" ] || sanitizer=$candidate
  done
  if [ -z "$sanitizer" ]; then
    note "compute-sanitizer: not found on this machine; the sanitizer steps are skipped"
    return 1
  fi
  local status=0
  timeout 60 "$sanitizer" --tool memcheck "$build/tests/xp_tests" --test-suite=gpu --first=1 --last=1 \
    >"$logs/sanitize-probe.log" 2>&1 || status=$?
  # The tool ran when it printed its summary; a failing test case is not a refusal (the steps report it).
  if ! grep -q 'ERROR SUMMARY' "$logs/sanitize-probe.log" ||
    grep -qE 'Device not supported|error 999|Unable to|not supported' "$logs/sanitize-probe.log"; then
    note "compute-sanitizer refuses this device (exit $status: $(grep -m1 -E 'Device not supported|error|Error' "$logs/sanitize-probe.log" | cut -c1-160)); the sanitizer steps are skipped"
    return 1
  fi
}

# sanitize NAME RUN...: the GPU cases under each RUN at once, one step under one cap. A RUN is a tool,
# TOOL:nopool (XP_DISABLE_POOL=1: the pool hides overruns into neighbouring blocks) or TOOL/N (the cases
# in N shards, processes of their own, for a tool too slow to take them in one). Each log is sorted into
# findings and what is there by design (scripts/sanitizer_report.py). The cases that run in child
# processes (a fault on purpose, TF32 read once) are left out.
sanitize() {
  local name=$1 run log label
  shift
  step "$name" run_sanitizers "$@"
  for run in "$@"; do
    for log in "$logs/$name-$(run_label "$run")".log "$logs/$name-$(run_label "$run")"-*-of-*.log; do
      [ -f "$log" ] || continue
      label=$(basename "$log" .log)
      label=${label#"$name-"}
      note "compute-sanitizer $label: tests $(grep -h '^\[doctest\] test cases:' "$log" | tail -1 | sed 's/^\[doctest\] test cases: *//')"
      if ! "$python" "$repo/scripts/sanitizer_report.py" "$log" >"$log.sorted"; then
        fail "$name-$label-findings" "compute-sanitizer $label reported findings ($(basename "$log"))"
      fi
      sed 's/^/    /' "$log.sorted" >>"$logs/summary.body"
    done
  done
  write_summary
}

run_label() { local run=${1%/*}; echo "${run/:/-}"; }

# Sharded runs split the cases shuffled with a fixed seed, so that the slow autograd cases, next to
# each other in file order, spread over the shards.
in_child_processes='*child process*'
run_sanitizers() {
  local run shards per index status=0 pids=()
  for run in "$@"; do
    if [[ $run != */* ]]; then
      launch_sanitizer "$run" "" --test-case-exclude="$in_child_processes"
      continue
    fi
    shards=${run#*/}
    per=$("$build/tests/xp_tests" --count --test-suite=gpu --test-case-exclude="$in_child_processes" | grep -o '[0-9]*$')
    per=$(((per + shards - 1) / shards))
    for ((index = 1; index <= shards; index++)); do
      launch_sanitizer "$run" "$index-of-$shards" --test-case-exclude="$in_child_processes" \
        --order-by=rand --rand-seed=7 --first=$(((index - 1) * per + 1)) --last=$((index * per))
    done
  done
  for pid in "${pids[@]}"; do wait "$pid" || status=$?; done
  return "$status"
}

# Kernels racecheck leaves alone: the vendors' (cuBLAS, CUTLASS, CUB's and Thrust's own, NCCL), whose
# hazards sanitizer_report.py lists and never counts; instrumenting them took 142 of racecheck's
# seconds in one case of 50 matrix products per thread. Ours (namespace xp, and the JIT's) stay in; the
# patterns leave out names like exact_product_kernel's GemmBatch argument.
vendor_kernels='^_ZN3cub|^_ZN6thrust|cutlass|xmma|nvjet|[sdhcz]gemm|_gemm|gemm_|gemmSN|gemmk|gemv|cublas|splitKreduce|nccl'

# launch_sanitizer RUN SHARD FILTER...: one compute-sanitizer process in the background (its pid into
# run_sanitizers' pids), its log named after the step, the run and the shard.
launch_sanitizer() {
  local run=$1 shard=$2
  shift 2
  (
    [[ $run == *:nopool ]] && export XP_DISABLE_POOL=1
    local tool=${run%%[:/]*} only_ours=()
    [[ $tool != racecheck ]] || only_ours=(--kernel-name-exclude "regex=$vendor_kernels")
    exec "$sanitizer" --tool "$tool" "${only_ours[@]}" --print-limit 100 --target-processes application-only \
      "$build/tests/xp_tests" --test-suite=gpu "$@" --duration=true
  ) >"$logs/$name-$(run_label "$run")${shard:+-$shard}.log" 2>&1 &
  pids+=($!)
}
