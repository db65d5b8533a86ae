#pragma once
// What the PBD workgroup solve (docs/physics.md §1, "Small objects in one
// workgroup"; shaders/pbd/solve_in_workgroup.glsl) runs: one workgroup per
// PBD object, and per object the phases of one
// Gauss-Seidel iteration in the order the per-colour path projects them
// (each family's colours, then its overflow group), each cut down to the
// object's own constraints. Built on the CPU from the model, over the
// constraint arrays in the order the GPU holds them (the cluster plan's);
// uploaded once.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/sim_types.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

struct ClusterPlan;

struct WorkgroupPlan {
    std::vector<gpu::WorkgroupObject> objects;  // one per PBD object, in particle order
    std::vector<gpu::WorkgroupPhase> phases;    // each object's, one after another
};

// The particles whose positions fit in `sharedMemoryBytes` of shared memory
// (12 bytes each: the solve keeps xyz there and reads inverse masses from
// the particle store).
uint32_t workgroupParticleCapacity(uint32_t sharedMemoryBytes);

// The most particles in one cluster of the cluster path (solvers/pbd/pbd_clusters.h).
//
// On a GPU, small clusters: each object as large as the largest
// (`largestObject` particles) cut into as many equal clusters as keep each
// at least kGpuClusterParticles (the kernel's invocations: one particle
// each) and twice the model's largestConstraintSpan() `largestSpan` (so
// that the two partitions hold every constraint), no larger than one
// workgroup holds. A cluster's workgroup runs every colour of every
// iteration one after another, a barrier between them, on one
// multiprocessor: in clusters of a whole workgroup (4096 on an H100) a
// 256 x 256 cloth was 16 workgroups on 132 multiprocessors, and a frame
// took as long as at 128 x 128, no faster than the per-colour path; in
// clusters of 1024, twice its span, far less. In clusters below twice the
// span, the bending constraints across two rows of a cloth fell to the
// coloured sweep (594-914 dispatches a frame instead of 82). Measured on
// an H100: docs/physics.md §1, "Large objects in clusters", and
// docs/benchmarks.md; the runs in bench/README.md.
//
// On a CPU device, whose sweep works in device memory (no shared-memory
// bound), half a workgroup, or what cuts the largest object
// (`largestObject` particles) into kCpuClustersPerObject if that is more. A
// CPU driver runs a workgroup on one core, so an object that fits one
// workgroup would be solved by one core; in clusters of half the size it
// is cut in two at least, and two cores share it, faster than one
// workgroup on the default 48 x 48 cloth. Past that, fewer and larger
// clusters cost less: the constraints across their cuts are the second
// sweep's, which projects each cluster's share of every colour in a few
// phases of a few constraints (both measured on lavapipe with 2 cores:
// docs/physics.md §1, "Large objects in clusters", and docs/benchmarks.md).
// The count never depends on the driver's threads, so neither do the
// results.
inline constexpr uint32_t kCpuClustersPerObject = 8;
inline constexpr uint32_t kGpuClusterParticles = 256;
uint32_t clusterParticleCapacity(uint32_t sharedMemoryBytes, bool cpuDevice, uint32_t largestObject,
                                 uint32_t largestSpan);

// The plan for the model's PBD objects, over the constraint arrays in the
// order of `arrays` (each colour permuted within itself: the order within a
// colour changes no bits, since no two of its constraints share a particle).
// An object's share of a colour may be more than one run of the array (the
// cluster plan puts each object's first-sweep clusters before the second
// sweep's): each run is a phase of its own. Throws std::logic_error if a
// constraint is not on a PBD object.
WorkgroupPlan buildWorkgroupPlan(const PbdModelView& model, const ClusterPlan& arrays);

// The particles' worth of shared memory shape matching's scratch takes in a
// workgroup of `workgroupSize` invocations (a vec4 each, after the positions).
uint32_t shapeMatchScratchParticles(uint32_t workgroupSize);

// Why the model's PBD objects cannot be solved one per workgroup with
// `capacity` particles each, `scratchParticles` of them taken by shape
// matching's scratch in an object that has it (the first object over it,
// named), or nothing when they can.
std::optional<std::string> workgroupMisfit(const PbdModelView& model, uint32_t capacity, uint32_t scratchParticles = 0);

// Why a CPU driver's cluster sweep cannot run the model (the first array,
// named, with more 16-byte texels than `maxTexels`), or nothing when it can:
// it reads each array as one texel view (shaders/pbd/cluster_sweep_cpu.comp),
// which holds at most the device's maxTexelBufferElements.
std::optional<std::string> clusterTexelMisfit(const PbdModelView& model, uint32_t maxTexels);

}  // namespace vksim
