#!/usr/bin/env bash
# Writes the seed corpus of one fuzz target (tests/fuzz/fuzz_TARGET.cpp)
# into OUT_DIR: the inputs the project already has of that kind, shipped and
# bad ones alike. Used by scripts/fuzz.sh and by the replay tests.
# Usage: seed_corpus.sh TARGET OUT_DIR   (TARGET: scene obj tetgen sdf_cache command_line)
set -euo pipefail
target=$1
out=$2
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
mkdir -p "$out"
shopt -s nullglob

copy() { for f in "$@"; do cp "$f" "$out/$(basename "$(dirname "$f")")_$(basename "$f")"; done; }

case $target in
  scene) copy "$root"/scenes/*.json "$root"/tests/bad_scenes/*.json "$root"/tests/cli/*.json \
    "$root"/tests/fuzz/seeds/scene/*.json ;;
  obj) copy "$root"/assets/*.obj "$root"/tests/meshes/*.obj ;;
  tetgen)
    # The target reads "<.node text>\0<.ele text>": every .node with its own
    # .ele (or the cube's), every .ele with the cube's .node.
    for node in "$root"/tests/meshes/*.node "$root"/assets/*.node; do
      ele="${node%.node}.ele"
      [[ -f $ele ]] || ele="$root/tests/meshes/cube.ele"
      { cat "$node"; printf '\0'; cat "$ele"; } >"$out/$(basename "$node").pair"
    done
    for ele in "$root"/tests/meshes/*.ele "$root"/assets/*.ele; do
      { cat "$root/tests/meshes/cube.node"; printf '\0'; cat "$ele"; } >"$out/cube.node+$(basename "$ele").pair"
    done
    ;;
  sdf_cache)
    # The committed cache of the mesh the target reads against, and any
    # caches that loading scenes has left next to the meshes (not in git).
    copy "$root"/tests/fuzz/seeds/sdf_cache/* "$root"/assets/*.sdfcache "$root"/tests/meshes/*.sdfcache ;;
  command_line) copy "$root"/tests/fuzz/seeds/command_line/* ;;
  *) echo "seed_corpus.sh: unknown target '$target'" >&2; exit 2 ;;
esac
