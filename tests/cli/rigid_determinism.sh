#!/usr/bin/env bash
# Rigid bodies from the command line (docs/physics.md §11): the pile scene
# gives the same state-hash (particle positions and body poses) in separate
# processes with lavapipe on 1, 2 and 4 threads, with --validate silent
# (exit 0), and on both dispatch paths ("perSubstep", which "auto" takes
# for six bodies on a CPU device, and "oneWorkgroup"). The timing table
# names the rigid passes of each path. The trampoline, a box coupled both
# ways with a cloth, likewise on both PBD paths.
# Usage: rigid_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/rigid_pile.json
scene_variant "$scene" "$work/rigid_pile_one_workgroup.json" '"oneWorkgroup"' \
    's/"rigid": { "iterations": 4 }/"rigid": { "iterations": 4, "path": "oneWorkgroup" }/'

same_hash_on_threads "$vksim" "$scene" 40
grep -qE '^  rigid: body pairs ' <<<"$thread_output" ||
    fail "\"auto\" did not take the per-substep path for six bodies on lavapipe"
same_hash_on_path "$vksim" "$work/rigid_pile_one_workgroup.json" 40 "one-workgroup" "rigid: step  *1 "

# Two-way coupling (§11): the trampoline's box and cloth, the same on 1, 2
# and 4 threads and on both PBD paths that take bodies (the clusters,
# which "auto" takes, and the colours).
scene=$scenes/contacts_trampoline.json
scene_variant "$scene" "$work/trampoline_per_colour.json" '"perColour"' \
    's/"iterations": 8, "damping": 2.0,/"iterations": 8, "damping": 2.0, "pbdPath": "perColour",/'
same_hash_on_threads "$vksim" "$scene" 40
same_hash_on_path "$vksim" "$work/trampoline_per_colour.json" 40 "per-colour" "pbd: stretch colour 0 "

finish
