#!/usr/bin/env bash
# One colouring across the PBD families from the command line
# (docs/physics.md §1, "One colouring across the families"): the default
# scene with "pbdColouring": "acrossFamilies" on the per-colour path gives
# the same state-hash in separate processes with lavapipe on 1, 2 and 4
# threads, with --validate silent (exit 0), and on the workgroup path; its
# timing table has the shared colour passes and no family's own colour; its
# model summary says the colours are shared; and a different state-hash
# from the families' own colours (another Gauss-Seidel order).
# Usage: colour_across_families.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

# The default scene with "pbdPath" and "pbdColouring" set.
variant() {
    scene_variant "$scenes/cloth_sphere.json" "$work/$1.json" "\"$3\"" \
        "s/\"stencilStep\": 0.001/\"stencilStep\": 0.001, \"pbdPath\": \"$2\", \"pbdColouring\": \"$3\"/"
}
variant shared perColour acrossFamilies
variant shared_workgroup workgroup acrossFamilies
variant per_family perColour perFamily
shared=$work/shared.json

same_hash_on_threads "$vksim" "$shared" 20  # calls fail when the thread counts differ
out=$thread_output
same_hash_on_path "$vksim" "$work/shared_workgroup.json" 20 "workgroup" "pbd: solve in workgroups "

if grep -qE '^  pbd: shared colour 0 ' <<<"$out"; then pass "shared colour passes ran"; else fail "no 'shared colour' pass"; fi
if grep -qE '^  pbd: (stretch|bending) colour ' <<<"$out"; then fail "a family's own colour ran"; else pass "no family colour pass"; fi
if grep -qE '^  distance .* in 25 shared colours' <<<"$out"; then pass "the summary names 25 shared colours"; else fail "no shared colours in the model summary"; fi

family_hash=$(hash_of "$("$vksim" "$work/per_family.json" --headless --frames 20 --hash --quiet)")
if [[ $family_hash != "$thread_hash" ]]; then pass "another order than the families' own colours"; else fail "the same state as per family"; fi

finish
