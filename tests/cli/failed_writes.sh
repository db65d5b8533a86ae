#!/usr/bin/env bash
# Outputs that cannot be written: each ends the run with exit status 1 and one
# line naming the file, and never leaves a truncated file or destroys the one
# that was there (io/write_file.h). A full disk is /dev/full, reached through
# a link whose name has the extension the option asks for, or a file-size
# limit (ulimit -f), which works for any user: vksim ignores SIGXFSZ itself,
# so that the write fails (EFBIG) instead of the signal killing it.
# Usage: failed_writes.sh VKSIM SMALL_SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

expect_write_error() {  # expect_write_error DESCRIPTION EXPECTED_LINE ARGS...
    local description=$1 expected=$2 err status
    shift 2
    err=$(timeout 300 "$vksim" "$@" 2>&1 >/dev/null)
    status=$?
    if [[ $status -eq 1 && $err == "$expected" ]]; then
        pass "$description: $err"
    else
        fail "$description: status $status, stderr: $err (expected status 1 and '$expected')"
    fi
}

for ext in csv json png; do ln -s /dev/full "$work/full.$ext"; done
full="No space left on device"
expect_write_error "--timings onto /dev/full" "vksim: cannot write $work/full.csv: $full" \
    "$scene" --headless --frames 2 --quiet --timings "$work/full.csv"
expect_write_error "--trace onto /dev/full" "vksim: cannot write $work/full.json: $full" \
    "$scene" --headless --frames 2 --quiet --trace "$work/full.json"
expect_write_error "--poses onto /dev/full" "vksim: cannot write $work/full.csv: $full" \
    "$scene" --headless --frames 2 --quiet --poses "$work/full.csv"
expect_write_error "--poses (JSON) onto /dev/full" "vksim: cannot write $work/full.json: $full" \
    "$scene" --headless --frames 2 --quiet --poses "$work/full.json"
expect_write_error "--screenshot onto /dev/full" "vksim: cannot write $work/full.png: $full" \
    "$scene" --headless --frames 2 --quiet --size 64x64 --screenshot "$work/full.png"
expect_write_error "bench --out onto /dev/full" "vksim: cannot write $work/full.csv: $full" \
    bench --filter cloth-pbd --sizes 4 --frames 1 --warmup 0 --quiet --out "$work/full.csv"

# A disk that fills during the run: the first exported frame (about 5 kB)
# does not fit in 1 kB, and no partial frame is left in the folder.
limited() { (ulimit -f 1; exec "$vksim" "$@"); }
err=$(limited "$scene" --headless --frames 3 --quiet --export "$work/frames" 2>&1 >/dev/null)
status=$?
left=$(ls -A "$work/frames" 2>/dev/null | tr '\n' ' ')
if [[ $status -eq 1 && $err == "vksim: cannot write $work/frames/small_cloth_00000.obj: File too large" && -z $left ]]; then
    pass "--export onto a full disk: $err; nothing left in the folder"
else
    fail "--export onto a full disk: status $status, stderr: $err, left: '$left'"
fi

# Poses that fill the disk during the run (a body's row is about 200 bytes):
# one line naming the file, and no poses file or temporary left.
printf '{"bodies": [{"type": "box", "name": "falling"}]}\n' >"$work/body.json"
err=$(limited "$work/body.json" --headless --frames 20 --quiet --poses "$work/poses.csv" 2>&1 >/dev/null)
status=$?
if [[ $status -eq 1 && $err == "vksim: cannot write $work/poses.csv: File too large" && ! -e $work/poses.csv ]]; then
    pass "--poses onto a full disk: $err; no file left"
else
    fail "--poses onto a full disk: status $status, stderr: $err"
fi

# The previous trace survives a trace that could not be written.
printf 'precious' >"$work/trace.json"
err=$(limited "$scene" --headless --frames 20 --quiet --trace "$work/trace.json" 2>&1 >/dev/null)
status=$?
if [[ $status -eq 1 && $err == "vksim: cannot write $work/trace.json: File too large" &&
    $(cat "$work/trace.json") == precious ]]; then
    pass "a failed --trace keeps the previous file: $err"
else
    fail "failed --trace: status $status, stderr: $err, file now: $(head -c 80 "$work/trace.json")"
fi
# An output into a folder that does not exist is refused before the run,
# not after its frames.
start=$SECONDS
expect_write_error "--timings into a missing folder" \
    "vksim: cannot write the timings '$work/missing/t.csv': no folder '$work/missing'" \
    "$scene" --headless --frames 100000 --quiet --timings "$work/missing/t.csv"
((SECONDS - start < 30)) && pass "refused before the frames" || fail "took $((SECONDS - start)) s: ran the frames first"

# An output named like the run's input is refused before the run: the
# scene file is left as it was.
cp "$scene" "$work/scene.json"
expect_write_error "--timings onto the scene file" \
    "vksim: cannot write $work/scene.json: it is the run's input $work/scene.json" \
    "$work/scene.json" --headless --frames 1 --quiet --timings "$work/scene.json"
cmp -s "$scene" "$work/scene.json" && pass "the scene file is unchanged" || fail "the scene file was overwritten"

leftovers=$(find "$work" -name '*.tmp*' | tr '\n' ' ')
[[ -z $leftovers ]] && pass "no temporary files left behind" || fail "temporary files left: $leftovers"

finish
