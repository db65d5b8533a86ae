#!/usr/bin/env bash
# A scene that overflows float32 (huge_gravity.json: the loader accepts it) must
# stop vksim with exit status 1 and one line on stderr naming the frame, the
# substep, the pass and the iteration where the state went non-finite. With
# validation on, so the checks' own barriers are validated too.
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
expected='vksim: simulation became non-finite in frame 0, substep 0, pass "stretch colour '
[[ $err == "$expected"* && $err == *'(iteration 0): particle '* ]] ||
    { echo "FAIL: expected '$expected<c>\" (iteration 0): particle ...'"; exit 1; }
echo "1 passed, 0 failed"
