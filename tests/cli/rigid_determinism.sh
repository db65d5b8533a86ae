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
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/rigid_pile.json
# A copy in the scratch folder, its asset paths made absolute.
assets=$(cd "$scenes/../assets" && pwd)
per_substep=$scratch/rigid_pile_per_substep.json
sed -e 's/"rigid": { "iterations": 4 }/"rigid": { "iterations": 4, "path": "perSubstep" }/' \
    -e "s|\.\./assets/|$assets/|g" "$scene" > "$per_substep"
grep -q '"perSubstep"' "$per_substep" || { echo "FAIL: could not set the path"; exit 1; }

timings=$("$vksim" "$scene" --headless --frames 3 --validate)
grep -qE '^  rigid: step  *1 ' <<<"$timings" || fail "the pile is not one 'rigid: step' per frame"

same_hash_on_threads "$vksim" "$scene" 40

out=$("$vksim" "$per_substep" --headless --frames 40 --hash --validate)
grep -qE '^  rigid: body pairs ' <<<"$out" || fail "no 'rigid: body pairs' pass on the per-substep path"
per=$(hash_of "$out")
echo "per substep:       $per"
[[ $per == "$thread_hash" ]] || fail "the per-substep path differs"

exit $((failures > 0))
