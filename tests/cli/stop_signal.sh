#!/usr/bin/env bash
# SIGINT and SIGTERM during a headless run with every output on: vksim stops
# at a frame boundary, closes the outputs so they are valid (the trace parses
# as JSON, the timings have their rows, each exported frame is whole), prints
# one line and exits with 130 (SIGINT) or 143 (SIGTERM).
# Usage: stop_signal.sh VKSIM SMALL_SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

stop_run() {  # stop_run SIGNAL EXPECTED_STATUS
    local signal=$1 expected=$2 out="$work/$1" status err pid frames exported
    mkdir -p "$out"
    "$vksim" "$scene" --headless --frames 100000000 --quiet --trace "$out/trace.json" --timings "$out/timings.csv" \
        --export "$out/frames" --export-every 5 >/dev/null 2>"$out/stderr" &
    pid=$!
    # Two exported frames: the frame loop runs, and the handlers are in place.
    for _ in $(seq 1500); do
        [[ $(find "$out/frames" -name '*.obj' 2>/dev/null | wc -l) -ge 2 ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
    done
    kill -s "$signal" "$pid"
    wait "$pid"
    status=$?
    err=$(cat "$out/stderr")
    if [[ $status -eq $expected && $(printf '%s\n' "$err" | grep -c .) -eq 1 &&
        $err =~ ^vksim:\ stopped\ by\ SIG$signal\ after\ ([0-9]+)\ of\ 100000000\ frames ]]; then
        frames=${BASH_REMATCH[1]}
        pass "$signal: status $status, $err"
    else
        fail "$signal: status $status (expected $expected), stderr: $err"
        return
    fi
    python3 -m json.tool "$out/trace.json" >/dev/null 2>&1 && pass "$signal: the trace parses as JSON" ||
        fail "$signal: the trace is not valid JSON: $(tail -c 120 "$out/trace.json" 2>&1)"
    [[ $(grep -c '"cat":"frame"' "$out/trace.json") -eq $frames ]] && pass "$signal: the trace has all $frames frames" ||
        fail "$signal: the trace has $(grep -c '"cat":"frame"' "$out/trace.json") frames, not $frames"
    head -n 1 "$out/timings.csv" 2>/dev/null | grep -q '^pass,runs_per_frame' && grep -q '^"step total",1,' "$out/timings.csv" &&
        pass "$signal: the timings were written" || fail "$signal: no timings file"
    exported=$(find "$out/frames" -name '*.obj' | wc -l)
    [[ $exported -eq $(((frames + 4) / 5)) ]] && pass "$signal: $exported frames exported of $frames run" ||
        fail "$signal: $exported frames exported of $frames run (expected every 5th)"
    [[ -z $(find "$out" -name '*.tmp*') ]] && pass "$signal: no temporary files left" ||
        fail "$signal: temporary files left: $(find "$out" -name '*.tmp*')"
}

stop_run INT 130
stop_run TERM 143

finish
