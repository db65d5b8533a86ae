#!/usr/bin/env bash
# What a run writes about rigid bodies, from the command line: --export of a
# scene of bodies alone (it crashed, exit 139: a read-back of no particles was
# a buffer of 0 bytes) writes each body's surface per frame; --poses writes
# one row per body per frame, CSV or JSON by extension, anything else refused
# in one line; a body that goes non-finite stops the run with exit status 1
# and one line naming the body and the pass. With validation on.
# Usage: rigid_outputs.sh VKSIM
set -uo pipefail
vksim=$1
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

printf '{"bodies": [{"type": "sphere"}]}\n' >"$work/sphere.json"
printf '{"bodies": [{"type": "box", "name": "falling"}, {"type": "sphere", "name": "ball, \\"round\\"", "position": [3, 0, 0]}]}\n' \
    >"$work/two.json"
printf '{"bodies": [{"type": "box", "name": "spinner", "angularVelocity": [1e30, 1e30, 1e30]}]}\n' >"$work/spin.json"

# --export of bodies alone: exit 0, the files of both frames, each a surface.
err=$(timeout 120 "$vksim" "$work/sphere.json" --headless --frames 2 --quiet --validate --export "$work/frames" 2>&1 >/dev/null)
status=$?
files=$(ls "$work/frames" 2>/dev/null | tr '\n' ' ')
if [[ $status -eq 0 && $files == "sphere0_00000.obj sphere0_00001.obj " ]] &&
    grep -q '^v ' "$work/frames/sphere0_00001.obj" && grep -q '^f ' "$work/frames/sphere0_00001.obj"; then
    pass "--export of a scene of bodies alone: $files"
else
    fail "--export of bodies alone: status $status, files '$files', stderr: $err"
fi

# --poses: the header, then one row per body per frame, frame by frame.
err=$(timeout 120 "$vksim" "$work/two.json" --headless --frames 3 --quiet --validate --poses "$work/poses.csv" 2>&1 >/dev/null)
status=$?
expected_keys=$'frame,body\n0,"falling"\n0,"ball, ""round"""\n1,"falling"\n1,"ball, ""round"""\n2,"falling"\n2,"ball, ""round"""'
keys=$(sed -E 's/^([^,]*),("([^"]|"")*"|body).*/\1,\2/' "$work/poses.csv" 2>/dev/null)
columns=$(awk -F, 'NR > 1 && $0 !~ /round/ { print NF }' "$work/poses.csv" 2>/dev/null | sort -u | tr '\n' ' ')
if [[ $status -eq 0 && $(head -1 "$work/poses.csv") == "frame,body,x,y,z,qx,qy,qz,qw,vx,vy,vz,wx,wy,wz" &&
    $keys == "$expected_keys" && $columns == "15 " ]]; then
    pass "--poses FILE.csv: a header and 2 bodies x 3 frames of 15 columns"
else
    fail "--poses csv: status $status, stderr: $err, keys: $keys, columns: $columns"
fi
err=$(timeout 120 "$vksim" "$work/two.json" --headless --frames 2 --quiet --poses "$work/poses.json" 2>&1 >/dev/null)
status=$?
rows=$(grep -c '^{"frame":' "$work/poses.json" 2>/dev/null)
if [[ $status -eq 0 && $(head -c 10 "$work/poses.json") == '{"poses":[' && $(tail -1 "$work/poses.json") == ']}' &&
    $rows -eq 4 ]]; then
    pass "--poses FILE.json: 2 bodies x 2 frames"
else
    fail "--poses json: status $status, stderr: $err, rows $rows"
fi
err=$(timeout 60 "$vksim" "$work/two.json" --headless --frames 1 --poses "$work/poses.txt" 2>&1 >/dev/null)
status=$?
if [[ $status -eq 2 && $(grep -c . <<<"$err") -eq 1 && $err == *--poses* && $err == *".csv or .json"* &&
    ! -e $work/poses.txt ]]; then
    pass "--poses FILE.txt refused: $err"
else
    fail "--poses .txt: status $status, stderr: $err"
fi

# A body spun past float range: exit 1, one line naming the body and the pass.
err=$(timeout 120 "$vksim" "$work/spin.json" --headless --frames 60 --quiet --validate 2>&1 >/dev/null)
status=$?
expected="vksim: $work/spin.json: simulation became non-finite in frame 0, pass \"rigid: step\": body 0 \"spinner\" "
if [[ $status -eq 1 && $(grep -c . <<<"$err") -eq 1 && $err == "$expected"* ]]; then
    pass "a non-finite body: $err"
else
    fail "non-finite body: status $status, stderr: $err (expected status 1 and '$expected...')"
fi

finish
