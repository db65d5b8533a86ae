#include "solvers/pbd/cluster_path.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/pbd/pbd_types.h"
#include "shaders/shared/interaction_types.h"
#include "solvers/pbd/colour_sweep.h"
#include "solvers/pbd/iteration_stages.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/workgroup_plan.h"
#include "solvers/pbd/workgroup_solve.h"
#include "state/collider_set.h"
#include "vk/context.h"

namespace vksim {

namespace {

// pbd/cluster_sweep_cpu.comp's local_size_x: one SIMD vector of lavapipe
// (that file says why).
constexpr uint32_t kCpuClusterSweepWidth = 8;

// The CPU cluster sweep's contact lists (projectListedContacts in
// pbd/solve_in_workgroup.glsl): each cluster of the second sweep, the one
// that projects collisions, gets per invocation of its workgroup (`width` of
// them, interleaved) a count and one slot per particle the invocation owns,
// and its contactListFirst points there.
GpuBuffer makeContactLists(const VulkanContext& ctx, std::vector<gpu::WorkgroupObject>& clusters,
                           uint32_t firstSweepClusters, uint32_t width) {
    uint64_t slots = 0;
    for (size_t c = firstSweepClusters; c < clusters.size(); ++c) {
        clusters[c].contactListFirst = static_cast<uint32_t>(slots);
        slots += uint64_t(width) * (1 + (clusters[c].particleCount + width - 1) / width);
    }
    if (slots > UINT32_MAX) throw std::length_error("the cluster contact lists pass 2^32 entries");
    return makeStorageBuffer<uint32_t>(ctx, std::vector<uint32_t>(slots), "cluster contact lists");
}

bool holdsNothing(const ColourGroups& groups) {
    for (const ColourRange& colour : groups.colours)
        if (colour.count > 0) return false;
    return groups.overflow.count == 0;
}

uint32_t largestObject(const PbdModelView& model) {
    uint32_t largest = 0;
    for (const ObjectRange* object : pbdObjects(model)) largest = std::max(largest, object->particleCount);
    return largest;
}

}  // namespace

ClusterPlan planPbdClusters(const PbdModelView& model, const PbdDeviceShape& device) {
    return buildClusterPlan(model, clusterParticleCapacity(device.sharedBytes, device.cpuDevice, largestObject(model),
                                                           largestConstraintSpan(model)));
}

ClusterPath::ClusterPath(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& plan,
                         const PbdDeviceShape& device, const PbdConstraints& constraints, const ColliderSet& colliders,
                         const WorkgroupSolve& solve, const ColourSweep& colours, PbdIterationStages& stages)
    : ctx_(ctx),
      constraints_(constraints),
      colliders_(colliders),
      solve_(solve),
      colours_(colours),
      stages_(stages),
      capacity_(plan.clusterParticles),
      objectCount_(static_cast<uint32_t>(pbdObjects(model).size())),
      largestObjectClusters_((largestObject(model) + capacity_ - 1) / capacity_),
      clusterCounts_{plan.firstSweepClusters, plan.secondSweepClusters},
      coloured_{plan.distance.coloured, plan.bending.coloured, plan.attachment.coloured, plan.tetrahedron.coloured} {
    for (const FamilyClusters* family : {&plan.distance, &plan.bending, &plan.attachment, &plan.tetrahedron})
        for (ClusterSweep sweep : family->sweepOf)
            if (sweep != ClusterSweep::Coloured) ++sweepConstraints_[static_cast<uint32_t>(sweep)];
    sweepCollides_ = plan.secondSweepCoversEveryParticle && clusterCounts_[1] > 0 &&
                     constraints.shapeMatchGroupCount() == 0 &&
                     std::all_of(coloured_.begin(), coloured_.end(), holdsNothing);
    // A cloth that splits vertices moves constraints to its spare particles,
    // at the end of its range, out of the clusters they were planned in.
    if (!model.pbd.splitCloths.empty())
        misfit_ = "a cloth splits vertices as it tears (\"tearing\": {\"capacity\"}), which moves constraints "
                  "out of the clusters planned at load";
    if (constraints.range().count == 0) return;

    // The CPU cluster sweep reads positions it wrote in an earlier phase only
    // (shaders/pbd/cluster_sweep_cpu.comp): no cluster phase is a serial share.
    for (const gpu::WorkgroupPhase& phase : plan.phases)
        if (phase.serial != 0u) throw std::logic_error("the cluster plan has a serial phase");
    // With few invocations the clusters work in device memory, in a shader
    // of their own (pbd/cluster_sweep_cpu.comp) that reads the arrays as texels.
    inDeviceMemory_ = !device.wide();
    cpuSweepInOneSubgroup_ = ctx.canRequireSubgroupSize(kCpuClusterSweepWidth);
    std::vector<gpu::WorkgroupObject> clusters = plan.clusters;
    if (inDeviceMemory_) contactLists_ = makeContactLists(ctx, clusters, clusterCounts_[0], kCpuClusterSweepWidth);
    plan_ = makeWorkgroupPlanBuffer(ctx, clusters, plan.phases, "cluster plan");
    if (inDeviceMemory_ && !misfit_) misfit_ = clusterTexelMisfit(model, device.maxTexels);
}

ClusterPath::~ClusterPath() = default;

void ClusterPath::declarePasses(StepPlan& plan) {
    for (int sweep = 0; sweep < 2; ++sweep)
        sweepPasses_[sweep] = plan.declare(std::string(kSweepPassNames[sweep]), StageKind::Solve, "pbd");
}

std::string ClusterPath::describe() const {
    return fmt::format(": {} + {} clusters of at most {} particles", clusterCounts_[0], clusterCounts_[1], capacity_);
}

// Each iteration the sweeps, then what is left of the colours; the
// collision constraints in the second sweep where it can (sweepCollides_).
const GpuBuffer& ClusterPath::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    const uint32_t iterations = sub.frame.settings.pbd.iterations;
    const FamilyGroups coloured = {&coloured_[0], &coloured_[1], &coloured_[2], &coloured_[3]};
    return stages_.recordIterations(rec, sub, sweepCollides_, [&](uint32_t it, StepPosition at) {
        recordSweeps(rec, sub, it, at);
        colours_.record(rec, coloured, it, iterations, sub.h, at);
    });
}

