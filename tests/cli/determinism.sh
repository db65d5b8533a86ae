#!/usr/bin/env bash
# Two separate runs of a scene for N frames must print the same state-hash
# (bit-identical positions), with the validation layer on and lavapipe at its
# default thread count.
# Usage: determinism.sh VKSIM SCENE FRAMES
set -euo pipefail
vksim=$1
scene=$2
frames=$3
run() { "$vksim" "$scene" --headless --frames "$frames" --hash --quiet --validate | grep '^state-hash: '; }
first=$(run)
second=$(run)
echo "run 1: $first"
echo "run 2: $second"
[[ $first =~ ^state-hash:\ [0-9a-f]{16}$ ]] || { echo "FAIL: no state-hash line"; exit 1; }
[[ $first == "$second" ]] || { echo "FAIL: the runs differ"; exit 1; }
echo "1 passed, 0 failed"
