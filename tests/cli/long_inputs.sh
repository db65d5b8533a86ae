#!/usr/bin/env bash
# Long inputs (issue 35): a message quotes at most about 80 bytes of any
# input (io/quoted_input.h), its start and its end, and still names the key
# or option; a 512-byte mesh path gave a 608-byte line, a 100 kB path or
# --device value a 100 kB one. And an object name that is valid but too
# long for a file name (300 or 4000 bytes) is refused before the first
# frame, naming the scene and /objects/N/name, where it failed on the
# first exported file with "File name too long".
# Usage: long_inputs.sh VKSIM SMALL_SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

repeat() { head -c "$2" /dev/zero | tr '\0' "$1"; }  # repeat CHAR COUNT

expect_short_line() {  # expect_short_line STATUS MAX_BYTES DESCRIPTION EXPECTED_SUBSTRING ARGS...
    local expected_status=$1 max_bytes=$2 description=$3 expected=$4 err status bytes
    shift 4
    err=$(timeout 60 "$vksim" "$@" --headless --frames 2 --quiet 2>&1 >/dev/null)
    status=$?
    bytes=$(printf '%s' "$err" | wc -c)
    if [[ $status -eq $expected_status && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $bytes -lt $max_bytes &&
        $err == *"$expected"* ]]; then
        pass "$description: $bytes bytes: $err"
    else
        fail "$description: status $status (expected $expected_status), $bytes bytes (expected one line under $max_bytes \
containing '$expected'): $(head -c 300 <<<"$err")"
    fi
}

# 200 bytes: the message's own words and about 80 bytes of the input; the
# name's message quotes three (the scene file, the file name, the folder).
long_mesh="$(repeat m 508).obj"
printf '{ "objects": [ { "type": "mesh", "file": "%s" } ] }\n' "$long_mesh" >"$work/long_mesh.json"
expect_short_line 1 200 "a 512-byte mesh path" "long_mesh.json: /objects/0/file: " "$work/long_mesh.json"

long_path="$work/$(repeat p 100000).json"
expect_short_line 1 200 "a 100 kB scene path" "cannot open file: File name too long" "$long_path"
expect_short_line 1 200 "a 100 kB --device" "no Vulkan device matches --device 'dddd" "$scene" --device "$(repeat d 100000)"
# Values CLI11 itself quotes (exit 2: a wrong command line).
expect_short_line 2 200 "a 100 kB --display" "--display: 'xxxx" "$scene" --display "$(repeat x 100000)"
expect_short_line 2 200 "a 100 kB --display=" "--display: 'xxxx" "$scene" --display="$(repeat x 100000)"
expect_short_line 2 200 "a 100 kB extra argument" "'yyyy" "$scene" "$(repeat y 100000)"

for length in 300 4000; do
    name=$(repeat n "$length")
    sed "s/\"name\": \"small cloth\"/\"name\": \"$name\"/" "$scene" >"$work/name_$length.json"
    expect_short_line 1 400 "a $length-byte object name with --export" \
        "name_$length.json: /objects/0/name: it makes the file name \"nnnn" \
        "$work/name_$length.json" --export "$work/out_$length"
    [[ -z $(ls -A "$work/out_$length" 2>/dev/null) ]] && pass "$length-byte name: no file exported" ||
        fail "$length-byte name: exported $(ls "$work/out_$length" | head -c 100)"
done

finish
