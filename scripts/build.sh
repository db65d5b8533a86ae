#!/usr/bin/env bash
# Installs missing dependencies, then configures and builds the `default`
# preset (CMakePresets.json: Ninja, RelWithDebInfo, in build/).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

scripts/install_deps.sh
cmake --preset default
cmake --build --preset default -j"$(nproc)"
