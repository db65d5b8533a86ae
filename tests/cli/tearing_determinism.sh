#!/usr/bin/env bash
# Tearing (docs/physics.md §1, "Tearing"): the curtain of
# scenes/cloth_tearing.json, torn by the ball, gives the same state-hash in
# separate processes with lavapipe on 1, 2 and 4 threads, with --validate
# silent, on the path "auto" takes here (not the clusters: the curtain
# splits torn vertices, "capacity"), and the same on the per-colour path;
# the tear and split passes are timed and the summary counts what tore and
# how many spare particles the splits took;
# tearing changes the state (the hash differs without it); and a run saved
# after 15 frames (mid-tear) and loaded by another process steps on to the
# hash of one run of all 30 frames, so the broken constraints are saved state.
# The curtain with self contact ("contacts": {"self": true}) gives one
# state-hash on 1, 2 and 4 threads and splits.
# The flag of scenes/flag_storm.json, torn by the wind and splitting, gives
# the same state-hash on 1, 2 and 4 threads too (the wind's gather follows
# the moved triangles).
# Usage: tearing_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/cloth_tearing.json
frames=30
same_hash_on_threads "$vksim" "$scene" $frames
pass "auto: the same state-hash on 1, 2 and 4 threads"
torn=$thread_hash

# The per-colour path: the same bits as the path "auto" takes here; the tear and split passes timed, and the
# summary says what tore and what split.
scene_variant "$scene" "$work/tearing_perColour.json" '"pbdPath": "perColour"' \
    's/"damping": 0.1/"damping": 0.1, "pbdPath": "perColour"/'
out=$("$vksim" "$work/tearing_perColour.json" --headless --frames $frames --hash --validate)
grep -qE "^  pbd: stretch colour" <<<"$out" || fail "no stretch colour pass on the per-colour path"
[[ $(hash_of "$out") == "$torn" ]] && pass "the per-colour path gives the same state-hash" \
    || fail "the per-colour path differs: $(hash_of "$out")"
if grep -q "^  pbd: tear " <<<"$out"; then pass "the tear pass is timed"; else fail "no tear pass"; fi
if grep -q "^  pbd: split " <<<"$out"; then pass "the split pass is timed"; else fail "no split pass"; fi
split=$(grep "^splitting: " <<<"$out" || true)
echo "$split"
if [[ $split =~ ^splitting:\ ([0-9]+)\ of ]] && ((BASH_REMATCH[1] > 0)); then pass "torn vertices split"
else fail "no splitting summary, or nothing split"; fi
summary=$(grep "^tearing: " <<<"$out" || true)
echo "$summary"
if [[ $summary =~ ^tearing:\ ([0-9]+)\ of ]] && ((BASH_REMATCH[1] > 0)); then pass "the curtain tore"
else fail "no tearing summary, or nothing tore"; fi

scene_variant "$scene" "$work/untorn.json" '"curtain"' '/"tearing":/d'
grep -q '"tearing"' "$work/untorn.json" && fail "could not remove the tearing"
whole=$(hash_of "$("$vksim" "$work/untorn.json" --headless --frames $frames --hash --quiet)")
echo "without tearing: $whole"
if [[ -n $whole && $whole != "$torn" ]]; then pass "tearing changes the state"; else fail "tearing changes nothing"; fi

"$vksim" "$scene" --headless --frames 15 --quiet --validate --save-state "$work/tearing.state"
loaded=$(hash_of "$(LP_NUM_THREADS=1 "$vksim" "$scene" --headless --frames 15 --hash --quiet --validate \
    --load-state "$work/tearing.state")")
echo "15 + 15 frames (loaded on 1 thread): $loaded"
[[ $loaded == "$torn" ]] && pass "saved and loaded = one run" || fail "saved and loaded differs from one run"

# With self contact (docs/physics.md §14): the spare particles are contact particles, touching nothing until a
# split takes one, which then collides; the same state-hash on 1, 2 and 4 threads, and the curtain still splits.
# 20 frames (the ball tears the curtain from frame 6 on), each run with its summary.
scene_variant "$scene" "$work/tearing_contacts.json" '"self": true' \
    's/"capacity": 0.25 },/"capacity": 0.25 }, "contacts": { "thickness": 0.03, "self": true },/'
declare -A contact_hashes
for threads in 1 2 4; do
    out=$(LP_NUM_THREADS=$threads "$vksim" "$work/tearing_contacts.json" --headless --frames 20 --hash --validate)
    contact_hashes[$threads]=$(hash_of "$out")
    echo "with self contact, LP_NUM_THREADS=$threads: ${contact_hashes[$threads]}"
    [[ $threads == 1 ]] && split=$(grep "^splitting: " <<<"$out" || true)
done
if [[ ${contact_hashes[1]} =~ ^state-hash:\ [0-9a-f]{16}$ && ${contact_hashes[1]} == "${contact_hashes[2]}" &&
    ${contact_hashes[1]} == "${contact_hashes[4]}" ]]; then
    pass "with self contact: the same state-hash on 1, 2 and 4 threads"
else fail "with self contact: the thread counts differ"; fi
echo "with self contact: $split"
if [[ $split =~ ^splitting:\ ([0-9]+)\ of ]] && ((BASH_REMATCH[1] > 0)); then pass "with self contact, vertices split"
else fail "with self contact, nothing split"; fi

# 45 frames: the gust tears the flag from frame 37 on. The run on 1 thread
# also exports frames 0 and 44 and says what split.
same_hash_on_threads "$vksim" "$scenes/flag_storm.json" 45 --export "$work/flag" --export-every 44
pass "flag_storm.json: the same state-hash on 1, 2 and 4 threads"
split=$(grep "^splitting: " <<<"$thread_output" || true)
echo "$split"
if [[ $split =~ ^splitting:\ ([0-9]+)\ of ]] && ((BASH_REMATCH[1] > 0)); then pass "the flag's torn vertices split"
else fail "the flag did not split"; fi
# The export writes each frame's surface: at frame 44 faces name split particles (past the 600 vertices).
highest() { awk '/^f /{for (i = 2; i <= 4; ++i) {split($i, c, "/"); if (c[1] > m) m = c[1]}} END {print m + 0}' "$1"; }
first=$(highest "$work/flag/silk_00000.obj") last=$(highest "$work/flag/silk_00044.obj")
echo "highest vertex of a face: $first at frame 0, $last at frame 44"
((first == 600 && last > 600)) && pass "the export writes the torn surface" || fail "the export misses the splits"

finish
