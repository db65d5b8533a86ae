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
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/jelly.json
assets=$(cd "$scenes/../assets" && pwd)
per_colour=$scratch/jelly_per_colour.json
sed -e 's/"iterations": 4 }/"iterations": 4, "pbdPath": "perColour" }/' \
    -e "s|\.\./assets/|$assets/|g" "$scene" > "$per_colour"
grep -q '"perColour"' "$per_colour" || { echo "FAIL: could not set the path"; exit 1; }

same_hash_on_threads "$vksim" "$scene" 30

out=$("$vksim" "$per_colour" --headless --frames 30 --hash --validate)
grep -qE '^  shape matching ' <<<"$out" || fail "no 'shape matching' pass on the per-colour path"
per=$(hash_of "$out")
echo "per colour:        $per"
[[ $per == "$thread_hash" ]] || fail "the per-colour path differs"

exit $((failures > 0))
