#!/usr/bin/env bash
# vksim as an installed package inside another program: installs the build to
# a temporary prefix, builds examples/embed against it with find_package(vksim)
# and runs it headless with validation. Checks: only the library's headers
# are installed, exit 0, no validation message,
# a plausible share of the image covered by the cloth, the same state-hash as
# `vksim SCENE --headless --frames N --hash`, and a one-line error for a
# missing scene file.
# Usage: embed_test.sh CMAKE BUILD_DIR SOURCE_DIR VKSIM SCENE FRAMES WORK_DIR
set -euo pipefail
cmake=$1 build=$2 source=$3 vksim=$4 scene=$5 frames=$6 work=$7
fail() { echo "FAIL: $*"; exit 1; }

rm -rf "$work"
mkdir -p "$work"
"$cmake" --install "$build" --prefix "$work/prefix" > "$work/install.log" || { cat "$work/install.log"; fail "install"; }
[[ -f $work/prefix/lib/cmake/vksim/vksimConfig.cmake ]] || fail "no vksimConfig.cmake installed"
[[ -f $work/prefix/include/vksim/world/world.h ]] || fail "no world/world.h installed"
[[ -f $work/prefix/include/vksim/shaders/shared/sim_types.h ]] || fail "no shaders/shared/sim_types.h installed"
# The library alone: the app's layers (viewer, panels, frame loop, bench,
# command line) are not installed.
for layer in render ui run bench app; do
    [[ ! -e $work/prefix/include/vksim/$layer ]] || fail "the app layer $layer/ was installed"
done

# Debug: the example's few files compile fastest without optimisation; the
# simulation runs in the installed (optimised) library and on the GPU.
"$cmake" -S "$source/examples/embed" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" 2>&1 || { cat "$work/configure.log"; fail "configure"; }
"$cmake" --build "$work/build" -j2 > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }

set +e
"$work/build/vksim_embed" --scene "$scene" --frames "$frames" --size 256x256 --image "$work/embed.png" --validate \
    > "$work/out.txt" 2> "$work/err.txt"
status=$?
set -e
cat "$work/out.txt" "$work/err.txt"
[[ $status -eq 0 ]] || fail "vksim_embed exited $status"
! grep -q '^\[vulkan' "$work/err.txt" || fail "validation messages"
[[ -s $work/embed.png ]] || fail "no image written"

summary=$(grep '^vksim_embed: ' "$work/out.txt") || fail "no summary line"
[[ $summary =~ covered\ ([0-9]+)\ of\ ([0-9]+)\ pixels ]] || fail "no covered pixel count"
covered=${BASH_REMATCH[1]} total=${BASH_REMATCH[2]}
# The cloth fills a few percent of the picture from the scene's camera: not
# nothing (not drawn), not everything (a broken transform).
(( covered * 200 > total )) || fail "only $covered of $total pixels covered"
(( covered * 2 < total )) || fail "$covered of $total pixels covered"

[[ $summary =~ state-hash:\ ([0-9a-f]{16}) ]] || fail "no state-hash"
embedded=${BASH_REMATCH[1]}
reference=$("$vksim" "$scene" --headless --frames "$frames" --hash --quiet | sed -n 's/^state-hash: //p')
echo "vksim --headless: $reference, embedded: $embedded"
[[ $embedded == "$reference" ]] || fail "state-hash differs from vksim --headless"

set +e
message=$("$work/build/vksim_embed" --scene "$work/no_such_scene.json" 2>&1)
status=$?
set -e
[[ $status -eq 1 && $message == "vksim_embed: scene file '$work/no_such_scene.json' not found" ]] ||
    fail "missing scene: exit $status, '$message'"
echo "1 passed, 0 failed"
