#!/usr/bin/env bash
# Runs a doctest binary's test cases in as many processes at a time as the machine has cores
# (XP_TEST_PROCESSES sets another number): one shuffled order (XP_TEST_SEED), cut into four stretches per
# process (doctest's --first/--last), each stretch a process of its own, the next one starting as one ends,
# so that the few heavy cases spread over the cores. The suite runs one case at a time, mostly on one core:
# on two cores, the ASan build's suite takes 3 min instead of 4.6. A shuffled order also finds a case that
# depends on what ran before it; the seed is printed, to rerun that order.
# Usage: scripts/unit_tests.sh BINARY [doctest options]. Prints each stretch's output, then the totals;
# fails when a stretch fails.
set -euo pipefail
binary=$1
shift
options=("$@")
processes=${XP_TEST_PROCESSES:-$(nproc)}
seed=${XP_TEST_SEED:-1}
total=$("$binary" --count "$@" | sed -n 's/.*passing the current filters: \([0-9]*\)$/\1/p')
[ -n "$total" ] || { echo "unit_tests: $binary --count printed no total" >&2; exit 1; }
stretches=$((processes * 4 < total ? processes * 4 : total))
length=$((stretches > 0 ? (total + stretches - 1) / stretches : 1))
stretches=$((total > 0 ? (total + length - 1) / length : 1))  # none left empty by the rounding
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

run_stretch() {
  local status=0
  "$binary" --order-by=rand --rand-seed="$seed" --first=$(($1 * length + 1)) --last=$((($1 + 1) * length)) "${options[@]}" \
    >"$logs/$1.log" 2>&1 || status=$?
  echo "$status" >"$logs/$1.status"
}
for ((stretch = 0; stretch < stretches; ++stretch)); do
  while (($(jobs -rp | wc -l) >= processes)); do wait -n || true; done
  run_stretch "$stretch" &
done
wait
failed=0
for ((stretch = 0; stretch < stretches; ++stretch)); do
  status=$(cat "$logs/$stretch.status")
  last=$(((stretch + 1) * length))
  echo "=== unit_tests: cases $((stretch * length + 1))..$((last < total ? last : total)) of $total in the order of seed $seed: exit $status"
  cat "$logs/$stretch.log"
  ((status == 0)) || failed=$((failed + 1))
done

# The totals. doctest's own line counts every case that passed the filters as run, its range or not: the
# cases are the ranges' (which cover the order), the failures and assertions each process's.
sum_of() { cat "$logs"/*.log | sed -n "s/^\[doctest\] $1: *[0-9]* | *[0-9]* passed | *\([0-9]*\) failed.*/\1/p" |
  awk '{n += $1} END {print n + 0}'; }
sum_checked() { cat "$logs"/*.log | sed -n 's/^\[doctest\] assertions: *\([0-9]*\) |.*/\1/p' | awk '{n += $1} END {print n + 0}'; }
echo "=== unit_tests: $total test cases in $stretches processes, $processes at a time (seed $seed): $(sum_of 'test cases') failed;" \
  "$(sum_checked) assertions, $(sum_of assertions) failed; $failed of $stretches processes failed"
((failed == 0))
