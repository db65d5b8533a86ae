#!/usr/bin/env bash
# A scene that overflows float32 (huge_gravity.json: the loader accepts it) must
# stop vksim with exit status 1 and one line on stderr naming the scene file,
# the frame, the substep and the pass where the state went non-finite: predict, whose
# velocity v + h g is already past 2^60 (finite_check_types.h) before any
# product overflows. With validation on, so the checks' own barriers are
# validated too.
# Usage: non_finite.sh VKSIM SCENE
set -uo pipefail
vksim=$1
scene=$2
err=$(timeout 120 "$vksim" "$scene" --headless --frames 10 --validate --quiet 2>&1 >/dev/null)
status=$?
lines=$(printf '%s\n' "$err" | grep -c .)
echo "stderr: $err"
[[ $status -eq 1 ]] || { echo "FAIL: exit status $status, expected 1"; exit 1; }
[[ $lines -eq 1 ]] || { echo "FAIL: $lines lines on stderr, expected 1"; exit 1; }
expected="vksim: $scene: simulation became non-finite in frame 0, substep 0, pass \"pbd: predict\": particle "
[[ $err == "$expected"* && $err == *'velocity = '*'past 1.15e+18'* ]] ||
    { echo "FAIL: expected '$expected... velocity = (...), past 1.15e+18 ...'"; exit 1; }
echo "1 passed, 0 failed"
