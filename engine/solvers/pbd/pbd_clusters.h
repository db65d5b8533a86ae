#pragma once
// How the cluster path (docs/physics.md §1, "Large objects in clusters")
// orders one Gauss-Seidel iteration of the PBD constraints. Every PBD object
// is cut into clusters: contiguous particle ranges of one size, at most
// `clusterParticles`, whose positions fit one workgroup's shared memory. Two
// partitions are used, the second shifted by half a cluster, so that a
// constraint crossing a boundary of the first lies inside a cluster of the
// second. An iteration is then
//   1. the first sweep: every cluster of the first partition in one
//      dispatch, one workgroup each, all colours of its constraints in shared
//      memory (a barrier between colours);
//   2. the second sweep: the same over the second partition, for the
//      constraints the first left;
//   3. the coloured sweep: the constraints neither holds (longer than half a
//      cluster) and the overflow groups, one dispatch per colour as on the
//      per-colour path;
//   4. the collision constraints, in the second sweep where it can
//      (ClusterPlan::secondSweepCoversEveryParticle), else a pass of their own.
// Each constraint is projected once per iteration. The plan is pure data,
// built on the CPU from the model; the GPU solver uploads it and the CPU
// reference sweeps in the same order.
#include <cstdint>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/sim_types.h"
#include "solvers/pbd/colour_steps.h"
#include "solvers/pbd/pbd_model.h"

namespace vksim {

// The model's PBD objects, in particle order.
std::vector<const ObjectRange*> pbdObjects(const PbdModelView& model);

// Appends one workgroup's phases to `all` and points `workgroup` at them
// (the workgroup and cluster plans' common layout).
void appendPhases(gpu::WorkgroupObject& workgroup, std::vector<gpu::WorkgroupPhase>& all,
                  const std::vector<gpu::WorkgroupPhase>& phases);

// Which sweep of an iteration projects a constraint.
enum class ClusterSweep : uint8_t { First = 0, Second = 1, Coloured = 2 };
inline constexpr uint32_t kClusterSweeps = 3;

// One constraint family under the plan.
struct FamilyClusters {
    // The family's array as the GPU holds it: entry k is the model's
    // constraint order[k]. Each colour is permuted within itself (no two of a
    // colour share a particle, so the per-colour path computes the same bits
    // on it) so that a cluster's share of a colour is one range, with the
    // coloured sweep's share at the colour's end; the overflow group is kept
    // as it is (walked in order).
    std::vector<uint32_t> order;
    // Per constraint of the model: the sweep that projects it.
    std::vector<ClusterSweep> sweepOf;
    // The coloured sweep's share of each colour of the permuted array (a
    // colour may have none), then the whole overflow group.
    ColourGroups coloured;
};

struct ClusterPlan {
    uint32_t clusterParticles = 0;
    // The first partition's clusters, then the second's; each holds its
    // particles and the phases of its constraints (no shape matching: that
    // stays a pass of its own).
    std::vector<gpu::WorkgroupObject> clusters;
    uint32_t firstSweepClusters = 0;
    uint32_t secondSweepClusters = 0;
    // Whether the second partition's clusters hold every PBD particle of the
    // model (all of them belong to objects): then, when nothing is left to
    // the coloured sweep and no object has shape matching, the second sweep
    // also projects the collision constraints, each cluster those of its own
    // particles after its phases, which is the collision pass's work in the
    // same order (a particle's collision constraint reads and writes that
    // particle only, and every constraint on it is projected by then).
    bool secondSweepCoversEveryParticle = false;
    std::vector<gpu::WorkgroupPhase> phases;
    FamilyClusters distance, bending, attachment, tetrahedron;
};

// The largest distance in particle index between two particles of one PBD
// constraint (0 without constraints). Two partitions shifted by half a
// cluster hold every constraint when each cluster has at least twice this
// many particles: the cuts are at k S and k S + S/2, and a constraint
// crosses both of two neighbouring cuts only if it spans more than S/2. A
// grid cloth's is two rows (its bending constraints).
uint32_t largestConstraintSpan(const PbdModelView& model);

// The plan for the model's PBD objects with clusters of at most
// `clusterParticles` particles (>= 2).
ClusterPlan buildClusterPlan(const PbdModelView& model, uint32_t clusterParticles);

// `constraints` in the plan's order for the GPU.
template <typename Constraint>
std::vector<Constraint> permuted(const std::vector<Constraint>& constraints, const FamilyClusters& family) {
    std::vector<Constraint> out;
    out.reserve(family.order.size());
    for (uint32_t k : family.order) out.push_back(constraints[k]);
    return out;
}

}  // namespace vksim
