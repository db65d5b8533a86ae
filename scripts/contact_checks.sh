#!/usr/bin/env bash
# The contact checks of issue-size scenes, outside CI: builds, then runs a
# 48 x 48 cloth folding onto itself (scenes/contacts_fold.json), three
# cloths on a ball (contacts_layers.json), six jelly cubes in a bin
# (contacts_jelly_pile.json), a PD block under cloths of three solvers
# (contacts_solvers.json) and a pile of cloth, jelly, a tetrahedral ball
# and bodies (contacts_mixed.json) for 300 frames each, checking every 30 frames
# that no two surfaces intersect (triangle pairs that share no vertex,
# exactly in double) and how close the closest contact pair came
# (build/tests/vksim_contact_check; docs/testing.md has the last result).
# Extra arguments go to every run, e.g. `scripts/contact_checks.sh --validate`.
# Takes about 10 minutes on lavapipe with 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
status=0
for scene in contacts_fold contacts_layers contacts_jelly_pile contacts_solvers contacts_mixed; do
  "$root/build/tests/vksim_contact_check" "$root/scenes/$scene.json" --frames 300 --every 30 "$@" || status=1
done
exit $status
