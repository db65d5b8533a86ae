#!/usr/bin/env bash
# The run outputs and the benchmark from the command line: --export file
# names and --export-every, one-line errors for what cannot be written, usage
# errors (exit 2) for bad values, the progress bar only on a terminal, and
# `vksim bench` at toy sizes (its output's structure, never its timings).
# Usage: outputs_and_bench.sh VKSIM SMALL_SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

expect_error() {  # expect_error DESCRIPTION EXPECTED_STATUS EXPECTED_SUBSTRING ARGS...
    local description=$1 expected_status=$2 expected=$3 err status
    shift 3
    err=$(timeout 120 "$vksim" "$@" 2>&1 >/dev/null)
    status=$?
    if [[ $status -eq $expected_status && $(printf '%s\n' "$err" | grep -c .) -eq 1 && $err == *"$expected"* ]]; then
        pass "$description: $err"
    else
        fail "$description: status $status, stderr: $err"
    fi
}

# Exported frames 0, 2, 4 of 5; nothing on stderr when it is not a terminal.
err=$(timeout 120 "$vksim" "$scene" --headless --frames 5 --quiet --export "$work/frames" --export-every 2 2>&1 >/dev/null)
status=$?
files=$(cd "$work/frames" 2>/dev/null && ls | tr '\n' ' ')
if [[ $status -eq 0 && $files == "small_cloth_00000.obj small_cloth_00002.obj small_cloth_00004.obj " ]]; then
    pass "--export-every 2 over 5 frames: $files"
else
    fail "--export-every 2: status $status, files '$files', stderr: $err"
fi
[[ -z $err ]] && pass "no progress bar when stderr is not a terminal" || fail "stderr not empty: $err"
grep -q '^f 1//1 ' "$work/frames/small_cloth_00000.obj" && grep -c '^vn ' "$work/frames/small_cloth_00000.obj" | grep -qx 64 &&
    pass "OBJ has 64 vertex normals and v//vn faces" || fail "OBJ lacks normals or v//vn faces"

timeout 120 "$vksim" "$scene" --headless --frames 1 --quiet --export "$work/ply" --export-format ply >/dev/null 2>&1
head -c 64 "$work/ply/small_cloth_00000.ply" 2>/dev/null | grep -aq '^format binary_little_endian 1.0$' &&
    pass "--export-format ply writes binary little-endian PLY" || fail "no binary PLY written"

# A progress bar with an ETA on a terminal (script(1) gives the run a pseudo-terminal), none with --quiet.
if command -v script >/dev/null; then
    out=$(timeout 120 script -qec "'$vksim' '$scene' --headless --frames 3" /dev/null 2>&1)
    [[ $out == *"ETA"* ]] && pass "progress bar with ETA on a terminal" || fail "no progress bar on a terminal: $out"
    out=$(timeout 120 script -qec "'$vksim' '$scene' --headless --frames 3 --quiet" /dev/null 2>&1)
    [[ $out != *"ETA"* ]] && pass "no progress bar with --quiet" || fail "progress bar despite --quiet"
fi

# Trace: a JSON object with trace events (its contents are tests/gpu/trace_test.cpp's).
timeout 120 "$vksim" "$scene" --headless --frames 2 --quiet --trace "$work/trace.json" >/dev/null 2>&1
grep -q '"traceEvents":\[' "$work/trace.json" 2>/dev/null && pass "--trace writes a trace" ||
    fail "--trace wrote no trace"

touch "$work/a_file"
expect_error "export under a regular file" 1 "cannot create directory" "$scene" --headless --frames 1 --export "$work/a_file/x"
expect_error "trace in a missing directory" 1 "cannot write" "$scene" --headless --frames 1 --trace "$work/no/t.json"
expect_error "unknown export format" 2 "--export-format" "$scene" --headless --export "$work/e" --export-format stl
expect_error "export every 0" 2 "--export-every" "$scene" --headless --export "$work/e" --export-every 0
expect_error "export every without export" 2 "requires --export" "$scene" --headless --export-every 2
expect_error "trace not .json" 2 ".json" "$scene" --headless --trace "$work/t.txt"

# The benchmark at toy sizes: table on stdout, CSV file, usage errors.
out=$(timeout 300 "$vksim" bench --sizes 4,6 --frames 1 --warmup 1 --quiet --out "$work/bench.csv" 2>&1)
status=$?
if [[ $status -eq 0 && $out == *"fixed cost per dispatch"* && $out == *"cloth-pbd 6"* && $out == *"slope"* ]]; then
    pass "bench at sizes 4,6 prints the table"
else
    fail "bench: status $status: $out"
fi
grep -q '^scene,size,particles,' "$work/bench.csv" 2>/dev/null && grep -q '^# device: ' "$work/bench.csv" &&
    pass "bench --out writes the CSV" || fail "bench CSV missing or malformed"
for scene in cloth-pbd cloth-pd cloth-springs tet-pd; do
    grep -q "^\"$scene\",4," "$work/bench.csv" 2>/dev/null && pass "bench runs $scene by default" ||
        fail "bench CSV has no $scene rows"
done
grep -q '"pd: jacobi/chebyshev","PD particle"' "$work/bench.csv" 2>/dev/null &&
    pass "bench CSV has the PD Jacobi rows" || fail "bench CSV lacks the PD Jacobi rows"
grep -q '"springs: jacobi/chebyshev","spring particle"' "$work/bench.csv" 2>/dev/null &&
    grep -q '"springs: newton assemble","spring particle"' "$work/bench.csv" &&
    pass "bench CSV has the mass-spring Newton rows" || fail "bench CSV lacks the mass-spring Newton rows"
# Newton against VBD to the same F, at a toy size.
out=$(timeout 300 "$vksim" bench --springs-convergence --sizes 4 2>&1)
status=$?
if [[ $status -eq 0 && $out == *"F* = "* && $out == *"newton J=40"* && $out == *"vbd"* && $out == *"to 1e-05"* ]]; then
    pass "bench --springs-convergence compares Newton and VBD"
else
    fail "bench --springs-convergence: status $status: $out"
fi
# --filter selects one PD scene; one small size.
out=$(timeout 120 "$vksim" bench --filter tet-pd --sizes 2 --frames 1 --warmup 0 --quiet --out "$work/tet.json" 2>&1)
status=$?
if [[ $status -eq 0 && $out == *"tet-pd 2:"* && $out != *"cloth-p"* ]] && grep -q '"pd: local tet strain"' "$work/tet.json" &&
    ! grep -q '"cloth-p' "$work/tet.json"; then
    pass "bench --filter tet-pd runs only the tetrahedral scene"
else
    fail "bench --filter tet-pd: status $status: $out"
fi
expect_error "bench filter matching nothing" 2 "no benchmark scene matches" bench --filter no-such-scene
expect_error "bench size out of range" 2 "--sizes" bench --sizes 0
expect_error "bench output not csv or json" 2 "--out" bench --out "$work/bench.txt"
help=$("$vksim" bench --help)
[[ $help == *"--sizes"* && $help == *"--warmup"* && $help == *"cloth-pbd"* && $help == *"cloth-pd"* &&
    $help == *"tet-pd"* && $help == *"cloth-springs"* && $help == *"--springs-convergence"* ]] && pass "bench --help documents it" ||
    fail "bench --help incomplete"

finish
