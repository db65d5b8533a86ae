#version 460
// The cluster sweep of a CPU driver (docs/physics.md §1, "Large objects in
// clusters"): the PBD workgroup kernel (solve_in_workgroup.glsl), 8
// invocations a workgroup, projecting one iteration's phases of a cluster
// on the predicted positions in device memory, with nothing else compiled
// in. It runs on CPU drivers only (ClusterPath builds it where the workgroup
// solve is 16 wide).
//
// Why texels: lavapipe (Mesa 22.3) loads from a storage buffer one SIMD
// lane and one 32-bit word at a time, each with a bounds check, while a
// texel fetch is one gather: a vec4 loads faster as a texel than from a
// storage buffer, but stores faster to a storage buffer than by imageStore
// (measured on two cores: docs/benchmarks-history.md). So the sweep reads the
// constraint records and the materials as uniform texel buffers, and the
// predicted positions as a storage texel buffer, and writes the positions
// through a storage buffer bound to the same memory (binding 16).
//
// What keeps that ordered: both views are `coherent`, and each phase ends
// with a barrier that makes every invocation's buffer and image writes
// visible to the others (solve_in_workgroup.glsl, phaseBarrier), so what
// one invocation wrote through the buffer, any invocation reads through the
// texels in a later phase. Within a phase no invocation reads a position it
// wrote: a colour's constraints share no particle, and a cluster sweep has
// no serial share (the cluster plan leaves the overflow groups to the
// coloured sweep, sim/pbd_clusters.h); the collision constraints of the
// owned particles read each position before writing it.
//
// Which barrier: lavapipe compiles a shader with a workgroup barrier (or a
// memory barrier at workgroup scope or wider) as coroutines, one per SIMD
// vector, and that made the whole sweep slower on a 256 x 256 cloth,
// however few the barriers (grouping a core's clusters in one workgroup,
// 26 barriers an iteration per core instead of per cluster, changed
// nothing). Where the device lets a pipeline require full subgroups of 8
// (Vulkan 1.3's subgroupSizeControl and computeFullSubgroups, lavapipe's
// only size on AVX2), the workgroup is one subgroup, and a subgroup
// barrier, which orders every invocation of it, buffer and image memory
// included, ends each phase instead; elsewhere the workgroup barrier
// (ClusterPath::cpuSweepInOneSubgroup()). The same bits either way; the
// timings are in docs/benchmarks-history.md.
//
// For the same lane-by-lane stores, it writes only the xyz of a position
// (solve_in_workgroup.glsl, setPredicted), and ClusterPath builds it without
// the multipliers of the families whose materials are all PBD
// (pbd/xpbd_families.glsl).
//
// Why 8 invocations: that is one SIMD vector of lavapipe on AVX2, and
// lavapipe pays per vector at every barrier, each phase's end; with 16 the
// first sweep of a 256 x 256 cloth took longer (docs/benchmarks-history.md), with
// the same bits (a colour's constraints share no particle, so which
// invocation projects one changes nothing). The workgroup solve stays at
// 16, since with one vector lavapipe 22.3 computed wrong results once its
// shared array passed 16 KiB (docs/benchmarks-history.md); this sweep
// declares no shared memory (SpirvReflect.TheCpuClusterSweepReadsTexels).
layout(local_size_x = 8) in;
#extension GL_GOOGLE_include_directive : require
#define VKSIM_CLUSTER_SWEEP_CPU
#include "pbd/solve_in_workgroup.glsl"
