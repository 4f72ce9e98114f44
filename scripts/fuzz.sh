#!/usr/bin/env bash
# Installs what is missing, builds the fuzzers (in preset asan, the unit tests' sanitizer build: Clang,
# AddressSanitizer with LeakSanitizer, UndefinedBehaviorSanitizer, libFuzzer's coverage) and runs each for
# SECONDS (default 60), as many at once as there are cores, from its seeds in fuzz/corpus/<fuzzer>. What
# they find that adds coverage is kept in build/fuzz/corpus (later runs go on from it); a failing input is
# written to build/fuzz/artifacts and the script fails after printing its report.
#   scripts/fuzz.sh [SECONDS]
source "$(dirname "$0")/common.sh"
seconds=${1:-60}
fuzzers=$(ls fuzz/corpus)
build asan $(printf 'fuzz_%s ' $fuzzers) >/dev/null
mkdir -p build/fuzz/corpus build/fuzz/artifacts build/fuzz/logs
cores=$(nproc)  # before OMP_NUM_THREADS, which nproc obeys
export OMP_NUM_THREADS=1 UBSAN_OPTIONS=print_stacktrace=1
run_one() {
  local fuzzer=$1 seconds=$2
  mkdir -p "build/fuzz/corpus/$fuzzer"
  "build/asan/fuzz/fuzz_$fuzzer" "build/fuzz/corpus/$fuzzer" "fuzz/corpus/$fuzzer" \
    -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="build/fuzz/artifacts/$fuzzer-" >"build/fuzz/logs/$fuzzer.log" 2>&1
}
export -f run_one
status=0
printf '%s\n' $fuzzers | xargs -P "$cores" -I{} bash -c "run_one {} $seconds" || status=1
for fuzzer in $fuzzers; do
  log="build/fuzz/logs/$fuzzer.log"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  if grep -qE "^==[0-9]+==ERROR|^SUMMARY: |deadly signal|property failed" "$log" || [ -z "$runs" ]; then
    echo "fuzz_$fuzzer: FAILED (build/fuzz/logs/$fuzzer.log)"
    tail -n 60 "$log"
    status=1
  else
    echo "fuzz_$fuzzer: $runs runs in ${seconds} s, $(ls "build/fuzz/corpus/$fuzzer" | wc -l) corpus inputs, no failure"
  fi
done
exit $status
