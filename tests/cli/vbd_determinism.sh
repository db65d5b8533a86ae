#!/usr/bin/env bash
# Vertex block descent solids from the command line (docs/physics.md §16):
# a soft bar hanging from a wall and a cube dropped onto it (both with
# contacts, so the sweeps hold the contact energy), and a cube thrown onto
# the ground (its half-spaces in the sweeps), give the same state-hash in
# separate processes with lavapipe on 1, 2 and 4 threads, with --validate
# silent; its plan lists the VBD passes.
# Usage: vbd_determinism.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

scene=$work/vbd_solids.json
cat > "$scene" <<'JSON'
{
  "name": "VBD solids",
  "solver": { "substeps": 4, "vbd": { "iterations": 8 } },
  "objects": [
    { "type": "tetBox", "name": "bar", "method": "vbd", "size": [0.8, 0.2, 0.2], "cells": [4, 2, 2],
      "position": [0, 1, 0], "pinnedFaces": ["-x"], "contacts": { "thickness": 0.08 },
      "material": { "model": "neoHookean", "youngsModulus": 1e6, "poissonRatio": 0.3, "density": 500 } },
    { "type": "tetBox", "name": "cube", "method": "vbd", "size": [0.3, 0.3, 0.3], "cells": [2, 2, 2],
      "position": [0.2, 1.5, 0.05], "contacts": { "thickness": 0.08 },
      "material": { "model": "corotated", "youngsModulus": 2e5, "poissonRatio": 0.4, "density": 800 } },
    { "type": "tetBox", "name": "landing", "method": "vbd", "size": [0.2, 0.2, 0.2], "cells": [2, 2, 2],
      "position": [-0.7, 0.2, 0], "velocity": [0, -2, 0],
      "material": { "model": "neoHookean", "youngsModulus": 1e5, "poissonRatio": 0.45, "density": 800 } }
  ],
  "colliders": [ { "type": "plane", "name": "ground", "friction": 0.5 } ]
}
JSON

same_hash_on_threads "$vksim" "$scene" 30
pass "the same state-hash on 1, 2 and 4 threads"
passes=$("$vksim" --list-passes "$scene")
if grep -q "vbd: sweep colour 0" <<<"$passes" && grep -q "vbd: init" <<<"$passes" &&
    grep -q "vbd: contact snapshot" <<<"$passes" && grep -q "vbd: collider planes" <<<"$passes"; then
    pass "the plan lists vbd: init, the collider planes, the contact snapshot and the colour passes"
else
    fail "no vbd passes in --list-passes"
fi

finish
