#!/usr/bin/env bash
# Inputs that are not regular files (issue 14): a FIFO nobody writes to used
# to hang vksim in open() forever; now it reads as empty at once. A device is
# refused before it is read. A FIFO that is written to (process
# substitution) is a scene like any other.
# Usage: special_inputs.sh VKSIM SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

expect_error() {  # expect_error DESCRIPTION EXPECTED_SUBSTRING ARGS...
    local description=$1 expected=$2 err status
    shift 2
    err=$(timeout 20 "$vksim" "$@" --headless --frames 1 --quiet 2>&1 >/dev/null)
    status=$?
    if [[ $status -eq 1 && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err == *"$expected"* ]]; then
        pass "$description: $err"
    else
        fail "$description: status $status (124: it hung), stderr: $err"
    fi
}

mkfifo "$work/scene.json"
expect_error "a FIFO without a writer as the scene" "scene.json: file is empty" "$work/scene.json"
expect_error "a device as the scene" "/dev/zero: cannot open file: not a regular file" /dev/zero
if timeout 60 "$vksim" <(cat "$scene") --headless --frames 2 --quiet; then
    pass "a scene through process substitution runs"
else
    fail "a scene through process substitution did not run"
fi
finish
