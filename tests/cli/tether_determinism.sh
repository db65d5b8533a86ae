#!/usr/bin/env bash
# Tethers (docs/physics.md §1, "Tethers"): the curtains of
# scenes/cloth_tethers.json give the same state-hash in separate processes
# with lavapipe on 1, 2 and 4 threads, with --validate silent, on the
# per-colour path and (a wider tethered curtain) on the cluster path; the workgroup path gives the
# per-colour path's bits; the tethers are timed in the attachment family's
# pass; and the tethers change the state (the hash differs
# without them).
# Usage: tether_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/cloth_tethers.json
frames=20
scene_variant "$scene" "$work/tethers_perColour.json" '"pbdPath": "perColour"' \
    's/"damping": 0.1/"damping": 0.1, "pbdPath": "perColour"/'
# The tethered curtain 96 columns wide (3456 particles, its 12 pins on the
# left of its top edge), so that the clusters cut it.
scene_variant "$scene" "$work/tethers_clusters.json" '\[96, 36\]' \
    's/"damping": 0.1/"damping": 0.1, "pbdPath": "clusters"/' '0,/"resolution": \[12, 36\]/s//"resolution": [96, 36]/'
scene_variant "$scene" "$work/tethers_workgroup.json" '"pbdPath": "workgroup"' \
    's/"damping": 0.1/"damping": 0.1, "pbdPath": "workgroup"/'

same_hash_on_threads "$vksim" "$work/tethers_clusters.json" $frames
pass "clusters: the same state-hash on 1, 2 and 4 threads"
if grep -q "^  pbd: cluster sweep 1 " <<<"$thread_output"; then pass "the clusters ran"; else fail "no cluster sweep"; fi
same_hash_on_threads "$vksim" "$work/tethers_perColour.json" $frames
pass "per colour: the same state-hash on 1, 2 and 4 threads"
if grep -q "^  pbd: attachment colour 0 " <<<"$thread_output"; then pass "the tethers' pass is timed"
else fail "no tether pass"; fi
same_hash_on_path "$vksim" "$work/tethers_workgroup.json" $frames "workgroup" "pbd: solve in workgroups "

scene_variant "$scene" "$work/untethered.json" '"perColour"' '/"tethers":/d' \
    's/"damping": 0.1/"damping": 0.1, "pbdPath": "perColour"/'
grep -q '"tethers"' "$work/untethered.json" && fail "could not remove the tethers"
free=$(hash_of "$("$vksim" "$work/untethered.json" --headless --frames $frames --hash --quiet)")
echo "without tethers: $free"
if [[ -n $free && $free != "$thread_hash" ]]; then pass "the tethers change the state"
else fail "the tethers change nothing"; fi

finish
