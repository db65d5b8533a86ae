#!/usr/bin/env bash
# Device faults injected with VKSIM_FAULT (vk/device_fault.h): the GPU lost at
# a frame's submission and at its fence wait, device memory exhausted at an
# allocation, host memory at a map, a GPU that stops answering (a wait past
# the VKSIM_GPU_TIMEOUT limit, vk/gpu_wait.h). Each ends the run with exit status 1 and
# one line saying what was being done; the --trace given is valid JSON or
# absent, never truncated, and no temporary file is left.
# Usage: device_faults.sh VKSIM SMALL_SCENE DEFAULT_SCENE
set -uo pipefail
vksim=$1
scene=$2
default_scene=$3
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# fault_run NAME VKSIM_FAULT EXPECTED_REGEX [BEHIND]: with BEHIND, the trace
# holds the frames before the one named in the message (its first group)
# less BEHIND, those still in flight.
fault_run() {
    local name=$1 fault=$2 expected=$3 behind=${4:-} out="$work/$1" status err frames=
    mkdir -p "$out"
    VKSIM_FAULT=$fault timeout 120 "$vksim" "$scene" --headless --frames 40 --quiet --trace "$out/trace.json" \
        --timings "$out/timings.csv" >/dev/null 2>"$out/stderr"
    status=$?
    err=$(cat "$out/stderr")
    if [[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err =~ $expected ]]; then
        pass "$name: status 1, $err"
        [[ -n $behind ]] && frames=$((BASH_REMATCH[1] - behind))
    else
        fail "$name: status $status (expected 1), stderr: $err (expected /$expected/)"
    fi
    if [[ ! -e $out/trace.json ]] || python3 -m json.tool "$out/trace.json" >/dev/null 2>&1; then
        pass "$name: the trace is valid JSON or absent"
    else
        fail "$name: the trace is not valid JSON: $(tail -c 120 "$out/trace.json" 2>&1)"
    fi
    if [[ -n $behind ]]; then  # the frames collected before the fault
        [[ $(grep -c '"cat":"frame"' "$out/trace.json" 2>/dev/null) -eq $frames ]] &&
            pass "$name: the trace holds the $frames frames collected before the fault" ||
            fail "$name: the trace holds $(grep -c '"cat":"frame"' "$out/trace.json" 2>&1) frames, not $frames"
    fi
    [[ -z $(find "$out" -name '*.tmp*') ]] && pass "$name: no temporary files left" ||
        fail "$name: temporary files left: $(find "$out" -name '*.tmp*')"
}

# The set-up uploads are submissions and waits too: the counts below reach
# into the frame loop of the 40 frames.
fault_run lost-at-submit device-lost@submit:30 \
    '^vksim: the GPU was lost \(VK_ERROR_DEVICE_LOST\) while submitting frame ([0-9]+)$' 1
fault_run lost-at-wait device-lost@wait:30 \
    '^vksim: the GPU was lost \(VK_ERROR_DEVICE_LOST\) while waiting for frame ([0-9]+)$' 0
fault_run lost-at-setup device-lost@submit:1 \
    '^vksim: the GPU was lost \(VK_ERROR_DEVICE_LOST\) while submitting set-up work$'
fault_run oom-at-alloc oom@alloc:1 \
    '^vksim: out of device memory \(VK_ERROR_OUT_OF_DEVICE_MEMORY\) while allocating (image )?"[^"]+" \([0-9.]+ (bytes|KiB|MiB|GiB)\)$'
fault_run oom-at-late-alloc oom@alloc:12 \
    '^vksim: out of device memory \(VK_ERROR_OUT_OF_DEVICE_MEMORY\) while allocating (image )?"[^"]+" \([0-9.]+ (bytes|KiB|MiB|GiB)\)$'
fault_run host-oom-at-map host-oom@map:1 \
    '^vksim: [^ ]+\.json: out of host memory \(VK_ERROR_OUT_OF_HOST_MEMORY\) while mapping "[^"]+" \([0-9.]+ (bytes|KiB|MiB|GiB)\)$'
fault_run timeout-at-wait timeout@wait:30 \
    '^vksim: [^ ]+\.json: the GPU did not finish within 120 s \(VK_TIMEOUT\) while waiting for frame ([0-9]+); VKSIM_GPU_TIMEOUT=SECONDS sets the limit; a frame that is only slow needs less work: lower /solver/substeps, [^;]+$' 0
VKSIM_GPU_TIMEOUT=2.5 fault_run timeout-at-read-back timeout@wait:3 \
    '^vksim: [^ ]+\.json: the GPU did not finish within 2.5 s \(VK_TIMEOUT\) while waiting for set-up work; VKSIM_GPU_TIMEOUT=SECONDS sets the limit$'
VKSIM_GPU_TIMEOUT=soon fault_run bad-timeout "" \
    "^vksim: VKSIM_GPU_TIMEOUT 'soon' is not a number of seconds in \[0, 86400\] \(0 waits for the GPU forever\)$"
fault_run bad-switch device-lost@submit:0 "^vksim: VKSIM_FAULT 'device-lost@submit:0' is not KIND@SITE:N"

# Unset or empty, the switch changes nothing.
VKSIM_FAULT= timeout 120 "$vksim" "$scene" --headless --frames 3 --quiet >/dev/null 2>&1 &&
    pass "empty VKSIM_FAULT: a normal run" || fail "empty VKSIM_FAULT: status $?"
# A real timeout, not an injected one: a 1 ms limit, shorter than any frame
# of the default scene on lavapipe (13-20 ms; the small cloth's frames are
# about 1 ms, and on a loaded machine the host sometimes reached its wait
# after the GPU had finished). The run ends with one line; the teardown
# waits for the GPU that was only slow (gpu_wait.h: drainQueue), so the
# validation layer sees no buffer freed while in use.
err=$(VKSIM_GPU_TIMEOUT=0.001 timeout 120 "$vksim" "$default_scene" --headless --frames 20 --quiet --validate 2>&1 >/dev/null)
status=$?
if [[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 &&
      $err =~ ^vksim:\ [^\ ]+\.json:\ the\ GPU\ did\ not\ finish\ within\ 0.001\ s\ \(VK_TIMEOUT\)\ while\ waiting\ for ]]; then
    pass "real timeout: status 1, $err"
else
    fail "real timeout: status $status (expected 1), output: $err"
fi
VKSIM_GPU_TIMEOUT=0 timeout 120 "$vksim" "$scene" --headless --frames 3 --quiet >/dev/null 2>&1 &&
    pass "VKSIM_GPU_TIMEOUT=0: a normal run, no limit" || fail "VKSIM_GPU_TIMEOUT=0: status $?"

finish
