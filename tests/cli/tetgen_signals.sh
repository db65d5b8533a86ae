#!/usr/bin/env bash
# SIGTERM and SIGINT while the tetgen program meshes a scene's surface
# (issue 35): vksim kills and reaps tetgen, removes its temporary folder and
# exits as a stopped run does (143, 130), its stderr the tetgen lines
# ("tetgen: meshing ... (limit 300 s)", then one every 5 s) and one stop
# line. It used to die alone, tetgen running on, adopted by init, and its
# vksim-tetgen-* folder left behind. tetgen is a stand-in on PATH that
# sleeps (the real one is done too soon to be stopped), and TMPDIR a scratch
# folder, so that no other process's folder is counted.
# Usage: tetgen_signals.sh VKSIM CLOSED_OBJ_MESH
set -uo pipefail
vksim=$1
mesh=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

mkdir -p "$work/bin" "$work/tmp" "$work/scene"
cp "$mesh" "$work/scene/surface.obj"
printf '#!/bin/sh\necho $$ > "%s/tetgen.pid"\nexec sleep 300\n' "$work" >"$work/bin/tetgen"
chmod +x "$work/bin/tetgen"
echo '{ "objects": [ { "type": "tetMesh", "file": "surface.obj" } ] }' >"$work/scene/scene.json"

stop_tetgen() {  # stop_tetgen SIGNAL EXPECTED_STATUS LINE_TO_WAIT_FOR
    local signal=$1 expected=$2 wait_for=$3 pid child status err last deadline
    rm -f "$work/tetgen.pid"
    PATH="$work/bin:$PATH" TMPDIR="$work/tmp" "$vksim" "$work/scene/scene.json" --headless --frames 1 --quiet \
        >/dev/null 2>"$work/stderr" &
    pid=$!
    deadline=$((SECONDS + 60))
    while ((SECONDS < deadline)); do
        grep -qF -- "$wait_for" "$work/stderr" && [[ -s $work/tetgen.pid ]] && break
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    child=$(cat "$work/tetgen.pid" 2>/dev/null)
    kill -s "$signal" "$pid"
    wait "$pid"
    status=$?
    err=$(cat "$work/stderr")
    last=$(tail -n 1 "$work/stderr")
    [[ $status -eq $expected ]] && pass "$signal: status $status" || fail "$signal: status $status, expected $expected"
    if [[ $(head -n 1 "$work/stderr") == "tetgen: meshing $work/scene/surface.obj (limit 300 s)" &&
        $(head -n -1 "$work/stderr" | grep -vc '^tetgen: meshing ') -eq 0 &&
        $last =~ ^vksim:\ stopped\ by\ SIG$signal\ while\ loading\ .*scene\.json:\ tetgen\ meshing\ .*surface\.obj\ was\ ended\ after\ [0-9]+\ s\;\ no\ frame\ was\ run$ ]]; then
        pass "$signal: stderr: $(tr '\n' '|' <<<"$err")"
    else
        fail "$signal: stderr: $err"
    fi
    grep -qF -- "$wait_for" <<<"$err" && pass "$signal: said \"$wait_for\"" || fail "$signal: never said \"$wait_for\""
    if [[ -z $child ]]; then
        fail "$signal: tetgen did not start"
    elif kill -0 "$child" 2>/dev/null; then
        fail "$signal: tetgen ($child) is still running"
        kill "$child"
    else
        pass "$signal: tetgen ($child) was ended"
    fi
    [[ -z $(ls -A "$work/tmp") ]] && pass "$signal: no temporary folder left" ||
        fail "$signal: left in TMPDIR: $(ls -A "$work/tmp")"
    rm -rf "${work:?}/tmp/"*
}

# SIGTERM once a progress line has come, SIGINT right after the start.
stop_tetgen TERM 143 "tetgen: meshing $work/scene/surface.obj (5 s, limit 300 s)"
stop_tetgen INT 130 "tetgen: meshing $work/scene/surface.obj (limit 300 s)"

finish
