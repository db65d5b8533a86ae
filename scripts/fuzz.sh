#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (build-fuzz/, -DVKSIM_FUZZ=ON:
# AddressSanitizer, UBSan) and runs each for SECONDS (default 60), two at a
# time, from its seed corpus (tests/fuzz/seed_corpus.sh) into a scratch
# corpus: the repository's seed folders are never written. Prints one line
# per target (executions, executions per second, coverage, corpus size) and
# exits non-zero when any target found a crash, a leak, a timeout (an input
# running over 10 s) or an out-of-memory (over 2 GiB), naming the reproducer:
# add it to tests/fuzz/regressions/<target>/ once the bug is fixed.
# Usage: scripts/fuzz.sh [SECONDS]   (FUZZ_TARGETS="scene obj" runs only those)
# Corpora, logs and crashers of the last run stay in build-fuzz/fuzz-run/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
root=$PWD
seconds=${1:-60}
targets=(${FUZZ_TARGETS:-scene obj tetgen sdf_cache command_line})

start=$SECONDS
# -O1 with line tables only: half the build time of RelWithDebInfo's -O2 -g
# (the build is most of a CI run), stacks still name lines; no -DNDEBUG, so
# asserts are on.
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_COMPILER=clang++ "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only" -DVKSIM_FUZZ=ON >/dev/null
cmake --build build-fuzz --target vksim_fuzzers -j2
echo "fuzz.sh: built in $((SECONDS - start)) s"

work="$root/build-fuzz/fuzz-run"
rm -rf "$work"
mkdir -p "$work"

# JSON keys and literals for the scene target: libFuzzer splices them in
# whole instead of discovering them a byte at a time.
dictionary="$work/scene.dict"
grep -aho '"[A-Za-z][A-Za-z0-9_-]*"' scenes/*.json tests/bad_scenes/*.json | sort -u >"$dictionary"
printf '%s\n' '"{"' '"}"' '"["' '"]"' '":"' '","' '"true"' '"false"' '"null"' '"-1e309"' '"1e-320"' >>"$dictionary"
# Rigid bodies, mass-spring cloth and shape matching: keys, choices, fragments.
cat tests/fuzz/scene.dict >>"$dictionary"

fuzz_one() {  # fuzz_one TARGET: its corpus, log and crashers under $work/TARGET
  local target=$1 dir="$work/$1" extra=()
  mkdir -p "$dir/corpus" "$dir/artifacts"
  tests/fuzz/seed_corpus.sh "$target" "$dir/seeds"
  [[ $target == scene ]] && extra+=("-dict=$dictionary")
  # Not -fork: one process per target, two targets at a time on two cores.
  # The scratch corpus comes first, so new inputs are written there.
  ASAN_OPTIONS=detect_leaks=1 "build-fuzz/tests/fuzz_$target" "$dir/corpus" "$dir/seeds" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/artifacts/" "${extra[@]}" >"$dir/log" 2>&1
}

summary() {  # summary TARGET STATUS
  local target=$1 status=$2 log="$work/$1/log" line runs rate cov ft corpus
  line=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
  cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$line")
  ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$line")
  corpus=$(sed -n 's/.* corp: \([0-9]*\/[0-9]*[a-zA-Z]*\).*/\1/p' <<<"$line")
  printf '%-13s %10s execs %7s exec/s  cov: %-6s ft: %-6s corpus: %-12s %s\n' "$target" "${runs:-?}" \
    "${rate:-?}" "${cov:-?}" "${ft:-?}" "${corpus:-?}" "$([[ $status -eq 0 ]] && echo ok || echo FAILED)"
}

# Two at a time: the machine has two cores.
declare -A status
running=()
names=()
for target in "${targets[@]}"; do
  if ((${#running[@]} == 2)); then
    wait "${running[0]}" && status[${names[0]}]=0 || status[${names[0]}]=$?
    running=("${running[@]:1}")
    names=("${names[@]:1}")
  fi
  fuzz_one "$target" &
  running+=($!)
  names+=("$target")
done
for i in "${!running[@]}"; do
  wait "${running[$i]}" && status[${names[$i]}]=0 || status[${names[$i]}]=$?
done

failed=0
echo "fuzz.sh: ${seconds} s per target, two at a time; total $((SECONDS - start)) s with the build"
for target in "${targets[@]}"; do
  summary "$target" "${status[$target]}"
  if ((status[$target] != 0)); then
    failed=1
    grep -E '^(==[0-9]+== ?ERROR|SUMMARY|fuzz finding|terminate called|ALARM|.*out-of-memory)' "$work/$target/log" |
      head -n 5 | sed 's/^/    /'
    for artifact in "$work/$target/artifacts"/*; do
      [[ -e $artifact ]] && echo "    reproducer: $artifact (run: build-fuzz/tests/fuzz_$target $artifact)"
    done
    echo "    log: $work/$target/log"
  fi
done
exit "$failed"
