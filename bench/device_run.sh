#!/usr/bin/env bash
# On a lent GPU machine (the device tool, bench/README.md "Running on a lent
# GPU"): unpacks .device/vksim-bundle.tar.xz (scripts/device_bundle.sh),
# points the loader at the machine's NVIDIA driver and the carried
# validation layer, and runs the GPU tests and the bench of the open work,
# each step under its own time limit so that one slow step leaves the rest
# their time. Results: $OUT/device-log.txt (everything printed) and
# $OUT/device-results.tar.gz (one CSV or text file per step), to copy into
# bench/<device>/.
# Usage: bench/device_run.sh [STEP...]   (default: every step, in order)
#        VKSIM_DEVICE_QUICK=1: tiny sizes, to try the script on lavapipe.
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${OUT:-$PWD/device-out}
mkdir -p "$out"
root=/tmp/vksim-device
results=$root/results
rm -rf "$root" && mkdir -p "$results"
tar -C "$root" -xJf .device/vksim-bundle.tar.xz || { echo "device_run.sh: no .device/vksim-bundle.tar.xz" >&2; exit 1; }
# The programs read scenes and test meshes from the folder they were built
# in: here it is this checkout.
source_dir=$(cat "$root/source_dir")
if [[ ! -e $source_dir ]]; then
    mkdir -p "$(dirname "$source_dir")" && ln -s "$PWD" "$source_dir"
fi
export LD_LIBRARY_PATH=$root/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export VK_LAYER_PATH=$root/layers
nvidia_icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
[[ -f $nvidia_icd && -z ${VK_DRIVER_FILES:-} ]] && export VK_DRIVER_FILES=$nvidia_icd
vksim=$root/bin/vksim
quick=${VKSIM_DEVICE_QUICK:-0}
log=$out/device-log.txt
: >"$log"

# step NAME LIMIT_SECONDS COMMAND...: runs COMMAND, its output into the log
# and results/NAME.txt.
step() {
    local name=$1 limit=$2
    shift 2
    local start=$SECONDS
    echo "=== $name: $*" | tee -a "$log"
    timeout "$limit" "$@" 2>&1 | tee "$results/$name.txt" >>"$log"
    local status=${PIPESTATUS[0]}
    echo "=== $name: exit $status after $((SECONDS - start)) s" | tee -a "$log"
}
# bench NAME LIMIT FILTER SIZES [QUICK_SIZES]: one bench run, CSV into results.
bench() {
    local name=$1 limit=$2 filter=$3 sizes=$4
    [[ $quick == 1 ]] && sizes=${5:-$4}
    step "$name" "$limit" "$vksim" bench --quiet --filter "$filter" --sizes "$sizes" --frames 10 --warmup 3 \
        --out "$results/$name.csv"
}

steps=("$@")
[[ ${#steps[@]} -eq 0 ]] && steps=(devices tests contacts solids batch cloth)
for s in "${steps[@]}"; do
    case $s in
    devices) step devices 30 "$vksim" --list-devices ;;
    tests)   # every GPU test, with validation, as in CI
        if [[ $quick == 1 ]]; then
            step tests 120 "$root/bin/vksim_gpu_tests" --gtest_brief=1 --gtest_filter='ComputePipelinesTest.*'
        else
            step tests 240 "$root/bin/vksim_gpu_tests" --gtest_brief=1
        fi ;;
    contacts)  # issue 36: self-contact cost, 256² at <= 8 ms a frame, scaling 10 k -> 1 M
        bench contacts-fold 150 contacts-fold 64,256,1024 16
        bench contacts-pile 60 contacts-pile 8,32 2 ;;
    solids)  # issue 37: three solvers on one mesh, time to the same objective
        bench tet-solids 90 tet-solids 2,8,32 2
        step solids-convergence 60 "$vksim" bench --quiet --solids-convergence --sizes 6 ;;
    batch)  # issue 39: per-copy cost at 4096 copies <= 1/50 of one copy's
        bench batch-cloth 60 batch-cloth 1,16,256,4096 1,4 ;;
    cloth)  # issue 38: the new passes against the stretch projection at 64² and 256²
        for scene in cloth-pbd-per-colour cloth-wind cloth-tearing cloth-character; do
            bench "$scene" 40 "$scene" 64,256 16
        done ;;
    *) echo "device_run.sh: unknown step '$s' (devices, tests, contacts, solids, batch, cloth)" >&2 ;;
    esac
done
tar -C "$results" -czf "$out/device-results.tar.gz" .
echo "device_run.sh: $out/device-log.txt, $out/device-results.tar.gz"
