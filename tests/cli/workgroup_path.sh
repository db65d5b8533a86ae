#!/usr/bin/env bash
# The PBD workgroup path (docs/physics.md §1, small objects in one
# workgroup) from the command line, on the default scene with
# "pbdPath": "workgroup": a frame is one "solve in workgroups" dispatch (the
# timing table has no colour pass); the state-hash after 30 frames is the
# same with lavapipe on 1, 2 and 4 threads and with --validate silent
# (exit 0), and the same as the per-colour path's. On lavapipe (a CPU
# device) "auto" takes the clusters for the default cloth instead: two of
# 1152 particles, so that two cores share it; its hash too is the same on 1,
# 2 and 4 threads. The run's summary names the path and whether "auto"
# chose it. "workgroup" on a cloth too big for one workgroup, and an
# unknown path, are one line naming the file and the key, exit 1.
# Usage: workgroup_path.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

scene=$scenes/cloth_sphere.json
with_path() {  # with_path PATH OUT: the default scene with "pbdPath": PATH
  sed "s/\"substeps\": 4,/\"substeps\": 4, \"pbdPath\": \"$1\",/" "$scene" > "$2"
  grep -q "\"pbdPath\": \"$1\"" "$2" || { echo "FAIL: could not set pbdPath in $2"; exit 1; }
}
source "$(dirname "$0")/thread_hashes.sh"

same_hash_on_threads "$vksim" "$scene" 30
timings=$thread_output
grep -q '^  pbd: cluster sweep 1  *32 ' <<<"$timings" || fail "\"auto\" did not take the clusters on lavapipe"
grep -q '^PBD path: clusters ("auto"): 2 + 3 clusters of at most 1365 particles$' <<<"$timings" ||
  fail "the summary does not say which path \"auto\" took"
echo "auto (clusters):   $thread_hash"

with_path workgroup "$scratch/workgroup.json"
same_hash_on_threads "$vksim" "$scratch/workgroup.json" 30
timings=$thread_output
grep -q '^  pbd: solve in workgroups  *1 ' <<<"$timings" || fail "no single 'solve in workgroups' run per frame"
grep -q '^PBD path: workgroup: 1 workgroup(s), one per object$' <<<"$timings" || fail "the summary does not name the path"
! grep -qE '^  pbd: (stretch|bending|attachment) colour' <<<"$timings" || fail "colour passes ran on the workgroup path"
! grep -qE '^  normals ' <<<"$timings" || fail "normals computed though nothing reads them"

with_path perColour "$scratch/per_colour.json"
per_colour=$(hash_of "$("$vksim" "$scratch/per_colour.json" --headless --frames 30 --hash --quiet)")
echo "per colour:        $per_colour"
[[ $per_colour == "$thread_hash" ]] || fail "the per-colour path differs"

# A 64 x 64 cloth: 4096 particles, more than lavapipe's 2730 per workgroup.
with_path workgroup "$scratch/big.json"
sed -i 's/"resolution": \[48, 48\]/"resolution": [64, 64]/' "$scratch/big.json"
status=0
message=$("$vksim" "$scratch/big.json" --headless --frames 1 --quiet 2>&1) || status=$?
echo "too big: exit $status: $message"
[[ $status == 1 ]] || fail "exit status $status, expected 1"
[[ $(wc -l <<<"$message") == 1 ]] || fail "more than one line"
[[ $message == *"big.json: /solver/pbdPath:"*"'cloth' has 4096 particles"* ]] || fail "the message does not name the key and the cloth"

with_path sideways "$scratch/bad.json"
status=0
message=$("$vksim" "$scratch/bad.json" --headless --frames 1 --quiet 2>&1) || status=$?
echo "unknown path: exit $status: $message"
[[ $status == 1 && $message == *"bad.json"*"pbdPath"* ]] || fail "an unknown pbdPath is not refused naming it"

[[ $failures == 0 ]] || exit 1
echo "all passed"
