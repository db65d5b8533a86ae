#!/usr/bin/env bash
# The unit and GPU tests again, with the whole engine built with
# AddressSanitizer and UBSan (the `asan` preset: -O1 -g1, in build-asan/;
# only the two test programs and what they need are built). scripts/test.sh
# runs it in CI (CI=true) or when VKSIM_ASAN_TESTS=1; extra arguments go to
# ctest. Exits non-zero when a test failed or a sanitizer reported anything
# but the driver's known leaks (tests/sanitizers/lsan_driver.supp). See
# docs/testing.md#sanitizers for what runs, why, and how long it takes.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

cmake --preset asan >/dev/null
cmake --build --preset asan -j"$(nproc)" --target vksim_unit_tests vksim_gpu_tests

# LeakSanitizer ignores only the driver's and the validation layer's known
# leaks. detect_leaks is on by default for ASan on Linux; said here so that a
# reader sees it. UBSan findings abort already (-fno-sanitize-recover=all);
# the stack trace names where.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0
export LSAN_OPTIONS="suppressions=$PWD/tests/sanitizers/lsan_driver.supp:print_suppressions=0"
export UBSAN_OPTIONS=print_stacktrace=1
# No lavapipe worker thread (the queue thread runs the workgroups), two
# tests at a time, as in scripts/test.sh (docs/testing.md, "Build and test
# times").
export LP_NUM_THREADS=${LP_NUM_THREADS:-0}
# The unit tests (label unit) and the GPU tests (label gpu_gtest: every
# solver, on lavapipe with the validation layer), one process per suite as
# in the plain build, but the longest cases (tests/sanitizers/long_tests.txt,
# which the suites leave out when CTest reads them): they spend their time
# in the driver or the CPU references, repeating host code that a shorter
# case runs too, and ASan looks only for the host's memory errors.
# docs/testing.md#sanitizers says which and why.
ctest --test-dir build-asan --output-on-failure -j2 -L '^(unit|gpu_gtest)$' "$@"
