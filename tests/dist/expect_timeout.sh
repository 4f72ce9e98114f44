#!/usr/bin/env bash
# expect_timeout.sh PROGRAM MODE: runs `PROGRAM MODE` in 3 processes with a 3 s xp::dist timeout and
# passes when the job fails within 60 s with xp::dist's message from rank 0. mpirun's
# --enable-recovery keeps the survivors of a killed rank running, so that it is xp::dist, not the
# launcher, that ends them.
set -uo pipefail
program=$1
mode=$2
flags=(--oversubscribe --enable-recovery)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
start=$(date +%s)
output=$(XP_DIST_TIMEOUT=3 timeout 60 mpirun "${flags[@]}" -x XP_DIST_TIMEOUT -np 3 "$program" "$mode" 2>&1)
status=$?
elapsed=$(($(date +%s) - start))
echo "$output"
echo "expect_timeout: mpirun exit status $status after ${elapsed} s"
if ((status == 124 && elapsed >= 60)); then
  echo "expect_timeout: FAILED: the job hung until the test's own limit"
  exit 1
fi
if ! grep -q "xp::dist: rank 0 of 3: MPI_Allreduce (call 2 of this process, 1000 float32 on the host) did not complete within 3 s" <<<"$output"; then
  echo "expect_timeout: FAILED: rank 0 did not report its stuck allreduce"
  exit 1
fi
if grep -q "completed, which it must not" <<<"$output"; then
  echo "expect_timeout: FAILED: a rank went past the failure"
  exit 1
fi
echo "expect_timeout: passed"
