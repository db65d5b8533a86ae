#!/usr/bin/env bash
# A long run, outside CI: builds, then runs 100,000 frames of a small scene
# (tests/soak/soak_cloth.json) through the headless frame loop and checks that
# every state stays finite, the energy stays in its band once the cloth has
# settled, and the process's resident memory and vksim's device memory stay
# flat (build/tests/vksim_soak; docs/testing.md has the last result).
# Extra arguments go to vksim_soak, e.g. `scripts/soak.sh --frames 20000` or
# `scripts/soak.sh scenes/pd_ball.json`. Writes soak.csv (one row per sample)
# in the current folder unless --csv is given. Takes about 35 minutes on
# lavapipe with 2 cores.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/build.sh"
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi
args=("$@")
[[ " ${args[*]-} " == *" --csv "* ]] || args+=(--csv soak.csv)
exec "$root/build/tests/vksim_soak" --frames 100000 --every 2000 "${args[@]}"
