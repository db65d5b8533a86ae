#!/usr/bin/env bash
# The wind (docs/physics.md §15): the flags of scenes/flags_wind.json (PBD,
# projective dynamics and mass-spring cloths in a wind with seeded gusts)
# give the same state-hash in separate processes with lavapipe on 1, 2 and 4
# threads, with --validate silent, and twice in a row; the gusts move them
# (the hash differs without them); the wind passes are timed.
# Usage: wind_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/flags_wind.json
frames=8
same_hash_on_threads "$vksim" "$scene" $frames
pass "flags_wind.json: the same state-hash on 1, 2 and 4 threads"
first=$thread_hash
timed=$thread_output
again=$(hash_of "$("$vksim" "$scene" --headless --frames $frames --hash --quiet)")
echo "again: $again"
if [[ $again == "$first" ]]; then pass "a second run gives the same state-hash"; else fail "a second run differs"; fi

scene_variant "$scene" "$work/still_gusts.json" '"strength": 0,' 's/"strength": 2.5,/"strength": 0,/'
calm=$(hash_of "$("$vksim" "$work/still_gusts.json" --headless --frames $frames --hash --quiet)")
echo "without gusts: $calm"
if [[ $calm != "$first" && -n $calm ]]; then pass "the gusts change the state"; else fail "the gusts change nothing"; fi

for pass in "wind: air" "wind: triangles" "wind: forces" "wind: clock"; do
  grep -q "^  $pass " <<<"$timed" || fail "no '$pass' pass in the timing table"
done
pass "the wind passes are timed"

finish
