#pragma once
// The cluster path (PbdPath::Clusters, docs/physics.md §1, "Large objects
// in clusters"; the plan in solvers/pbd/pbd_clusters.h): the per-colour
// path with each iteration's colours replaced by two sweeps of clusters,
// one dispatch each, and a coloured sweep of what they leave, another
// Gauss-Seidel order. On a GPU the clusters sit in shared memory (the
// workgroup solve's kernel); on a CPU driver they work in device memory,
// in a kernel of their own that reads the arrays as texels
// (pbd/cluster_sweep_cpu.comp).
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <string_view>
#include <vector>

#include "solvers/pbd/pbd_clusters.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "solvers/pbd/pbd_model.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ColliderSet;
class ColourSweep;
class PbdConstraints;
class PbdIterationStages;
class VulkanContext;
class WorkgroupSolve;
struct PbdDeviceShape;

// The cluster plan of the model's PBD objects on this device, in clusters
// of clusterParticleCapacity() (workgroup_plan.h). The constraint arrays
// go up in its order (PbdConstraints).
ClusterPlan planPbdClusters(const PbdModelView& model, const PbdDeviceShape& device);

class ClusterPath final : public PbdDispatchPath {
public:
    // Its two sweeps (the bench counts their constraint solves by them).
    static constexpr std::string_view kSweepPassNames[2] = {"pbd: cluster sweep 1", "pbd: cluster sweep 2"};

    // `plan`: planPbdClusters() of `model`. Builds no buffers or kernels
    // where there are no PBD particles.
    ClusterPath(const VulkanContext& ctx, const PbdModelView& model, const ClusterPlan& plan,
                const PbdDeviceShape& device, const PbdConstraints& constraints, const ColliderSet& colliders,
                const WorkgroupSolve& solve, const ColourSweep& colours, PbdIterationStages& stages);
    ~ClusterPath() override;

    void declarePasses(StepPlan& plan) override;
    // A CPU driver whose texel buffers cannot hold an array.
    const std::optional<std::string>& misfit() const override { return misfit_; }
    std::string describe() const override;
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;

    // The most particles in one cluster, for this model on this device.
    uint32_t capacity() const { return capacity_; }
    // The clusters of the first sweep.
    uint32_t firstSweepClusters() const { return clusterCounts_[0]; }
    // Whether the first sweep cuts some PBD object in more than one cluster.
    bool splitsAnObject() const { return clusterCounts_[0] > objectCount_; }
    // The first sweep's clusters in the largest PBD object.
    uint32_t largestObjectClusters() const { return largestObjectClusters_; }
    // The constraints sweep 1 or 2 projects per run (all families).
    uint64_t sweepConstraints(uint32_t sweep) const { return sweepConstraints_[sweep]; }
    // Whether the second sweep projects the collision constraints instead of
    // a pass of their own (ClusterPlan::secondSweepCoversEveryParticle:
    // nothing left to the coloured sweep, no shape matching).
    bool sweepCollides() const { return sweepCollides_; }
    // For the test that both ways compute the same bits: keeps the
    // collision pass. Set before the first frame.
    void keepCollisionPassForTesting() { sweepCollides_ = false; }
    // Whether the CPU driver's sweep ends its phases with a subgroup
    // barrier, its workgroup one full subgroup (pbd/cluster_sweep_cpu.comp),
    // rather than with a workgroup barrier.
    bool cpuSweepInOneSubgroup() const { return inDeviceMemory_ && cpuSweepInOneSubgroup_; }
    // For the test that both barriers compute the same bits: the workgroup
    // barrier. Set before the first frame.
    void syncCpuSweepByWorkgroupForTesting() { cpuSweepInOneSubgroup_ = false; }

private:
    // The first sweep's clusters, then the second's, one dispatch each, in
    // iteration `iteration` of their phases.
    void recordSweeps(StepRecorder& rec, const SubstepContext& sub, uint32_t iteration, StepPosition at);
    // The CPU driver's sweep for the families' current modes.
    const ComputeKernel& sweepInDeviceMemory();

    const VulkanContext& ctx_;
    const PbdConstraints& constraints_;
    const ColliderSet& colliders_;
    const WorkgroupSolve& solve_;
    const ColourSweep& colours_;
    PbdIterationStages& stages_;
    uint32_t capacity_ = 0, objectCount_ = 0, largestObjectClusters_ = 0;
    std::optional<std::string> misfit_;
    uint32_t sweepPasses_[2] = {0, 0};
    // Each sweep's clusters, and the constraints each projects.
    uint32_t clusterCounts_[2] = {0, 0};
    uint64_t sweepConstraints_[2] = {0, 0};
    // What the coloured sweep projects, per family.
    std::array<ColourGroups, kPbdFamilies> coloured_;
    bool sweepCollides_ = false;
    // The clusters (the first sweep's, then the second's) and their phases.
    GpuBuffer plan_;  // clusters and phases (makeWorkgroupPlanBuffer)
    // Where clusters work in device memory (a CPU driver): the lists of the
    // particles that have a collider candidate (makeContactLists), and the
    // sweep's kernels, one per xpbdFamilies() value met.
    bool inDeviceMemory_ = false;
    bool cpuSweepInOneSubgroup_ = false;  // ctx.canRequireSubgroupSize(kCpuClusterSweepWidth)
    GpuBuffer contactLists_;
    std::map<uint32_t, std::unique_ptr<ComputeKernel>> sweepsInDeviceMemory_;
};

}  // namespace vksim
