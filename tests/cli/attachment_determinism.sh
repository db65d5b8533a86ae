#!/usr/bin/env bash
# Attachments to bodies (docs/physics.md §1, "Attachments to bodies and
# colliders"): scenes/cloth_attached.json (a banner weighted by a swinging
# body, ribbons on a spinning ball, two-way; a cape on a capsule collider)
# gives the same state-hash in
# separate processes with lavapipe on 1, 2 and 4 threads, with --validate
# silent; the attachment pass is timed; and the attachments change the state.
# Usage: attachment_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$scenes/cloth_attached.json
frames=4
same_hash_on_threads "$vksim" "$scene" $frames
pass "the same state-hash on 1, 2 and 4 threads"

if grep -q "^  pbd: attachments to bodies " <<<"$thread_output"; then pass "the attachment pass is timed"
else fail "no attachment pass"; fi

perl -0pe 's/,\s*"attachments": \[.*?\n      \]//gs' "$scene" > "$work/unattached.json"
grep -q '"attachments"' "$work/unattached.json" && fail "could not remove the attachments"
free=$(hash_of "$("$vksim" "$work/unattached.json" --headless --frames $frames --hash --quiet)")
echo "without attachments: $free"
if [[ -n $free && $free != "$thread_hash" ]]; then pass "the attachments change the state"
else fail "the attachments change nothing"; fi

finish
