#!/usr/bin/env bash
# The GPU time limit (VKSIM_GPU_TIMEOUT, vk/gpu_wait.h): a scene whose
# frame cannot finish within the limit is refused when it loads, naming the
# keys to lower, and the pass cap names the rigid bodies' keys. The test
# hook VKSIM_SLOW_FRAME (vk/slow_frame.h) refuses a malformed value, and
# holds a frame past the limit, or slows one within it.
# Usage: gpu_time_limit.sh VKSIM SMALL_SCENE PD_1000_SCENE
set -uo pipefail
vksim=$1
scene=$2
pd_scene=$3
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

err=$(VKSIM_SLOW_FRAME=1:x "$vksim" "$scene" --headless --frames 3 --quiet 2>&1 >/dev/null)
status=$?
[[ $status -eq 1 && $err == "vksim: VKSIM_SLOW_FRAME '1:x' is not N:SECONDS (frame N holds the GPU for SECONDS in [0, 86400])" ]] &&
    pass "a malformed VKSIM_SLOW_FRAME: $err" || fail "a malformed VKSIM_SLOW_FRAME: status $status, stderr: $err"

# Three runs with frame 1 held on the GPU, side by side (they wait, they do
# not compute): slow_run NAME LIMIT HOLD starts one in the background, its
# status and stderr into $work/NAME.*.
slow_run() {
    (VKSIM_GPU_TIMEOUT=$2 VKSIM_SLOW_FRAME=1:$3 timeout 50 "$vksim" "$scene" --headless --frames 4 --quiet --validate \
        2>"$work/$1.err" >/dev/null
     echo $? >"$work/$1.status") &
}
slow_run held 2 60
slow_run drained 1 3
slow_run within 5 1
start=$SECONDS
wait
seconds=$((SECONDS - start))
timeout_line() {
    echo "^vksim: [^ ]*: the GPU did not finish within $1 s \(VK_TIMEOUT\) while waiting for frame 1; VKSIM_GPU_TIMEOUT=SECONDS sets the limit; a frame that is only slow needs less work: lower /solver/substeps, /solver/iterations or .*pbdPath.*$"
}
# Held past the limit for good (the event is set only after 60 s): the wait
# for it times out, the drain after it (kDrainSeconds, 10 s) too, and the GPU
# is abandoned: one line naming the scene, the frame and the keys that give
# a frame less work (the small cloth is PBD's), exit 1, no crash of
# the driver's thread, no buffer freed under it (which the validation layers
# would report). It hung in lavapipe's read of the timestamps, which waits
# for the device to go idle (vk/gpu_timer.h).
status=$(cat "$work/held.status") err=$(cat "$work/held.err") held=$(timeout_line 2)
[[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err =~ $held ]] &&
    pass "a frame held past a 2 s limit: abandoned (all three runs took $seconds s): $err" ||
    fail "a frame held past a 2 s limit: status $status, stderr: $err"
# Slower than the limit, finished during the drain: the same line, and the
# teardown then frees everything as usual (validation silent).
status=$(cat "$work/drained.status") err=$(cat "$work/drained.err") slow=$(timeout_line 1)
[[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err =~ $slow ]] &&
    pass "a 3 s frame past a 1 s limit, drained: $err" || fail "a 3 s frame past a 1 s limit: status $status, stderr: $err"
# Slow within the limit: only slow.
status=$(cat "$work/within.status") err=$(cat "$work/within.err")
[[ $status -eq 0 && -z $err ]] && pass "a 1 s frame under a 5 s limit runs" ||
    fail "a 1 s frame under a 5 s limit: status $status, stderr: $err"

# 1000 local/global iterations of 1000 Jacobi iterations in one workgroup:
# refused when it loads under a 5 s limit, naming the keys (before, it ran
# until the limit ended it, naming neither the scene nor /solver/pd).
start=$SECONDS
err=$(VKSIM_GPU_TIMEOUT=5 timeout 120 "$vksim" "$pd_scene" --headless --frames 1 --quiet 2>&1 >/dev/null)
status=$?
pd_refusal="^vksim: [^ ]*pd_jacobi_1000.json: /solver/pd: a frame needs at least [0-9]+ s of GPU time on this device \(most of it 256000000 row updates of PD's Jacobi iterations in one workgroup\), more than the limit of 5 s \(VKSIM_GPU_TIMEOUT\); lower /solver/pd/iterations, /solver/pd/jacobiIterations or /solver/substeps$"
[[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err =~ $pd_refusal ]] &&
    pass "PD 1000 x 1000 under a 5 s limit: refused in $((SECONDS - start)) s: $err" ||
    fail "PD 1000 x 1000 under a 5 s limit: status $status, stderr: $err"

# 250 rigid bodies, 100 iterations of 250 contact rounds in each of 4
# substeps: over the pass cap, and the message names the rigid keys (it
# named only the PBD and PD paths).
python3 - "$work/bodies.json" <<'PY'
import json, sys
bodies = [{"type": "sphere", "name": f"b{i}", "radius": 0.05, "subdivisions": 1,
           "position": [(i % 16) * 0.12, 0.5 + (i // 256) * 0.12, (i // 16 % 16) * 0.12]} for i in range(250)]
json.dump({"name": "250 bodies", "solver": {"substeps": 4, "rigid": {"iterations": 100}}, "bodies": bodies,
           "colliders": [{"type": "plane", "name": "ground"}]}, open(sys.argv[1], "w"))
PY
err=$(timeout 120 "$vksim" "$work/bodies.json" --headless --frames 1 --quiet 2>&1 >/dev/null)
status=$?
cap='^vksim: [^ ]*bodies.json: /solver: a frame of 4 substeps records [0-9]+ GPU passes \(every colour, Jacobi step or rigid contact round of every iteration\), at most 100000; lower /solver/substeps, /solver/rigid/iterations or "path": "oneWorkgroup" \(/solver/rigid/path\)$'
[[ $status -eq 1 && $err =~ $cap ]] && pass "rigid bodies over the pass cap: $err" ||
    fail "rigid bodies over the pass cap: status $status, stderr: $err"

finish
