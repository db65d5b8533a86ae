#!/usr/bin/env bash
# Builds, then runs build/vksim with the given arguments (the binary picks the
# default scene). Without a display it runs --headless, which simulates
# without a window and prints the per-pass GPU timing table.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/build.sh

args=("$@")
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  args=(--headless "${args[@]}")
fi
exec build/vksim "${args[@]}"
