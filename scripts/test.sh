#!/usr/bin/env bash
# Builds, then runs every test with ctest; extra arguments go to ctest
# (e.g. `scripts/test.sh -L gpu` or `-R SceneLoader`). In CI (CI=true), or
# when VKSIM_ASAN_TESTS=1, then runs the unit and GPU tests again with the
# whole engine under AddressSanitizer and UBSan (scripts/asan_tests.sh, its
# own build in build-asan/). In CI, or when VKSIM_FUZZ_SECONDS is set, then
# fuzzes every fuzz target for that many seconds (default 30;
# scripts/fuzz.sh, about 3 minutes in all with its clang build on two
# cores). Exits non-zero when a test failed, a sanitizer reported something
# or fuzzing found something. docs/testing.md has the times.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# In CI, the `ci` preset: the default one with less debug information
# (-g1: line tables, no variables), which a CI run never reads; the code is
# the same (docs/testing.md, "Build and test times").
if [[ ${CI:-} == true ]]; then
  scripts/build.sh ci
else
  scripts/build.sh
fi

# The Vulkan loader, lavapipe and vulkaninfo warn on every start without a
# runtime directory (containers and CI runners often have none).
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

# Two tests at a time, each with no lavapipe worker thread
# (LP_NUM_THREADS=0, llvmpipe's own setting on a one-core machine): the
# driver's queue thread then runs each dispatch's workgroups itself, in
# order, instead of handing every dispatch to a worker and waiting for it,
# a thread switch each way per dispatch, which costs about as much as a
# small test scene's shaders. By default lavapipe
# starts a worker per core in every process (docs/testing.md, "Build and
# test times"). The state is the same at any thread count
# (tests/cli/thread_hashes.sh compares 1, 2 and 4 threads, setting them
# itself, as do the other tests that need a count). Set LP_NUM_THREADS to
# run with another; scripts/asan_tests.sh uses 0 too.
export LP_NUM_THREADS=${LP_NUM_THREADS:-0}

status=0
ctest --test-dir build --output-on-failure -j2 "$@" || status=$?
ctest_status=$status

if [[ ${CI:-} == true || ${VKSIM_ASAN_TESTS:-} == 1 ]]; then
  asan_status=0
  scripts/asan_tests.sh || asan_status=$?
  if ((asan_status != 0)); then
    echo "test.sh: the tests under AddressSanitizer and UBSan failed (exit status $asan_status)" >&2
    ((status != 0)) || status=$asan_status
  fi
fi

if [[ ${CI:-} == true || -n ${VKSIM_FUZZ_SECONDS:-} ]]; then
  fuzz_status=0
  scripts/fuzz.sh "${VKSIM_FUZZ_SECONDS:-30}" || fuzz_status=$?
  if ((fuzz_status != 0)); then
    echo "test.sh: fuzzing found a problem (exit status $fuzz_status)" >&2
    ((status != 0)) || status=$fuzz_status
  fi
fi
# A CI log keeps only its tail: name the failed tests again at the end,
# with the last lines of each one's output (CTest's LastTest.log).
if ((ctest_status != 0)); then
  echo "test.sh: CTest failed (exit status $ctest_status); the failed tests:" >&2
  failed=build/Testing/Temporary/LastTestsFailed.log
  while read -r line; do
    name=${line#*:}
    echo "--- $name, the end of its output:" >&2
    awk -v name="$name" '
      /^[0-9]+\/[0-9]+ Test: / && substr($0, index($0, "Test: ") + 6) == name { inside = 1; n = 0; next }
      inside && /^<end of output>$/ { for (i = (n > 25 ? n - 25 : 0); i < n; ++i) print lines[i]; exit }
      inside { lines[n++] = $0 }' build/Testing/Temporary/LastTest.log >&2
  done < <([[ -f $failed ]] && cat "$failed")
fi
exit "$status"
