#!/usr/bin/env bash
# The viewer's command-line options: every bad value is one line on stderr
# and exit status 2, before any window or device is opened.
set -uo pipefail
vksim=$1
scene=$2
failures=0

expect_usage() {
  local stderr rc
  stderr=$("$vksim" "$scene" --headless --frames 1 --quiet "$@" 2>&1 >/dev/null)
  rc=$?
  local lines
  lines=$(printf '%s\n' "$stderr" | grep -c .)
  if [[ $rc -ne 2 || $lines -ne 1 ]]; then
    echo "FAIL: $* -> exit $rc, $lines stderr line(s): $stderr"
    failures=$((failures + 1))
  else
    echo "ok: $* -> exit 2: $stderr"
  fi
}

expect_usage --screenshot shot.jpg
expect_usage --size 10x10
expect_usage --size 1280
expect_usage --size 1280x720x3
expect_usage --present-mode vsync
expect_usage --display solid
expect_usage --frames 0 --screenshot x.png

# A screenshot into a directory that does not exist: one line, exit 1.
stderr=$("$vksim" "$scene" --headless --frames 1 --quiet --screenshot /nonexistent/dir/x.png 2>&1 >/dev/null)
rc=$?
if [[ $rc -ne 1 || $(printf '%s\n' "$stderr" | grep -c .) -ne 1 ]]; then
  echo "FAIL: unwritable screenshot -> exit $rc: $stderr"
  failures=$((failures + 1))
else
  echo "ok: unwritable screenshot -> exit 1: $stderr"
fi
exit $((failures > 0))
