#!/usr/bin/env bash
# A UV-sphere cloth whose poles have valence 1000 (written here, 8 rings:
# 7002 particles), headless with --validate: the model summary reports each
# pole's edges past the colour cap in the overflow group (2 x (1000 - 64) =
# 1872 stretch constraints), the timing table has the overflow passes, the
# run exits 0 (any validation message would make it 3), and a second run
# with lavapipe on one thread instead of four prints the same state-hash
# (the serial sweep does not depend on the thread count).
# Usage: overflow_group.sh VKSIM
set -euo pipefail
vksim=$1
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# UV sphere of radius 0.5: north pole, 7 rings of 1000 vertices, south pole;
# fans of 1000 triangles at the poles.
awk -v S=1000 -v R=8 -v r=0.5 'BEGIN {
  pi = atan2(0, -1)
  printf "v 0 %.17g 0\n", r
  for (i = 1; i < R; ++i) for (k = 0; k < S; ++k) {
    t = pi * i / R; p = 2 * pi * k / S
    printf "v %.17g %.17g %.17g\n", r * sin(t) * cos(p), r * cos(t), r * sin(t) * sin(p)
  }
  printf "v 0 %.17g 0\n", -r
  south = 2 + (R - 1) * S
  for (k = 0; k < S; ++k) printf "f 1 %d %d\n", 2 + (k + 1) % S, 2 + k
  for (i = 1; i < R - 1; ++i) for (k = 0; k < S; ++k) {
    a = 2 + (i - 1) * S + k; b = 2 + (i - 1) * S + (k + 1) % S
    printf "f %d %d %d\nf %d %d %d\n", a, b, b + S, a, b + S, a + S
  }
  for (k = 0; k < S; ++k) printf "f %d %d %d\n", south, 2 + (R - 2) * S + k, 2 + (R - 2) * S + (k + 1) % S
}' > "$scratch/uv_sphere.obj"
cat > "$scratch/uv_sphere.json" <<'JSON'
{
  "solver": { "substeps": 2, "iterations": 4 },
  "objects": [ { "type": "mesh", "name": "balloon", "file": "uv_sphere.obj", "position": [0, 0.7, 0] } ],
  "colliders": [ { "type": "plane", "name": "ground", "friction": 0.4 } ]
}
JSON

failed=0
check() { if eval "$2"; then echo "ok: $1"; else echo "FAIL: $1"; failed=1; fi; }

status=0
out=$(LP_NUM_THREADS=4 "$vksim" "$scratch/uv_sphere.json" --headless --frames 10 --hash --validate 2>&1) || status=$?
# The summary lines (their first colours only), the overflow passes' timings, the hash.
grep -E 'constraints in [0-9]+ colours|  [a-z]+ overflow |^state-hash' <<<"$out" |
  sed -E 's/(colours:( [0-9]+){3})( [0-9]+)*/\1 .../' || true
check "exit 0 with --validate (got $status)" '[[ $status -eq 0 ]]'
check "distance: 64 colours + 1872 in the overflow group" \
  'grep -Eq "^  distance +[0-9]+ constraints in 64 colours:.* \+ 1872 in the overflow group$" <<<"$out"'
check "bending: 64 colours + an overflow group" \
  'grep -Eq "^  bending +[0-9]+ constraints in 64 colours:.* \+ [0-9]+ in the overflow group$" <<<"$out"'
check "the timing table has the stretch and bending overflow passes" \
  'grep -q "pbd: stretch overflow" <<<"$out" && grep -q "pbd: bending overflow" <<<"$out"'

one=$(LP_NUM_THREADS=1 "$vksim" "$scratch/uv_sphere.json" --headless --frames 10 --hash --quiet | grep '^state-hash: ')
four=$(grep '^state-hash: ' <<<"$out" || true)
echo "LP_NUM_THREADS=4: $four; LP_NUM_THREADS=1: $one"
check "the same state-hash on 1 and 4 lavapipe threads" '[[ -n $four && $one == "$four" ]]'

[[ $failed -eq 0 ]] || exit 1
echo "5 passed, 0 failed"
