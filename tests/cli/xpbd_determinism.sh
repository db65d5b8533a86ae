#!/usr/bin/env bash
# XPBD solids (docs/physics.md §16, "XPBD for solids") from the command line: a hanging
# Neo-Hookean beam (8 substeps) and a corotated
# ball with the PBD volume constraint dropped on the ground give the same
# state-hash in separate processes with lavapipe on 1, 2 and 4 threads with
# --validate silent, on the default path (the workgroup path for these
# small objects) and on the per-colour path, whose timing table has the
# tetrahedron colours; the cluster path is the same on 1 and 4 threads (on
# lavapipe each object is one cluster, so its order, and hash, are the
# workgroup path's; elsewhere they may differ).
# Usage: xpbd_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

write_scene() {
  cat > "$1" <<JSON
{ "solver": { "substeps": 8, "iterations": 4$2 },
  "objects": [
    { "type": "tetBox", "name": "beam", "size": [0.6, 0.12, 0.12], "cells": [6, 2, 2], "position": [0, 1, 0],
      "method": "xpbd", "pinnedFaces": ["-x"],
      "material": { "youngsModulus": 2e5, "poissonRatio": 0.3, "density": 400 } },
    { "type": "tetBall", "name": "ball", "radius": 0.15, "cells": 4, "position": [1, 0.4, 0], "method": "xpbd",
      "volumeConstraint": { "stiffness": 0.5 },
      "material": { "model": "corotated", "youngsModulus": 5e4, "poissonRatio": 0.4, "density": 300 } } ],
  "colliders": [ { "type": "plane", "friction": 0.3 } ] }
JSON
}
write_scene "$work/xpbd.json" ""
write_scene "$work/xpbd_per_colour.json" ', "pbdPath": "perColour"'
write_scene "$work/xpbd_clusters.json" ', "pbdPath": "clusters"'

same_hash_on_threads "$vksim" "$work/xpbd.json" 30
same_hash_on_path "$vksim" "$work/xpbd_per_colour.json" 30 "per-colour" "pbd: tetrahedron colour "

one=$(LP_NUM_THREADS=1 "$vksim" "$work/xpbd_clusters.json" --headless --frames 30 --hash --quiet --validate)
four=$(LP_NUM_THREADS=4 "$vksim" "$work/xpbd_clusters.json" --headless --frames 30 --hash --quiet --validate)
echo "clusters: $(hash_of "$one") / $(hash_of "$four")"
if [[ $(hash_of "$one") == "$(hash_of "$four")" ]]; then pass "the cluster path is the same on 1 and 4 threads"
else fail "the cluster path differs between 1 and 4 threads"; fi

finish
