#pragma once
// Position based dynamics (docs/physics.md §1-3; Müller et al. 2007, XPBD
// by Macklin et al. 2016) on the world's particles: the constraint
// topology (distance, bending, attachment constraints by colour, their
// multipliers and materials) and its solve. One substep's solve is n_s
// Gauss-Seidel iterations, each one dispatch per colour step
// (solvers/pbd/colour_steps.h: each colour of each constraint family and its
// overflow group, or with SolverSettings::pbdColouring AcrossFamilies each
// colour shared by the families and the overflow groups), then the collision
// projection (the shared collide-project stage, every iteration). The shared
// stages run around it (solvers/solver.h).
//
// Three paths (SolverSettings::pbdPath): per colour, as above; in
// workgroups (docs/physics.md §1, "Small objects in one workgroup"), which
// computes the same bits: when every PBD object's positions fit one
// workgroup's shared memory, one dispatch runs the whole frame, one
// workgroup per object, the shared stages' math included; and in clusters
// ("Large objects in clusters", solvers/pbd/pbd_clusters.h): the per-colour path
// with each iteration's colours replaced by two sweeps of shared-memory
// clusters and a coloured sweep of what they leave, another Gauss-Seidel
// order. Shape matching (§13) runs in each iteration after the constraint
// families, on every path.
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "solvers/pbd/colour_steps.h"
#include "solvers/sim_model.h"
#include "solvers/solver.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;
class ResidualTracker;

class PbdSolver final : public Solver {
public:
    // The workgroup path's one pass (the bench counts its constraint solves by it).
    static constexpr std::string_view kWorkgroupPassName = "pbd: solve in workgroups";
    // The cluster path's two sweeps.
    static constexpr std::string_view kClusterSweepPassNames[2] = {"pbd: cluster sweep 1", "pbd: cluster sweep 2"};

    // `iterations`: the first frame's n_s, for which the materials'
    // per-iteration stiffness is computed here (beginFrame again when it changes).
    PbdSolver(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
              const ColliderSet& colliders, uint32_t iterations);
    ~PbdSolver() override;

    std::string_view owner() const override { return "pbd"; }
    static constexpr std::string_view kPassPrefix = "pbd: ";
    std::string_view passPrefix() const override { return kPassPrefix; }
    ParticleRange range() const override { return range_; }
    // The energy pass: a thread per particle and per constraint.
    uint32_t residualThreads() const override {
        return static_cast<uint32_t>(range_.count + distanceCount_ + bendingCount_ + attachmentCount_);
    }
    void declarePasses(StepPlan& plan) override;
    void beginFrame(StepRecorder& rec, const FrameInputs& frame) override;
    const GpuBuffer& predictTarget() const override { return particles_.predicted(); }
    std::string_view workingName() const override { return "predicted position"; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    bool projectsCollisionsInSolve() const override { return true; }
    bool recordsWholeFrames(const SolverSettings& settings) const override;
    void recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) override;

