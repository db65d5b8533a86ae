# Sourced by the CLI determinism checks: one scene's state-hash in separate
# processes with lavapipe on 1, 2 and 4 threads, validation on.
#   hash_of OUTPUT              the "state-hash: ..." line of a run's output
#   same_hash_on_threads VKSIM SCENE FRAMES
#                               prints each thread count's hash, calls fail
#                               (the caller's) unless all three agree, and
#                               leaves the hash in $thread_hash
hash_of() { grep '^state-hash: ' <<<"$1"; }

same_hash_on_threads() {
  local vksim=$1 scene=$2 frames=$3 threads out
  local -A hashes
  for threads in 1 2 4; do
    out=$(LP_NUM_THREADS=$threads "$vksim" "$scene" --headless --frames "$frames" --hash --quiet --validate)
    hashes[$threads]=$(hash_of "$out")
    echo "LP_NUM_THREADS=$threads: ${hashes[$threads]}"
  done
  [[ ${hashes[1]} =~ ^state-hash:\ [0-9a-f]{16}$ ]] || fail "no state-hash line"
  [[ ${hashes[1]} == "${hashes[2]}" && ${hashes[1]} == "${hashes[4]}" ]] || fail "the thread counts differ"
  thread_hash=${hashes[1]}
}
