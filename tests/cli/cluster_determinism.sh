#!/usr/bin/env bash
# The PBD cluster path from the command line (docs/physics.md §1, "Large
# objects in clusters"): the default scene's cloth at 64 x 64 (too big for
# one workgroup on lavapipe, so "auto" takes the clusters there) gives the
# same state-hash in separate processes with lavapipe on 1, 2 and 4 threads,
# with --validate silent (exit 0), and its timing table has both cluster
# sweeps and no colour pass.
# Usage: cluster_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$work/cloth_64.json
scene_variant "$scenes/cloth_sphere.json" "$scene" '"pbdPath": "clusters"' \
    's/"resolution": \[48, 48\]/"resolution": [64, 64]/' \
    's/"stencilStep": 0.001/"stencilStep": 0.001, "pbdPath": "clusters"/'
grep -q '\[64, 64\]' "$scene" || { echo "FAIL: could not set the resolution"; exit 1; }

same_hash_on_threads "$vksim" "$scene" 20  # calls fail when the thread counts differ

out=$thread_output
for sweep in 1 2; do
    if grep -qE "^  pbd: cluster sweep $sweep " <<<"$out"; then pass "cluster sweep $sweep ran"; else fail "no 'cluster sweep $sweep' pass"; fi
done
if grep -qE '^  pbd: (stretch|bending) colour ' <<<"$out"; then fail "a colour pass ran"; else pass "no colour pass"; fi

finish
