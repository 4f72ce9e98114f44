#!/usr/bin/env bash
# mpirun.sh NP PROGRAM [ARGS]: PROGRAM in NP processes on this machine (more processes than cores
# allowed; root allowed, as in CI containers), ended after XP_MPIRUN_LIMIT seconds (default 300).
set -euo pipefail
np=$1
shift
flags=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
exec timeout "${XP_MPIRUN_LIMIT:-300}" mpirun "${flags[@]}" -np "$np" "$@"