    // The most particles one workgroup holds on this device.
    uint32_t workgroupCapacity() const { return workgroupCapacity_; }
    // The most particles in one cluster of the cluster path, for this model
    // on this device (clusterParticleCapacity(), workgroup_plan.h).
    uint32_t clusterCapacity() const { return clusterCapacity_; }
    // The clusters of the cluster path's first sweep.
    uint32_t firstSweepClusters() const { return clusterCounts_[0]; }
    // How a frame with `settings` is dispatched ("auto" resolved).
    PbdPath pathFor(const SolverSettings& settings) const;
    // One line for a run's summary: the path a frame with `settings` takes,
    // whether "auto" chose it, and its workgroups or clusters.
    std::string describePath(const SolverSettings& settings) const;
    // Why `path` cannot run this model on this device, or nothing when it
    // can: the workgroup path, the first PBD object too big for one
    // workgroup; the cluster path, a CPU driver whose texel buffers cannot
    // hold an array.
    const std::optional<std::string>& pathMisfit(PbdPath path) const;
    // A path the objects do not fit (pathMisfit()).
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;
    // Every other path the objects fit.
    std::vector<SolverSettings> liveVariants(const SolverSettings& settings) const override;
    // The constraints cluster sweep 1 or 2 projects per run (all families).
    uint64_t clusterSweepConstraints(uint32_t sweep) const { return clusterSweepConstraints_[sweep]; }
    // Whether the cluster path's second sweep projects the collision
    // constraints instead of a pass of their own (solvers/pbd/pbd_clusters.h).
    bool clusterSweepCollides() const { return clusterSweepCollides_; }
    // For the test that both ways compute the same bits: keeps the
    // collision pass on the cluster path. Set before the first frame.
    void keepClusterCollisionPassForTesting() { clusterSweepCollides_ = false; }
    // Whether the CPU driver's cluster sweep ends its phases with a subgroup
    // barrier, its workgroup one full subgroup (pbd/cluster_sweep_cpu.comp),
    // rather than with a workgroup barrier.
    bool cpuSweepInOneSubgroup() const { return clustersInDeviceMemory_ && cpuSweepInOneSubgroup_; }
    // For the test that both barriers compute the same bits: the workgroup
    // barrier. Set before the first frame.
    void syncCpuSweepByWorkgroupForTesting() { cpuSweepInOneSubgroup_ = false; }

    // Live material edits: recorded into the next frame (vkCmdUpdateBuffer
    // at its start, between barriers), no wait.
    void setMaterials(const std::vector<gpu::ConstraintMaterial>& materials);

    // Whether the PBD particles have an energy: there are constraints and
    // every one is XPBD with compliance > 0 (with the current materials).
    bool xpbdEnergyDefined() const;
    // The families (gpu::kXpbdFamily* bits) some of whose constraints have
    // an XPBD material now: those whose multipliers the CPU cluster sweep
    // recorded next keeps (pbd/xpbd_families.glsl).
    uint32_t xpbdFamilies() const;

private:
    struct PassIds;
    // The colour steps (solvers/pbd/colour_steps.h) of `groups` (the model's, or what
    // the cluster sweeps leave of them), one dispatch each.
    void projectSteps(StepRecorder& rec, const FamilyGroups& groups, uint32_t iteration, uint32_t iterations, float h,
                      StepPosition at);
    void recordTracking(StepRecorder& rec, ResidualTracker& tracker, float h, uint32_t iteration);
    // Each material's per-iteration stiffness for n_s = `iterations`, then
    // the barrier to every later read (pbd/iteration_stiffness.comp).
    void recordIterationStiffness(VkCommandBuffer cmd, uint32_t iterations);
    void recordWorkgroupRun(StepRecorder& rec, gpu::WorkgroupSolvePush push, uint32_t substeps,
                            uint32_t firstIteration, uint32_t lastIterationEnd, uint32_t stages, StepPosition at);
    void recordClusterSweeps(StepRecorder& rec, const SubstepContext& sub, uint32_t iteration, StepPosition at);
    // `kernel` (the workgroup solve or the cluster sweep) with `objects` and
    // `phases` as its plan.
    void runWorkgroupKernel(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel, const GpuBuffer& objects,
                            const GpuBuffer& phases, uint32_t workgroups, const gpu::WorkgroupSolvePush& push,
                            StepPosition at);

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    ParticleRange range_;
    size_t distanceCount_ = 0, bendingCount_ = 0, attachmentCount_ = 0;
    uint32_t shapeMatchGroupCount_ = 0;
    ColourGroups distanceGroups_, bendingGroups_, attachmentGroups_;
    // The model's colouring and the iteration's order over its colours.
    PbdColouring colouring_ = PbdColouring::PerFamily;
    std::vector<ColourStep> steps_;
    // Per family (distance, bending, attachment): its bit in xpbdFamilies()
    // and the material rows some constraint of it uses; then the current
    // rows (live edits included).
    struct FamilyMaterials {
        uint32_t xpbdBit = 0;
        std::vector<uint32_t> rows;
    };
    std::array<FamilyMaterials, 3> familyMaterials_;
    std::vector<gpu::ConstraintMaterial> currentMaterials_;
    std::optional<std::vector<gpu::ConstraintMaterial>> pendingMaterials_;

