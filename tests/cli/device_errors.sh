#!/usr/bin/env bash
# Device problems end in one clear line and exit status 1: an unknown
# --device, and a machine with no Vulkan driver at all (simulated by pointing
# the loader at an empty driver list). A wrong command line exits 2.
# Usage: device_errors.sh VKSIM SCENE
set -uo pipefail
vksim=$1
scene=$2
failures=0

expect_error() {  # expect_error DESCRIPTION EXPECTED_STATUS EXPECTED_SUBSTRING COMMAND...
    local description=$1 expected_status=$2 expected=$3 err status
    shift 3
    err=$(timeout 60 "$@" 2>&1 >/dev/null)
    status=$?
    if [[ $status -eq $expected_status && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err == *"$expected"* ]]; then
        echo "ok   $description: $err"
    else
        echo "FAIL $description: status $status, stderr: $err"; failures=$((failures + 1))
    fi
}

expect_error "unknown device name" 1 "no Vulkan device matches" "$vksim" "$scene" --headless --frames 1 --device no-such-gpu
expect_error "device index out of range" 1 "no Vulkan device matches" "$vksim" "$scene" --headless --frames 1 --device 99
empty=$(mktemp -d)
expect_error "no Vulkan driver" 1 "no Vulkan" env VK_DRIVER_FILES="$empty/none.json" VK_ICD_FILENAMES="$empty/none.json" \
    "$vksim" "$scene" --headless --frames 1
expect_error "no Vulkan driver, --list-devices" 1 "no Vulkan driver found" env VK_DRIVER_FILES="$empty/none.json" \
    VK_ICD_FILENAMES="$empty/none.json" "$vksim" --list-devices
rmdir "$empty"
expect_error "timings file with an unknown extension" 2 ".json or .csv" "$vksim" "$scene" --headless --timings out.txt

"$vksim" --list-devices >/dev/null || { echo "FAIL --list-devices"; failures=$((failures + 1)); }
"$vksim" --help | grep -q -- '--timings' || { echo "FAIL --help lacks --timings"; failures=$((failures + 1)); }
echo "$((7 - failures)) passed, $failures failed"
[[ $failures -eq 0 ]]
