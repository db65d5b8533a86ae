#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds the `default`
# preset (CMakePresets.json: Ninja, RelWithDebInfo, in build/), or the preset
# named (`scripts/build.sh ci`: the same build with -g1, which CI uses).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
preset=${1:-default}

scripts/install_deps.sh
cmake --preset "$preset"
cmake --build --preset "$preset" -j"$(nproc)"
