#!/usr/bin/env bash
# Per-pass GPU times in a window are those of a headless run. lavapipe
# (Mesa 22.3) once left every timestamp queued until its next flush while
# the window's framebuffer stayed bound, so after the first frame every
# pass measured close to nothing and only the step total was right
# (vk/gpu_timer.cpp, writeTimestamp). Checked: the passes' share of the
# step, windowed, is at least half the headless share (measured on
# lavapipe, the default scene: 13% windowed against 68% headless before
# the fix, 78% against 68% after).
# Usage: pass_timings_windowed.sh VKSIM SCENE DIR XVFB-COMMAND...
set -uo pipefail
vksim=$1 scene=$2 dir=$3
shift 3
mkdir -p "$dir"
"$@" "$vksim" "$scene" --frames 30 --no-overlay --validate --quiet --timings "$dir/windowed.csv" ||
  { echo "FAIL: the windowed run exited $?"; exit 1; }
"$vksim" "$scene" --headless --frames 30 --validate --quiet --timings "$dir/headless.csv" ||
  { echo "FAIL: the headless run exited $?"; exit 1; }

# The sum of the passes' mean times per frame over the step's mean.
share() {
  awk -F, 'NR > 1 { gsub(/"/, "", $1); if ($1 == "step total") step = $5; else passes += $5 }
           END { if (step > 0) printf "%.3f\n", passes / step; else print "none" }' "$1"
}
windowed=$(share "$dir/windowed.csv")
headless=$(share "$dir/headless.csv")
echo "passes' share of the step: windowed $windowed, headless $headless"
awk -v w="$windowed" -v h="$headless" 'BEGIN { exit !(w != "none" && h != "none" && w >= 0.5 * h) }' ||
  { echo "FAIL: the windowed passes add up to too little of the step"; exit 1; }
echo "ok"
