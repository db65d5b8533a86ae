#!/usr/bin/env bash
# Explicit Euler on stiff springs at 1/60 s (scenes/springs_overshoot.json,
# docs/physics.md §9.2) must end with exactly one error line naming the
# frame and pass where the state went non-finite, and a non-zero exit;
# never a crash or a hang.
# Usage: springs_overshoot.sh VKSIM SCENE
set -uo pipefail
vksim=$1
scene=$2
out=$("$vksim" "$scene" --headless --frames 120 --quiet --validate 2>&1)
status=$?
echo "exit $status: $out"
[[ $status -ne 0 && $status -lt 128 ]] || { echo "FAIL: expected a clean non-zero exit"; exit 1; }
lines=$(grep -c . <<<"$out")
[[ $lines -eq 1 ]] || { echo "FAIL: expected one line, got $lines"; exit 1; }
[[ $out == *"non-finite in frame"*"pass \""* ]] || { echo "FAIL: the line does not name the frame and pass"; exit 1; }
echo "1 passed, 0 failed"