// The second sweep ends with the collision constraints where it can. The
// mouse's particle is held as the mouse pass left it (inverse mass 0 for
// the constraints).
void ClusterPath::recordSweeps(StepRecorder& rec, const SubstepContext& sub, uint32_t iteration, StepPosition at) {
    gpu::WorkgroupSolvePush push{};
    push.particles = sub.particles;
    push.iterations = sub.frame.settings.pbd.iterations;
    push.firstIteration = iteration;
    push.stages = gpu::kStageClusterSweep;
    push.mouseParticle = gpu::kNoParticle;
    if (sub.frame.mouse && constraints_.range().contains(sub.frame.mouse->particle))
        push.mouseParticle = sub.frame.mouse->particle;
    const ComputeKernel& kernel = inDeviceMemory_ ? sweepInDeviceMemory() : solve_.kernel();
    for (uint32_t sweep = 0; sweep < 2; ++sweep) {
        if (clusterCounts_[sweep] == 0) continue;
        push.firstObject = sweep == 0 ? 0 : clusterCounts_[0];
        if (sweep == 1 && sweepCollides_ && colliders_.count() > 0) push.stages |= gpu::kStageClusterCollide;
        solve_.run(rec, sweepPasses_[sweep], kernel, plan_, clusterCounts_[sweep], push, at,
                   &contactLists_);
        rec.countWork({.pbdWorkgroupConstraints = double(sweepConstraints_[sweep]) / clusterCounts_[sweep]});
    }
}

// Built the first time the families' modes ask for it (a material edit
// records the frame again, a PbdMaterialEdit), and kept: at most
// eight per model, one per set of the cloth families (the tetrahedron bit is
// set or not for the model's whole life).
const ComputeKernel& ClusterPath::sweepInDeviceMemory() {
    const uint32_t families = constraints_.xpbdFamilies();
    std::unique_ptr<ComputeKernel>& kernel = sweepsInDeviceMemory_[families];
    if (!kernel) {
        std::vector<SpecializationConstant> specialization = solve_.specialization();
        specialization.push_back({gpu::kXpbdFamiliesConstantId, families});
        // One full subgroup a workgroup where the device allows it: its
        // phases then end with a subgroup barrier (pbd/cluster_sweep_cpu.comp).
        specialization.push_back({gpu::kSweepIsOneSubgroupConstantId, cpuSweepInOneSubgroup_ ? 1u : 0u});
        kernel = std::make_unique<ComputeKernel>(ctx_, "pbd/cluster_sweep_cpu.comp", sizeof(gpu::WorkgroupSolvePush),
                                                 specialization, cpuSweepInOneSubgroup_ ? kCpuClusterSweepWidth : 0);
        // The contact lists are laid out for this width.
        if (kernel->workgroupSize() != kCpuClusterSweepWidth)
            throw std::logic_error("pbd/cluster_sweep_cpu.comp is not kCpuClusterSweepWidth wide");
    }
    return *kernel;
}

}  // namespace vksim
