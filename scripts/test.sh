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

scripts/build.sh

# The Vulkan loader, lavapipe and vulkaninfo warn on every start without a
# runtime directory (containers and CI runners often have none).
if [[ -z "${XDG_RUNTIME_DIR:-}" ]]; then
  XDG_RUNTIME_DIR="$(mktemp -d)"
  chmod 700 "$XDG_RUNTIME_DIR"
  export XDG_RUNTIME_DIR
  trap 'rm -rf "$XDG_RUNTIME_DIR"' EXIT
fi

status=0
ctest --test-dir build --output-on-failure -j2 "$@" || status=$?

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
exit "$status"
