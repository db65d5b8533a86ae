#!/usr/bin/env bash
# Builds, then runs every test with ctest; extra arguments go to ctest
# (e.g. `scripts/test.sh -L gpu` or `-R SceneLoader`). Exits with ctest's status.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/build.sh

# The Vulkan loader, lavapipe and vulkaninfo warn on every start without a
# runtime directory (containers and CI runners often have none).
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

status=0
ctest --test-dir build --output-on-failure -j2 "$@" || status=$?
exit "$status"
