#!/usr/bin/env bash
# `vksim --list-passes SCENE` prints the step plan: one line per pass with
# its stage kind, owner and name, in step order, and every pass a timed run
# of that scene reports is in it (the plan is the one source of pass names).
set -euo pipefail
vksim="$1"; scene="$2"
plan="$("$vksim" --list-passes "$scene")"
echo "$plan"
fail() { echo "FAIL: $*"; exit 1; }
grep -qE '^predict +pbd +pbd: predict$' <<<"$plan" || fail "no PBD predict stage"
grep -qE '^solve +pbd +pbd: stretch colour 0$' <<<"$plan" || fail "no stretch colour 0 solve pass"
grep -qE '^collide-project +pbd +pbd: collide: project$' <<<"$plan" || fail "no collide-project stage"
grep -qE '^normals +world +normals$' <<<"$plan" || fail "no normals pass"
grep -qE '^finite-check +world +finite check$' <<<"$plan" || fail "no finite check"
# Every pass of a timed run is declared in the plan ("step total" is the
# whole frame, not a pass).
timings="$(mktemp --suffix=.csv)"; trap 'rm -f "$timings"' EXIT
"$vksim" --headless --quiet --frames 3 --timings "$timings" "$scene"
tail -n +2 "$timings" | cut -d, -f1 | tr -d '"' | grep -v "^step total$" | while read -r pass; do
    grep -qE " ${pass//|/\\|}\$" <<<"$plan" || fail "pass '$pass' of the timed run is not in the plan"
done
echo "list-passes: ok"
