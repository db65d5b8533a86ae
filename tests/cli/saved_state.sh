#!/usr/bin/env bash
# --save-state and --load-state (docs/command-line.md): a run saved after 12
# frames and loaded by another process, on another lavapipe thread count,
# steps on to the state-hash of one run of all the frames; so does a chain
# of two loads. Exported frames go on numbering from the loaded frame. A
# state of another scene, a truncated or damaged file, a directory and a
# state written over the scene are refused with one line and exit status 1.
# Usage: saved_state.sh VKSIM SCENES_DIR
set -euo pipefail
vksim=$1
scenes=$2
source "$(dirname "$0")/checks.sh"
source "$(dirname "$0")/thread_hashes.sh"

# A cloth coupled both ways with two bodies, and five explicit integrators
# side by side (Position Verlet keeps x^{n-1} across frames).
for name in rigid_cloth_ride springs_integrators; do
    scene=$scenes/$name.json
    straight=$(hash_of "$("$vksim" "$scene" --headless --frames 20 --hash --quiet --validate)")
    "$vksim" "$scene" --headless --frames 12 --quiet --validate --save-state "$work/$name.state"
    loaded=$(hash_of "$(LP_NUM_THREADS=1 "$vksim" "$scene" --headless --frames 8 --hash --quiet --validate \
        --load-state "$work/$name.state")")
    echo "$name: 20 frames $straight; 12 + 8 (loaded on 1 thread) $loaded"
    [[ $name == rigid_cloth_ride ]] && ride_hash=$straight
    [[ -n $straight && $straight == "$loaded" ]] && pass "$name: saved and loaded = one run" \
        || fail "$name: saved and loaded differs from one run"
done

# A chain: 12 frames, then 4 more saved again, then the last 4. The middle
# run exports its frames, whose numbers continue from the loaded frame.
scene=$scenes/rigid_cloth_ride.json
"$vksim" "$scene" --headless --frames 4 --quiet --load-state "$work/rigid_cloth_ride.state" \
    --save-state "$work/chain.state" --export "$work/out"
chained=$(hash_of "$("$vksim" "$scene" --headless --frames 4 --hash --quiet --load-state "$work/chain.state")")
[[ $chained == "$ride_hash" ]] && pass "two loads in a chain = one run" || fail "two loads in a chain: $chained"
[[ -f $work/out/over_the_box_00012.obj && -f $work/out/over_the_box_00015.obj && ! -e $work/out/over_the_box_00000.obj &&
    ! -e $work/out/over_the_box_00016.obj ]] \
    && pass "exports after a load are frames 12 to 15" || fail "exports after a load: $(ls "$work/out" | head -3)"

# Refusals: one line on stderr, exit status 1, and no state written.
refused() {  # refused LABEL EXPECTED_START ARGS...
    local label=$1 expected=$2 status=0 err
    shift 2
    err=$("$vksim" "$@" --headless --frames 2 --quiet 2>&1 >/dev/null) || status=$?
    if [[ $status -eq 1 && $(wc -l <<<"$err") -eq 1 && $err == "$expected"* ]]; then
        pass "$label: $err"
    else
        fail "$label (status $status): $err"
    fi
}
state=$work/rigid_cloth_ride.state
refused "another scene" "vksim: $state: a state of another model (2 object(s) (over the box, over the ball), " \
    "$scenes/jelly.json" --load-state "$state"
head -c 1000 "$state" > "$work/truncated.state"
refused "truncated" "vksim: $work/truncated.state: damaged or truncated vksim state: its checksum does not match" \
    "$scene" --load-state "$work/truncated.state"
cp "$state" "$work/damaged.state"
printf '\x55' | dd of="$work/damaged.state" bs=1 seek=5000 conv=notrunc status=none
refused "damaged" "vksim: $work/damaged.state: damaged or truncated vksim state: its checksum does not match its bytes" \
    "$scene" --load-state "$work/damaged.state"
refused "a scene file" "vksim: $scene: not a vksim state" "$scene" --load-state "$scene"
refused "a directory" "vksim: $work: cannot open file: Is a directory (--load-state)" "$scene" --load-state "$work"
refused "over the scene" "vksim: cannot write $scene: it is the run's input" "$scene" --save-state "$scene"

finish
