#!/usr/bin/env bash
# Every malformed scene in tests/bad_scenes/ must make vksim exit 1 with one
# line on stderr that names the file and contains the expected text (the
# JSON path of the bad value), and never crash or hang.
# Usage: bad_scenes.sh VKSIM CORPUS_DIR
set -uo pipefail
vksim=$(realpath "$1")
corpus=$2
failures=0
checked=0

check() {  # check FILE EXPECTED_SUBSTRING
    local file=$1 expected=$2 err status lines
    # From the file's folder, by its name: a message clips a path past 80
    # bytes (io/quoted_input.h), which a long checkout path would reach.
    err=$(cd "$(dirname "$file")" && timeout 60 "$vksim" "$(basename "$file")" --headless --frames 1 2>&1 >/dev/null)
    status=$?
    lines=$(printf '%s\n' "$err" | grep -c .)
    checked=$((checked + 1))
    if [[ $status -ne 1 ]]; then
        echo "FAIL $file: exit status $status, expected 1 ($err)"; failures=$((failures + 1)); return
    fi
    if [[ $lines -ne 1 ]]; then
        echo "FAIL $file: $lines lines on stderr, expected 1:"; printf '%s\n' "$err"; failures=$((failures + 1)); return
    fi
    if [[ $err != *"$(basename "$file")"* || $err != *"$expected"* ]]; then
        echo "FAIL $file: '$err' does not name the file and contain '$expected'"; failures=$((failures + 1)); return
    fi
    echo "ok   $(basename "$file"): $err"
}

# The loader's corpus (also tests/unit/scene_loader_test.cpp), then the
# scenes that load but that a World refuses when it is built (world/).
for dir in "$corpus" "$corpus/world"; do
    while IFS=$'\t' read -r name expected; do
        [[ -z $name || $name == \#* ]] && continue
        check "$dir/$name" "$expected"
    done < "$dir/expected.txt"
done
check "$corpus/does_not_exist.json" "cannot open"

echo "$((checked - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
