#!/usr/bin/env bash
# Two separate runs of a scene for N frames must print the same state-hash
# (bit-identical positions), lavapipe at its default thread count; the first
# with the validation layer on (silent, or the run exits non-zero), the
# second without it: the layer checks the commands, which are the first
# run's, and costs up to a third of a run.
# Usage: determinism.sh VKSIM SCENE FRAMES
set -euo pipefail
vksim=$1
scene=$2
frames=$3
run() { "$vksim" "$scene" --headless --frames "$frames" --hash --quiet "$@" | grep '^state-hash: '; }
first=$(run --validate)
second=$(run)
echo "run 1: $first"
echo "run 2: $second"
[[ $first =~ ^state-hash:\ [0-9a-f]{16}$ ]] || { echo "FAIL: no state-hash line"; exit 1; }
[[ $first == "$second" ]] || { echo "FAIL: the runs differ"; exit 1; }
echo "1 passed, 0 failed"
