#!/usr/bin/env bash
# A scene with mesh colliders, copied with its meshes into a scratch folder:
# the first run bakes each collider's SDF grid and says "baked in X s", the
# second says "loaded from cache" and simulates the same (equal state-hash).
# Usage: mesh_cache.sh VKSIM SOURCE_DIR
set -euo pipefail
vksim=$1
source=$2
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir "$scratch/scenes" "$scratch/assets"
cp "$source/scenes/cloth_torus.json" "$scratch/scenes/"
cp "$source/assets/torus.obj" "$source/assets/gingerbread.obj" "$scratch/assets/"
run() { "$vksim" "$scratch/scenes/cloth_torus.json" --headless --frames 5 --hash --validate; }
first=$(run)
second=$(run)
printf 'run 1:\n%s\n' "$(grep -E 'SDF grid|state-hash' <<<"$first")"
printf 'run 2:\n%s\n' "$(grep -E 'SDF grid|state-hash' <<<"$second")"
[[ $(grep -c 'SDF grid .* baked in [0-9.]* s, cached in' <<<"$first") -eq 2 ]] || { echo "FAIL: run 1 did not bake both grids"; exit 1; }
[[ $(grep -c 'SDF grid .* loaded from cache' <<<"$second") -eq 2 ]] || { echo "FAIL: run 2 did not read both caches"; exit 1; }
[[ -f "$scratch/assets/torus.obj.r64.sdfcache" ]] || { echo "FAIL: no cache file next to the mesh"; exit 1; }
[[ $(grep '^state-hash' <<<"$first") == $(grep '^state-hash' <<<"$second") ]] || { echo "FAIL: the runs differ"; exit 1; }
echo "1 passed, 0 failed"
