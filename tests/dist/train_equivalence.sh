#!/usr/bin/env bash
# train_equivalence.sh TRAIN_DATA_PARALLEL COMPARE_PARAMS DIGITS: one epoch of the data-parallel example
# as 1 process x 1 device, 2 processes x 1 device (mpirun, kvstore dist_sync) and 1 process x 2
# devices must end with the same weights, to float32 tolerance.
set -euo pipefail
train=$1
compare=$2
data=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
common=(--data "$data" --epochs 1 --min-accuracy 0)
"$train" "${common[@]}" --devices 1 --save "$work/one.params"
"$(dirname "$0")/mpirun.sh" 2 "$train" "${common[@]}" --devices 1 --kvstore dist_sync --save "$work/processes.params"
"$train" "${common[@]}" --devices 2 --save "$work/devices.params"
"$compare" 1e-5 "$work/one.params" "$work/processes.params" "$work/devices.params"
