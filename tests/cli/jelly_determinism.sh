#!/usr/bin/env bash
# Shape matching from the command line (docs/physics.md §13): the jelly
# scene gives the same state-hash in separate processes with lavapipe on 1,
# 2 and 4 threads, with --validate silent (exit 0), on the workgroup path
# (the default for its small objects) and on the per-colour path, whose
# timing table has the "shape matching" pass.
# Usage: jelly_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/jelly.json
scene_variant "$scene" "$work/jelly_per_colour.json" '"perColour"' \
    's/"iterations": 4 }/"iterations": 4, "pbdPath": "perColour" }/'

same_hash_on_threads "$vksim" "$scene" 30
same_hash_on_path "$vksim" "$work/jelly_per_colour.json" 30 "per-colour" "pbd: shape matching "

finish
