#!/usr/bin/env bash
# Rigid bodies from the command line (docs/physics.md §11): the pile scene
# gives the same state-hash (particle positions and body poses) in separate
# processes with lavapipe on 1, 2 and 4 threads, with --validate silent
# (exit 0), and on both dispatch paths ("path": "oneWorkgroup", the
# default for six bodies, and "perSubstep"). The timing table names the
# rigid passes of each path.
# Usage: rigid_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/rigid_pile.json
scene_variant "$scene" "$work/rigid_pile_per_substep.json" '"perSubstep"' \
    's/"rigid": { "iterations": 4 }/"rigid": { "iterations": 4, "path": "perSubstep" }/'

timings=$("$vksim" "$scene" --headless --frames 3 --validate)
grep -qE '^  rigid: step  *1 ' <<<"$timings" || fail "the pile is not one 'rigid: step' per frame"

same_hash_on_threads "$vksim" "$scene" 40
same_hash_on_path "$vksim" "$work/rigid_pile_per_substep.json" 40 "per-substep" "rigid: body pairs "

finish