    // Per-step state: the multipliers of XPBD.
    GpuBuffer distanceLambdas_, bendingLambdas_, attachmentLambdas_;
    // Topology, uploaded once.
    GpuBuffer materials_, distance_, bending_, attachments_;
    // The shape-matching groups, then their rest offsets (one buffer, sim_types.h).
    GpuBuffer shapeMatchData_;

    std::unique_ptr<ComputeKernel> projectDistance_, projectBending_, projectAttachment_, projectMouse_;
    // A colour of every family in one dispatch (PbdColouring::AcrossFamilies).
    std::unique_ptr<ComputeKernel> projectColour_;
    // Each material's per-iteration stiffness for n_s = iterationStiffnessOf_,
    // recomputed in beginFrame when n_s or the materials change.
    std::unique_ptr<ComputeKernel> iterationStiffness_;
    uint32_t iterationStiffnessOf_ = 0;
    // One workgroup per shape-matching group, as wide as the workgroup
    // solve's, so that both paths add its sums by the same tree.
    std::unique_ptr<ComputeKernel> projectShapeMatch_;
    // Diagnostics, built the first time a frame tracks residuals.
    std::unique_ptr<ComputeKernel> residualDistance_, energy_;
    // The workgroup path: one object and its phases per workgroup
    // (workgroup_plan.h); built when every object fits.
    uint32_t workgroupCapacity_ = 0, clusterCapacity_ = 0, pbdObjectCount_ = 0;
    std::optional<std::string> workgroupMisfit_, clusterMisfit_;
    GpuBuffer workgroupObjects_, workgroupPhases_;
    uint32_t workgroupCount_ = 0;
    // The cluster path (solvers/pbd/pbd_clusters.h), always built: the constraint
    // arrays above are in its order, which leaves the other paths' bits as
    // they are. Its sweeps' cluster counts, their clusters (the first
    // sweep's, then the second's) and phases, and what the coloured sweep projects.
    uint32_t clusterCounts_[2] = {0, 0};
    uint32_t largestObjectClusters_ = 0;  // the first sweep's clusters in the largest object
    uint64_t clusterSweepConstraints_[2] = {0, 0};
    // A CPU driver: clusters of half a workgroup, which "auto" prefers
    // (clusterParticleCapacity(), pathFor()).
    bool cpuDevice_ = false;
    GpuBuffer clusterObjects_, clusterPhases_;
    // The CPU sweep's lists of the particles that have a collider candidate
    // (makeContactLists); empty elsewhere.
    GpuBuffer contactLists_;
    ColourGroups distanceColoured_, bendingColoured_, attachmentColoured_;
    // Whether the second sweep projects the collision constraints, in place
    // of their pass (ClusterPlan::secondSweepCoversEveryParticle): nothing
    // left to the coloured sweep, no shape matching.
    bool clusterSweepCollides_ = false;
    // Runs the workgroup path's workgroups, and the cluster path's where
    // clusters sit in shared memory (kStageClusterSweep selects the sweep).
    std::unique_ptr<ComputeKernel> solveInWorkgroup_;
    // Where clusters work in device memory (CPU drivers): the same source
    // compiled for the cluster sweep alone, reading the arrays as texels
    // (pbd/cluster_sweep_cpu.comp), one per xpbdFamilies() value met.
    const ComputeKernel& clusterSweepInDeviceMemory();
    std::map<uint32_t, std::unique_ptr<ComputeKernel>> clusterSweepsInDeviceMemory_;
    bool clustersInDeviceMemory_ = false;
    bool cpuSweepInOneSubgroup_ = false;  // ctx.canRequireSubgroupSize(kCpuClusterSweepWidth)
    std::vector<SpecializationConstant> workgroupSpecialization_;
    std::unique_ptr<PassIds> passIds_;
};

}  // namespace vksim
