#!/usr/bin/env bash
# Little host memory (ulimit -v): vksim ends with exit status 1 and one line
# saying memory ran out, on the host or the device, or exits 0 when the run
# fits; never a crash (134 SIGABRT, 139 SIGSEGV) or a bare std::bad_alloc,
# even where the driver itself crashes (vk/driver_crash.h). Where the driver
# aborts, the C library or LLVM may have printed its own line first.
# Usage: low_memory.sh VKSIM SMALL_SCENE
set -uo pipefail
vksim=$1
scene=$2
source "$(dirname "${BASH_SOURCE[0]}")/checks.sh"

# A cloth large enough that its buffers do not fit under the larger limits,
# yet within the device's limits (960 x 960: lavapipe's maxStorageBufferRange
# of 128 MiB refuses PBD cloths past 965 x 965 before anything is allocated).
big="$work/big_cloth.json"
cat >"$big" <<'JSON'
{ "name": "big cloth", "solver": { "substeps": 1, "iterations": 1 },
  "objects": [ { "type": "cloth", "name": "big", "size": [1, 1], "resolution": [960, 960], "position": [0, 1, 0] } ] }
JSON

out_of_memory=0  # runs that ended in status 1 naming memory (counted for the sweep)
# The line glibc prints before it aborts on a heap the driver corrupted
# ("double free or corruption (top)"), or the lines LLVM prints before it
# aborts ("LLVM ERROR: Unable to allocate section memory!"; on a failed
# allocation "LLVM ERROR: out of memory" and then its reason, "Allocation
# failed"): vksim's line follows them.
abort_report='^\(double free or corruption\|free(): \|malloc(): \|realloc(): \|corrupted \|munmap_chunk(): \|LLVM ERROR: \|Allocation failed$\)'
limited_run() {  # limited_run NAME KIB SCENE EXPECT(oom|any)
    local name=$1 kib=$2 scene=$3 expect=$4 status err
    # One llvmpipe thread: each thread reserves its own stack, and the
    # driver's own start-up is not what this checks.
    err=$( (ulimit -v "$kib" && LP_NUM_THREADS=1 exec timeout 120 "$vksim" "$scene" --headless --frames 3 --quiet) \
        2>&1 >/dev/null)
    status=$?
    if [[ $status -eq 134 || $status -eq 139 || $status -eq 124 ]]; then
        fail "$name: status $status (a crash or a hang), stderr: $err"
    elif [[ $err == *"vksim: out of host memory"* ]]; then  # vksim's own, without the scene file
        fail "$name: out of host memory without the scene file: $err"
    elif [[ $status -eq 0 && $expect == any ]]; then
        pass "$name: the run fits"
    elif [[ $status -eq 1 && $(printf '%s\n' "$err" | grep -vc "$abort_report") -eq 1 &&
            $(printf '%s\n' "$err" | tail -n 1) =~ out\ of\ (host\ |device\ )?memory ]]; then
        out_of_memory=$((out_of_memory + 1))
        pass "$name: status 1, $err"
    else
        fail "$name: status $status, stderr: $err"
    fi
}

# Measured with lavapipe (Mesa 22.3, Debian 12), one llvmpipe thread: the
# small cloth needs about 300 MiB of address space, the big one about 1.4 GiB.
# 150 MiB: the driver fails to start (VK_ERROR_INITIALIZATION_FAILED), said
# with the limit as the likely reason. 700 MiB: the big cloth's model is a
# bad_alloc. 1300 MiB: its buffers are out of device memory (lavapipe's
# device memory is the process's), or it fits on a machine whose driver
# takes less. With its default threads it can hang in a fence wait at
# 300 MiB (the GPU time limit ends that wait; not checked here).
limited_run "small cloth, 150 MiB" $((150 * 1024)) "$scene" oom
limited_run "big cloth, 700 MiB" $((700 * 1024)) "$big" oom
limited_run "big cloth, 1300 MiB" $((1300 * 1024)) "$big" any
limited_run "small cloth, 1300 MiB" $((1300 * 1024)) "$scene" any

# Between about 220 and 470 MiB the driver runs out of memory in the middle
# of vkCreateDevice, of compiling a shader, or of running the commands in
# its own thread, and then either fails (VK_ERROR_OUT_OF_HOST_MEMORY, or
# VK_ERROR_UNKNOWN) or crashes (SIGSEGV in libvulkan_lvp.so; an abort on a
# corrupted heap at 250 MiB; an uncaught std::bad_alloc or an LLVM error in
# its thread at 290 MiB), depending on where the allocation that failed was
# and on the address-space layout; or the run fits. Measured before the
# crash was reported, in steps of 10 MiB: SIGSEGV at 240-280, 390-410 and
# 460 MiB, status 139; SIGABRT at 250 and 290 MiB in a fresh clone's run,
# status 134. Each limit here must
# give status 1 naming memory (the crash: "the Vulkan driver crashed
# (SIGSEGV) while creating the device; the driver may be out of host memory
# under the address-space limit of 250.0 MiB (ulimit -v)"), or fit.
out_of_memory=0
for mib in $(seq 220 10 470); do
    limited_run "small cloth, $mib MiB" $((mib * 1024)) "$scene" any
done
if ((out_of_memory > 0)); then
    pass "the sweep ran out of memory $out_of_memory times"
else
    fail "the sweep never ran out of memory: its limits no longer reach this driver's"
fi

finish
