#!/usr/bin/env bash
# Replay test of one fuzz target: its seed corpus (seed_corpus.sh) and every
# crasher fuzzing has found (regressions/TARGET/), through the target's
# replay binary, under AddressSanitizer and UBSan. Fails when any input
# crashes, trips a sanitizer or breaks a promise the target checks.
# Usage: replay.sh REPLAY_BINARY TARGET
set -euo pipefail
binary=$1
target=$2
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT

"$here/seed_corpus.sh" "$target" "$scratch/seeds"
inputs=("$scratch/seeds")
if [[ -d $here/regressions/$target ]]; then inputs+=("$here/regressions/$target"); fi
"$binary" "${inputs[@]}"
