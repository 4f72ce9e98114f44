#!/usr/bin/env bash
# mpirun.sh NP PROGRAM [ARGS]: PROGRAM in NP processes on this machine (more processes than cores
# allowed; root allowed, as in CI containers), ended after XP_MPIRUN_LIMIT seconds (default 300).
# Under the sanitizers, LeakSanitizer skips what OpenMPI keeps past MPI_Finalize (lsan-mpi.supp): its
# plugins stay loaded and stacks are unwound slowly (OpenMPI has no frame pointers), so that every
# allocation of MPI's has MPI's library in its stack for the suppressions to match.
set -euo pipefail
export OMPI_MCA_mca_base_component_disable_dlclose=1
export ASAN_OPTIONS="fast_unwind_on_malloc=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
export LSAN_OPTIONS="suppressions=$(cd "$(dirname "$0")" && pwd)/lsan-mpi.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
np=$1
shift
flags=(--oversubscribe)
[ "$(id -u)" -ne 0 ] || flags+=(--allow-run-as-root)
exec timeout "${XP_MPIRUN_LIMIT:-300}" mpirun "${flags[@]}" -np "$np" "$@"
