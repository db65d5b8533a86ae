#!/usr/bin/env bash
# Command-line values that once slipped through (issue 14): numbers that
# wrapped, empty strings taken as "not given", values given to flags. Each
# must be refused before anything runs: exit status 2 and one line naming
# the option.
# Usage: command_line_values.sh VKSIM SCENE
set -uo pipefail
vksim=$1
scene=$2
failures=0
checked=0

expect_usage_error() {  # expect_usage_error EXPECTED_SUBSTRING ARGS...
    local expected=$1 err status
    shift
    err=$(timeout 60 "$vksim" "$@" 2>&1 >/dev/null)
    status=$?
    checked=$((checked + 1))
    if [[ $status -eq 2 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err == *"$expected"* ]]; then
        echo "ok   vksim $*: $err"
    else
        echo "FAIL vksim $*: status $status (expected 2), stderr: $err (expected '$expected')"
        failures=$((failures + 1))
    fi
}

expect_usage_error "--size: expected WxH with 16 <= W, H <= 8192" "$scene" --headless --size 4294967936x480
expect_usage_error "--size: expected WxH" "$scene" --headless --size 640x480x
expect_usage_error "--size: expected WxH" "$scene" --headless --size " 640x480"
expect_usage_error "--frames: expected an integer in [1, 100000000], got '4294967297'" "$scene" --headless --frames 4294967297
expect_usage_error "--frames: expected an integer in [1, 100000000], got '-1'" "$scene" --headless --frames=-1
expect_usage_error "--device: expected a device index or a name substring, got ''" "$scene" --headless --device ""
expect_usage_error "--device: expected a device index in [0, 65535]" "$scene" --headless --device 99999999999999999999
expect_usage_error "--export: expected a file name, got ''" "$scene" --headless --export ""
expect_usage_error "scene: expected a file name, got ''" "" --headless
# A control character in a file name: a NUL would cut it short, a newline
# split the messages that name it.
expect_usage_error "--trace: expected a file name without control characters, got 't?.json'" \
    "$scene" --headless --trace $'t\a.json'
expect_usage_error "--timings: expected a file name without control characters, got 'a?b.csv'" \
    "$scene" --headless --timings $'a\nb.csv'
expect_usage_error "--export: expected a file name without control characters" "$scene" --headless --export $'d\tx'
expect_usage_error "--screenshot: expected a file name without control characters" \
    "$scene" --headless --screenshot $'s\r.png'
expect_usage_error "scene: expected a file name without control characters" $'s\x01.json' --headless
expect_usage_error "--out: expected a file name without control characters" bench --out $'o\x7f.csv'
expect_usage_error "--headless is a flag and takes no value" "$scene" --headless=1
expect_usage_error "--quiet is a flag and takes no value" "$scene" --quiet=0
expect_usage_error "--quiet is a flag and takes no value" bench --quiet=1
expect_usage_error "--sizes: expected comma-separated integers in [1, 4096], got ',,'" bench --sizes ,,
# Not the next option taken for the sizes.
expect_usage_error "--sizes: expected comma-separated integers in [1, 4096], got ',,'" bench --sizes ,, --quiet
expect_usage_error "--sizes: expected comma-separated integers in [1, 4096], got '64,,128'" bench --sizes 64,,128
expect_usage_error "--sizes: expected comma-separated integers in [1, 4096], got '64,99999999999'" \
    bench --sizes 64,99999999999
expect_usage_error "--device: expected a device index or a name substring" bench --device ""

echo "$((checked - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
