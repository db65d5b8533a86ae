# Sourced by the CLI determinism checks: one scene's state-hash in separate
# processes with lavapipe on 1, 2 and 4 threads, validation on (a
# validation message exits non-zero, which ends the caller under set -e).
#   hash_of OUTPUT              the "state-hash: ..." line of a run's output
#   same_hash_on_threads VKSIM SCENE FRAMES [ARGS...]
#                               prints each thread count's hash, calls fail
#                               (the caller's) unless all three agree, and
#                               leaves the hash in $thread_hash. The run on
#                               1 thread is the full one: its model
#                               summary, timing table and end-of-run lines,
#                               and ARGS (say --export); its output is left
#                               in $thread_output for the caller's checks of
#                               them, instead of another run of the scene.
#                               The runs on 2 and 4 threads are --quiet.
hash_of() { grep '^state-hash: ' <<<"$1"; }

same_hash_on_threads() {
  local vksim=$1 scene=$2 frames=$3 threads out
  shift 3
  local -A hashes
  for threads in 1 2 4; do
    if [[ $threads == 1 ]]; then
      out=$(LP_NUM_THREADS=1 "$vksim" "$scene" --headless --frames "$frames" --hash --validate "$@")
      thread_output=$out
    else
      out=$(LP_NUM_THREADS=$threads "$vksim" "$scene" --headless --frames "$frames" --hash --quiet --validate)
    fi
    hashes[$threads]=$(hash_of "$out")
    echo "LP_NUM_THREADS=$threads: ${hashes[$threads]}"
  done
  [[ ${hashes[1]} =~ ^state-hash:\ [0-9a-f]{16}$ ]] || fail "no state-hash line"
  [[ ${hashes[1]} == "${hashes[2]}" && ${hashes[1]} == "${hashes[4]}" ]] || fail "the thread counts differ"
  thread_hash=${hashes[1]}
}

#   scene_variant SCENE OUT MARK SED_EXPRESSION...
#                               SCENE with the sed expressions applied and its
#                               ../assets/ paths made absolute, in OUT; exits
#                               when MARK is not in the result (the edit missed)
scene_variant() {
  local scene=$1 out=$2 mark=$3 assets
  shift 3
  assets=$(cd "$(dirname "$scene")/../assets" && pwd)
  local args=()
  for expression in "$@"; do args+=(-e "$expression"); done
  sed "${args[@]}" -e "s|\.\./assets/|$assets/|g" "$scene" > "$out"
  grep -q -- "$mark" "$out" || { echo "FAIL: could not edit $scene ($mark)"; exit 1; }
}

#   same_hash_on_path VKSIM SCENE FRAMES LABEL PASS
#                               runs SCENE (another dispatch path) with
#                               validation; calls fail unless its timing
#                               table has a pass starting with PASS and its
#                               state-hash is $thread_hash (pass and fail:
#                               the caller's, from checks.sh)
same_hash_on_path() {
  local vksim=$1 scene=$2 frames=$3 label=$4 pass=$5 out hash
  out=$("$vksim" "$scene" --headless --frames "$frames" --hash --validate)
  grep -qE "^  $pass" <<<"$out" || fail "no '$pass' pass on the $label path"
  hash=$(hash_of "$out")
  echo "$label: $hash"
  if [[ $hash == "$thread_hash" ]]; then pass "the $label path gives the same state-hash"; else fail "the $label path differs"; fi
}
