#include "solvers/pbd/pbd_solver.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/interaction_types.h"
#include "solvers/pbd/pbd_clusters.h"
#include "solvers/pbd/workgroup_plan.h"
#include "state/collider_set.h"
#include "step/residual_tracker.h"
#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {

namespace {

// The shape-matching groups and rest offsets in one buffer, as the shaders
// read it (sim_types.h): the groups, then the offsets, which the groups'
// firstRest index in vec4s.
std::vector<glm::vec4> packShapeMatching(const SimModel& model) {
    constexpr size_t kGroupVec4s = sizeof(gpu::ShapeMatchGroup) / sizeof(glm::vec4);
    static_assert(sizeof(gpu::ShapeMatchGroup) % sizeof(glm::vec4) == 0);
    const size_t groupVec4s = model.pbd.shapeMatchGroups.size() * kGroupVec4s;
    std::vector<glm::vec4> data(groupVec4s);
    for (size_t g = 0; g < model.pbd.shapeMatchGroups.size(); ++g) {
        gpu::ShapeMatchGroup group = model.pbd.shapeMatchGroups[g];
        group.firstRest += static_cast<uint32_t>(groupVec4s);
        std::memcpy(&data[g * kGroupVec4s], &group, sizeof(group));
    }
    data.insert(data.end(), model.pbd.shapeMatchRest.begin(), model.pbd.shapeMatchRest.end());
    return data;
}

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

}  // namespace

struct PbdSolver::PassIds {
    uint32_t mouse, residual, energy, workgroup, shapeMatch, clusterSweeps[2];
    std::vector<uint32_t> steps;  // one per colour step, as steps_
};

PbdSolver::PbdSolver(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
                     const ColliderSet& colliders, uint32_t iterations)
    : ctx_(ctx),
      particles_(particles),
      colliders_(colliders),
      range_{model.pbd.firstParticle, model.pbd.particleCount},
      distanceCount_(model.pbd.distance.size()),
      bendingCount_(model.pbd.bending.size()),
      attachmentCount_(model.pbd.attachments.size()),
      shapeMatchGroupCount_(static_cast<uint32_t>(model.pbd.shapeMatchGroups.size())),
      distanceGroups_(model.pbd.distanceGroups),
      bendingGroups_(model.pbd.bendingGroups),
      attachmentGroups_(model.pbd.attachmentGroups),
      colouring_(model.pbd.colouring),
      steps_(colourSteps(model)),
      currentMaterials_(model.pbd.materials) {
    familyMaterials_ = {{{gpu::kXpbdFamilyDistance, {}}, {gpu::kXpbdFamilyBending, {}}, {gpu::kXpbdFamilyAttachment, {}}}};
    for (const auto& c : model.pbd.distance) familyMaterials_[0].rows.push_back(c.material);
    for (const auto& c : model.pbd.bending) familyMaterials_[1].rows.push_back(c.material);
    for (const auto& c : model.pbd.attachments) familyMaterials_[2].rows.push_back(c.material);
    for (FamilyMaterials& family : familyMaterials_) {
        std::sort(family.rows.begin(), family.rows.end());
        family.rows.erase(std::unique(family.rows.begin(), family.rows.end()), family.rows.end());
    }

    // Shared memory holds 12 bytes a particle (workgroup_plan.h); the
    // constraint arrays go up in the cluster plan's order, which every path
    // reads (each colour is only permuted within itself).
    const VkPhysicalDeviceProperties& properties = ctx.properties();
    cpuDevice_ = properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    const uint32_t sharedBytes = properties.limits.maxComputeSharedMemorySize;
    workgroupCapacity_ = workgroupParticleCapacity(sharedBytes);
    const std::vector<const ObjectRange*> objects = pbdObjects(model);
    pbdObjectCount_ = static_cast<uint32_t>(objects.size());
    uint32_t largestObject = 0;
    for (const ObjectRange* object : objects) largestObject = std::max(largestObject, object->particleCount);
    clusterCapacity_ = clusterParticleCapacity(sharedBytes, cpuDevice_, largestObject, largestConstraintSpan(model));
    largestObjectClusters_ = (largestObject + clusterCapacity_ - 1) / clusterCapacity_;
    const ClusterPlan clusters = buildClusterPlan(model, clusterCapacity_);
    clusterCounts_[0] = clusters.firstSweepClusters;
    clusterCounts_[1] = clusters.secondSweepClusters;
    for (const FamilyClusters* family : {&clusters.distance, &clusters.bending, &clusters.attachment})
        for (ClusterSweep sweep : family->sweepOf)
            if (sweep != ClusterSweep::Coloured) ++clusterSweepConstraints_[static_cast<uint32_t>(sweep)];
    distanceColoured_ = clusters.distance.coloured;
    bendingColoured_ = clusters.bending.coloured;
    attachmentColoured_ = clusters.attachment.coloured;
    auto empty = [](const ColourGroups& groups) {
        for (const ColourRange& color : groups.colours)
            if (color.count > 0) return false;
        return groups.overflow.count == 0;
    };
    clusterSweepCollides_ = clusters.secondSweepCoversEveryParticle && clusterCounts_[1] > 0 &&
                            shapeMatchGroupCount_ == 0 && empty(distanceColoured_) && empty(bendingColoured_) &&
                            empty(attachmentColoured_);

    distanceLambdas_ = makeStorageBuffer<float>(ctx, std::vector<float>(model.pbd.distance.size()), "distance lambdas");
    bendingLambdas_ = makeStorageBuffer<float>(ctx, std::vector<float>(model.pbd.bending.size()), "bending lambdas");
    attachmentLambdas_ =
        makeStorageBuffer<float>(ctx, std::vector<float>(model.pbd.attachments.size()), "attachment lambdas");
    // Texel usage: the CPU cluster sweep reads the records as texels
    // (pbd/cluster_sweep_cpu.comp).
    constexpr VkBufferUsageFlags texels = VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT;
    materials_ = makeStorageBuffer<gpu::ConstraintMaterial>(ctx, model.pbd.materials, "constraint materials", texels);
    distance_ = makeStorageBuffer<gpu::DistanceConstraint>(ctx, permuted(model.pbd.distance, clusters.distance),
                                                           "distance constraints", texels);
    bending_ = makeStorageBuffer<gpu::BendingConstraint>(ctx, permuted(model.pbd.bending, clusters.bending),
                                                         "bending constraints", texels);
    attachments_ = makeStorageBuffer<gpu::AttachmentConstraint>(ctx, permuted(model.pbd.attachments, clusters.attachment),
                                                                "attachment constraints", texels);
    shapeMatchData_ = makeStorageBuffer<glm::vec4>(ctx, packShapeMatching(model), "shape matching");

    auto kernel = [&](const char* shader, uint32_t pushSize) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize);
    };
    projectDistance_ = kernel("pbd/project_distance.comp", sizeof(gpu::ProjectPush));
    projectBending_ = kernel("pbd/project_bending.comp", sizeof(gpu::ProjectPush));
    projectAttachment_ = kernel("pbd/project_attachment.comp", sizeof(gpu::ProjectPush));
    if (colouring_ == PbdColouring::AcrossFamilies)
        projectColour_ = kernel("pbd/project_colour.comp", sizeof(gpu::ColourPush));
    projectMouse_ = kernel("pbd/project_mouse.comp", sizeof(gpu::MousePush));
    iterationStiffness_ = kernel("pbd/iteration_stiffness.comp", sizeof(gpu::ProjectPush));
    // Now, not in the first frame: one-time work there would keep its
    // commands from being replayed (world/frame_commands.h).
    iterationStiffnessOf_ = iterations;
    if (!currentMaterials_.empty())
        ctx.submitAndWait([&](VkCommandBuffer cmd) { recordIterationStiffness(cmd, iterations); });

    // A CPU driver runs a workgroup on one core and pays per SIMD vector
    // at every barrier, so few invocations are fastest there; lavapipe
    // 22.3 computes wrong results with one vector (8) once the shared
    // array passes 16 KiB, so 16 (docs/benchmarks-history.md). A GPU wants many.
    const bool wide = !cpuDevice_ &&
                      properties.limits.maxComputeWorkGroupInvocations >= 256 &&
                      properties.limits.maxComputeWorkGroupSize[0] >= 256;
    const uint32_t workgroupWidth = wide ? 256 : 16;  // the kernels' local_size_x
    if (shapeMatchGroupCount_ > 0)
        projectShapeMatch_ = kernel(wide ? "pbd/shape_match_256.comp" : "pbd/shape_match_16.comp",
                                    sizeof(gpu::ProjectPush));

    workgroupMisfit_ = vksim::workgroupMisfit(model, workgroupCapacity_, shapeMatchScratchParticles(workgroupWidth));
    if (range_.count == 0) return;
    if (!workgroupMisfit_) {
        const WorkgroupPlan plan = buildWorkgroupPlan(model, clusters);
        workgroupCount_ = static_cast<uint32_t>(plan.objects.size());
        workgroupObjects_ = makeStorageBuffer<gpu::WorkgroupObject>(ctx, plan.objects, "workgroup objects");
        workgroupPhases_ = makeStorageBuffer<gpu::WorkgroupPhase>(ctx, plan.phases, "workgroup phases");
    }
    // The CPU cluster sweep reads positions it wrote in an earlier phase only
    // (shaders/pbd/cluster_sweep_cpu.comp): no cluster phase is a serial share.
    for (const gpu::WorkgroupPhase& phase : clusters.phases)
        if (phase.serial != 0u) throw std::logic_error("the cluster plan has a serial phase");
    // kSharedFloats (solve_in_workgroup.glsl) and the collider shapes; with
    // few invocations the clusters work in device memory, in a shader of
    // their own (pbd/cluster_sweep_cpu.comp) that reads the arrays as texels.
    workgroupSpecialization_ = {{0, sharedBytes / 4}, colliders_.shapeSpecialization()};
    clustersInDeviceMemory_ = !wide;
    cpuSweepInOneSubgroup_ = ctx.canRequireSubgroupSize(kCpuClusterSweepWidth);
    std::vector<gpu::WorkgroupObject> clusterObjects = clusters.clusters;
    if (clustersInDeviceMemory_)
        contactLists_ = makeContactLists(ctx, clusterObjects, clusterCounts_[0], kCpuClusterSweepWidth);
    clusterObjects_ = makeStorageBuffer<gpu::WorkgroupObject>(ctx, clusterObjects, "clusters");
    clusterPhases_ = makeStorageBuffer<gpu::WorkgroupPhase>(ctx, clusters.phases, "cluster phases");
    if (clustersInDeviceMemory_) clusterMisfit_ = clusterTexelMisfit(model, properties.limits.maxTexelBufferElements);
    solveInWorkgroup_ = std::make_unique<ComputeKernel>(
        ctx, wide ? "pbd/solve_in_workgroup_256.comp" : "pbd/solve_in_workgroup_16.comp",
        sizeof(gpu::WorkgroupSolvePush), workgroupSpecialization_);
}

PbdSolver::~PbdSolver() = default;

void PbdSolver::declarePasses(StepPlan& plan) {
    passIds_ = std::make_unique<PassIds>();
    PassIds& ids = *passIds_;
    ids.mouse = plan.declare("pbd: mouse drag", StageKind::Diagnostic, "pbd");
    // The cluster path's sweeps, before what they leave of the colours.
    for (int sweep = 0; sweep < 2; ++sweep)
        ids.clusterSweeps[sweep] = plan.declare(std::string(kClusterSweepPassNames[sweep]), StageKind::Solve, "pbd");
    // One per colour step: "<family> colour c" and "<family> overflow" per
    // family, or "shared colour c" and "shared overflow" where the colours are
    // shared (the bench's family "shared", bench/pass_traffic.h).
    for (const ColourStep& step : steps_) ids.steps.push_back(plan.declare(std::string(passPrefix()) + step.name, StageKind::Solve, "pbd"));
    ids.shapeMatch = plan.declare("pbd: shape matching", StageKind::Solve, "pbd");
    ids.workgroup = plan.declare(std::string(kWorkgroupPassName), StageKind::Solve, "pbd");
    ids.residual = plan.declare("pbd: residual: stretch |C|", StageKind::Diagnostic, "pbd");
    ids.energy = plan.declare("pbd: energy (xpbd)", StageKind::Diagnostic, "pbd");
}

// Live material edits, recorded before the frame's first pass: the previous
// frames' passes finish reading the buffer before the update writes it, and
// the update is visible to this frame's passes. Then, after an edit or a
// change of n_s, each material's per-iteration stiffness. Both are
// one-time work, so untimed: the frames that follow replay commands
// without them.
void PbdSolver::beginFrame(StepRecorder& rec, const FrameInputs& frame) {
    if (const std::optional<std::string>& misfit = pathMisfit(frame.settings.pbd.path))
        throw std::invalid_argument(
            fmt::format("pbdPath \"{}\": {}", kPbdPathNames[static_cast<size_t>(frame.settings.pbd.path)], *misfit));
    if (frame.settings.pbd.colouring != colouring_)
        throw std::invalid_argument(fmt::format(
            "pbdColouring \"{}\": the constraints were sorted by the \"{}\" colouring when the world was built, "
            "and it cannot change live (build a new world)",
            kPbdColouringNames[static_cast<size_t>(frame.settings.pbd.colouring)],
            kPbdColouringNames[static_cast<size_t>(colouring_)]));
    const uint32_t iterations = frame.settings.pbd.iterations;
    if ((!pendingMaterials_ && iterationStiffnessOf_ == iterations) || rec.counting()) return;
    rec.recordedOneTimeWork();
    if (pendingMaterials_) {
        computeToTransferWriteBarrier(rec.cmd());
        if (!pendingMaterials_->empty())
            vkCmdUpdateBuffer(rec.cmd(), materials_.handle(), 0,
                              pendingMaterials_->size() * sizeof(gpu::ConstraintMaterial), pendingMaterials_->data());
        transferWriteToComputeBarrier(rec.cmd());
        pendingMaterials_.reset();
    } else {
        computeToComputeBarrier(rec.cmd());  // the previous frames' reads first
    }
    recordIterationStiffness(rec.cmd(), iterations);
}

void PbdSolver::recordIterationStiffness(VkCommandBuffer cmd, uint32_t iterations) {
    gpu::ProjectPush push{};
    push.count = static_cast<uint32_t>(currentMaterials_.size());
    push.iterations = iterations;
    iterationStiffness_->dispatch(cmd, {&materials_}, push.count, push);
    // Read by the projections, and as texels by the CPU cluster sweep: the
    // compute-to-compute barrier covers sampled reads.
    computeToComputeBarrier(cmd);
    iterationStiffnessOf_ = iterations;
}

// docs/physics.md §1, step 4 of one substep: n_s Gauss-Seidel iterations,
// one dispatch per colour step (projectSteps),
// then the collision constraints (one thread per particle).
const GpuBuffer& PbdSolver::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    if (!passIds_) throw std::logic_error("PbdSolver::declarePasses must be called before recording");
    const PassIds& ids = *passIds_;
    const SolverSettings& settings = sub.frame.settings;
    const GpuBuffer& p = particles_.predicted();
    const std::optional<MouseAttachment>& mouse = sub.frame.mouse;
    for (uint32_t it = 0; it < settings.pbd.iterations; ++it) {
        const gpu::ProjectPush project{0, 0, it, settings.pbd.iterations, sub.h, 0, 0, 0};  // shape matching's
        const StepPosition at{sub.substep, it};
        // The dragged particle onto the mouse target, kinematic for the
        // constraints that follow (one constraint, one thread).
        if (mouse && range_.contains(mouse->particle)) {
            gpu::MousePush push{};
            push.target = glm::vec4(mouse->target, 1.0f);
            push.particle = mouse->particle;
            rec.run(ids.mouse, *projectMouse_, {&particles_.positions(), &p}, 1, push, at, {&p, workingName()});
        }
        // The cluster path's sweeps, then what is left of the colours.
        const bool clustered = pathFor(settings) == PbdPath::Clusters;
        if (clustered) recordClusterSweeps(rec, sub, it, at);
        const FamilyGroups groups = clustered
                                        ? FamilyGroups{&distanceColoured_, &bendingColoured_, &attachmentColoured_}
                                        : FamilyGroups{&distanceGroups_, &bendingGroups_, &attachmentGroups_};
        projectSteps(rec, groups, it, settings.pbd.iterations, sub.h, at);
        // docs/physics.md §13: one workgroup per group.
        if (projectShapeMatch_)
            rec.run(ids.shapeMatch, *projectShapeMatch_, {&p, &shapeMatchData_},
                    shapeMatchGroupCount_ * projectShapeMatch_->workgroupSize(), project, at, {&p, workingName()});
        if (colliders_.count() > 0 && !(clustered && clusterSweepCollides_))
            sub.stages.collideProject(rec, sub.stagePasses.collideProject, sub.particles, p, workingName(), at);
        if (sub.tracking) recordTracking(rec, *sub.frame.tracker, sub.h, it);
    }
    return p;
}

// The last substep's residual (mean |C| of the distance constraints) and,
// where it is defined, the XPBD objective g(p), after iteration `it`.
void PbdSolver::recordTracking(StepRecorder& rec, ResidualTracker& tracker, float h, uint32_t it) {
    const PassIds& ids = *passIds_;
    const GpuBuffer& p = particles_.predicted();
    const auto distanceCount = static_cast<uint32_t>(distanceCount_);
    if (!residualDistance_) {
        residualDistance_ =
            std::make_unique<ComputeKernel>(ctx_, "pbd/residual_distance.comp", sizeof(gpu::ResidualPush));
        energy_ = std::make_unique<ComputeKernel>(ctx_, "pbd/energy.comp", sizeof(gpu::PbdEnergyPush));
    }
    if (distanceCount > 0) {
        const gpu::ResidualPush push{0, distanceCount, h, 0};
        rec.run(ids.residual, *residualDistance_, {&p, &distance_, &tracker.partials()}, distanceCount, push);
        tracker.recordSum(rec, ResidualTracker::Series::Pbd, it, ResidualTracker::groupsFor(distanceCount),
                          1.0f / static_cast<float>(distanceCount), false);
        rec.barrier();
    }
    if (xpbdEnergyDefined()) {
        const gpu::PbdEnergyPush push{range_.count, distanceCount, static_cast<uint32_t>(bendingCount_),
                                      static_cast<uint32_t>(attachmentCount_), h, 0, 0, 0};
        const uint32_t threads = push.particleCount + push.distanceCount + push.bendingCount + push.attachmentCount;
        rec.run(ids.energy, *energy_,
                {&particles_.positions(), &particles_.velocities(), &p, &distance_, &bending_, &attachments_,
                 &materials_, &tracker.partials()},
                threads, push);
        tracker.recordSum(rec, ResidualTracker::Series::PbdEnergy, it, ResidualTracker::groupsFor(threads), 1.0f,
                          false);
        rec.barrier();
    }
}

// Each colour step, one thread per constraint (per entry of the largest
// family's share where a colour holds several families), an overflow step
// one thread walking it in order (shaders/pbd/project_range.glsl,
// project_colour.comp); none where the step has nothing here (only the
// cluster path's coloured sweep leaves steps empty). Each is followed by
// the same barrier. Per family, each family's own kernel; across families,
// one kernel for all of them.
void PbdSolver::projectSteps(StepRecorder& rec, const FamilyGroups& groups, uint32_t iteration, uint32_t iterations,
                             float h, StepPosition at) {
    const GpuBuffer& p = particles_.predicted();
    const ComputeKernel* familyKernels[kPbdFamilies] = {projectDistance_.get(), projectBending_.get(),
                                                        projectAttachment_.get()};
    const GpuBuffer* constraints[kPbdFamilies] = {&distance_, &bending_, &attachments_};
    const GpuBuffer* lambdas[kPbdFamilies] = {&distanceLambdas_, &bendingLambdas_, &attachmentLambdas_};
    for (size_t s = 0; s < steps_.size(); ++s) {
        const ColourStep& step = steps_[s];
        gpu::ColourPush push{};
        uint32_t widest = 0, family = 0;
        for (uint32_t f = 0; f < kPbdFamilies; ++f) {
            const ColourRange range = step.range(*groups[f], f);
            push.first[f] = range.first;
            push.count[f] = range.count;
            if (range.count > widest) {
                widest = range.count;
                family = f;  // per family, the step's only one
            }
        }
        if (widest == 0) continue;
        const uint32_t threads = step.serial ? 1 : widest;
        if (colouring_ == PbdColouring::AcrossFamilies) {
            push.iteration = iteration;
            push.serial = step.serial ? 1 : 0;
            push.dt = h;
            rec.run(passIds_->steps[s], *projectColour_,
                    {&p, &distance_, &bending_, &attachments_, &materials_, &distanceLambdas_, &bendingLambdas_,
                     &attachmentLambdas_},
                    threads, push, at, {&p, workingName()});
            continue;
        }
        const gpu::ProjectPush one{push.first[family], push.count[family], iteration, iterations, h,
                                   step.serial ? 1u : 0u, 0, 0};
        rec.run(passIds_->steps[s], *familyKernels[family], {&p, constraints[family], &materials_, lambdas[family]},
                threads, one, at, {&p, workingName()});
    }
}

// "auto": the clusters where they cut some object in more than one and
// the driver can hold them (a CPU driver's texel buffers: clusterMisfit_),
// on a GPU only where the largest object is no small one
// (kGpuClustersOverOneWorkgroup clusters or more, or past one workgroup);
// else one workgroup per object where every object fits, else the colours.
// - A CPU driver runs a workgroup on one core and its cluster sweep reads
//   texels: there the clusters measured faster than both other paths at
//   every size (lavapipe, 2 cores: docs/physics.md §1, "Large objects in
//   clusters", and docs/benchmarks.md).
// - On a GPU a workgroup runs on one multiprocessor, so one workgroup's
//   frame grows with the object, while the clusters' stays near the
//   latency of their 64 sweeps, below the colours' (an H100: the same
//   section of docs/physics.md; the runs in bench/README.md).
PbdPath PbdSolver::pathFor(const SolverSettings& settings) const {
    if (settings.pbd.path != PbdPath::Auto) return settings.pbd.path;
    const bool splitsAnObject = clusterCounts_[0] > pbdObjectCount_;
    const bool clustersPay =
        cpuDevice_ || workgroupMisfit_ || largestObjectClusters_ >= kGpuClustersOverOneWorkgroup;
    if (splitsAnObject && !clusterMisfit_ && clustersPay) return PbdPath::Clusters;
    return workgroupMisfit_ ? PbdPath::PerColour : PbdPath::Workgroup;
}

std::string PbdSolver::describePath(const SolverSettings& settings) const {
    const PbdPath path = pathFor(settings);
    std::string line = fmt::format("PBD path: {}{}", kPbdPathNames[static_cast<size_t>(path)],
                                   settings.pbd.path == PbdPath::Auto ? " (\"auto\")" : "");
    if (path == PbdPath::Workgroup) line += fmt::format(": {} workgroup(s), one per object", workgroupCount_);
    if (path == PbdPath::Clusters)
        line += fmt::format(": {} + {} clusters of at most {} particles", clusterCounts_[0], clusterCounts_[1],
                            clusterCapacity_);
    return line + "\n";
}

const std::optional<std::string>& PbdSolver::pathMisfit(PbdPath path) const {
    static const std::optional<std::string> fits;
    if (path == PbdPath::Workgroup) return workgroupMisfit_;
    if (path == PbdPath::Clusters) return clusterMisfit_;
    return fits;
}

bool PbdSolver::recordsWholeFrames(const SolverSettings& settings) const {
    return solveInWorkgroup_ && pathFor(settings) == PbdPath::Workgroup;
}

// docs/physics.md §1, "Small objects in one workgroup": the frame in one
// dispatch. With residual tracking, the last substep is split so that the diagnostics can read the positions
// after each iteration: its iterations one dispatch each (the first one
// predicting), then one that only finishes it. The kernel resumes from the
// predicted positions and the multipliers in device memory, so the split
// frame computes what the whole one does.
void PbdSolver::recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
    if (!passIds_) throw std::logic_error("PbdSolver::declarePasses must be called before recording");
    const SolverSettings& settings = frame.settings;
    gpu::WorkgroupSolvePush push{};
    push.particles = particles;
    push.iterations = settings.pbd.iterations;
    push.mouseParticle = gpu::kNoParticle;
    if (frame.mouse && range_.contains(frame.mouse->particle)) {
        push.mouseParticle = frame.mouse->particle;
        push.mouseTarget = glm::vec4(frame.mouse->target, 1.0f);
    }
    const uint32_t substeps = settings.substeps, iterations = settings.pbd.iterations;
    const uint32_t whole = gpu::kStagePredictFirst | gpu::kStageFinishLast;
    if (!frame.tracker) {
        recordWorkgroupRun(rec, push, substeps, 0, iterations, whole, {});
        return;
    }
    if (substeps > 1) recordWorkgroupRun(rec, push, substeps - 1, 0, iterations, whole, {});
    const uint32_t last = substeps - 1;
    for (uint32_t it = 0; it < iterations; ++it) {
        recordWorkgroupRun(rec, push, 1, it, it + 1, it == 0 ? gpu::kStagePredictFirst : 0u, {last, it});
        recordTracking(rec, *frame.tracker, particles.dt, it);
    }
    recordWorkgroupRun(rec, push, 1, iterations, iterations, gpu::kStageFinishLast, {last});
}

void PbdSolver::recordWorkgroupRun(StepRecorder& rec, gpu::WorkgroupSolvePush push, uint32_t substeps,
                                   uint32_t firstIteration, uint32_t lastIterationEnd, uint32_t stages,
                                   StepPosition at) {
    push.substeps = substeps;
    push.firstIteration = firstIteration;
    push.lastIterationEnd = lastIterationEnd;
    push.stages = stages;
    runWorkgroupKernel(rec, passIds_->workgroup, *solveInWorkgroup_, workgroupObjects_, workgroupPhases_,
                       workgroupCount_, push, at);
    // Each workgroup projects its object's constraints in turn, the objects
    // side by side: an average object's share (the estimate stays low).
    const double constraints = double(distanceCount_ + bendingCount_ + attachmentCount_);
    rec.countWork({.pbdWorkgroupConstraints = double(substeps) * (lastIterationEnd - firstIteration) * constraints /
                                              std::max(workgroupCount_, 1u)});
}

// solvers/pbd/pbd_clusters.h: the first sweep's clusters, then the second's, one
// dispatch each, iteration `iteration` of their phases, the second ending
// with the collision constraints where it can (clusterSweepCollides_). The
// mouse's particle is held as the mouse pass left it (inverse mass 0 for the
// constraints).
void PbdSolver::recordClusterSweeps(StepRecorder& rec, const SubstepContext& sub, uint32_t iteration,
                                    StepPosition at) {
    gpu::WorkgroupSolvePush push{};
    push.particles = sub.particles;
    push.iterations = sub.frame.settings.pbd.iterations;
    push.firstIteration = iteration;
    push.stages = gpu::kStageClusterSweep;
    push.mouseParticle = gpu::kNoParticle;
    if (sub.frame.mouse && range_.contains(sub.frame.mouse->particle)) push.mouseParticle = sub.frame.mouse->particle;
    const ComputeKernel& kernel = clustersInDeviceMemory_ ? clusterSweepInDeviceMemory() : *solveInWorkgroup_;
    for (uint32_t sweep = 0; sweep < 2; ++sweep) {
        if (clusterCounts_[sweep] == 0) continue;
        push.firstObject = sweep == 0 ? 0 : clusterCounts_[0];
        if (sweep == 1 && clusterSweepCollides_ && colliders_.count() > 0) push.stages |= gpu::kStageClusterCollide;
        runWorkgroupKernel(rec, passIds_->clusterSweeps[sweep], kernel, clusterObjects_, clusterPhases_,
                           clusterCounts_[sweep], push, at);
        rec.countWork({.pbdWorkgroupConstraints = double(clusterSweepConstraints_[sweep]) / clusterCounts_[sweep]});
    }
}

// Built the first time the families' modes ask for it (a material edit
// records the frame again, World::setFamilyMaterial), and kept: at most
// eight, one per set of families.
const ComputeKernel& PbdSolver::clusterSweepInDeviceMemory() {
    const uint32_t families = xpbdFamilies();
    std::unique_ptr<ComputeKernel>& kernel = clusterSweepsInDeviceMemory_[families];
    if (!kernel) {
        std::vector<SpecializationConstant> specialization = workgroupSpecialization_;
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

void PbdSolver::runWorkgroupKernel(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel,
                                   const GpuBuffer& objects, const GpuBuffer& phases, uint32_t workgroups,
                                   const gpu::WorkgroupSolvePush& push, StepPosition at) {
    const GpuBuffer& p = particles_.predicted();
    rec.run(pass, kernel,
            {&particles_.positions(), &particles_.velocities(), &p, &colliders_.colliders(), &particles_.contacts(),
             &colliders_.meshSdfGrids(), &materials_, &distance_, &bending_, &attachments_, &distanceLambdas_,
             &bendingLambdas_, &attachmentLambdas_, &objects, &phases, &shapeMatchData_, &p, &contactLists_},
            workgroups * kernel.workgroupSize(), push, at, {&p, workingName()},
            {&particles_.velocities(), "velocity"});
}

void PbdSolver::setMaterials(const std::vector<gpu::ConstraintMaterial>& materials) {
    if (materials.size() * sizeof(gpu::ConstraintMaterial) > materials_.size())
        throw std::invalid_argument("material count cannot change at run time");
    pendingMaterials_ = materials;
    currentMaterials_ = materials;
}

uint32_t PbdSolver::xpbdFamilies() const {
    uint32_t families = 0;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows)
            if (currentMaterials_[m].mode == gpu::kModeXpbd) families |= family.xpbdBit;
    return families;
}

bool PbdSolver::xpbdEnergyDefined() const {
    // Shape matching is a PBD projection with no compliance: no energy.
    if (shapeMatchGroupCount_ > 0) return false;
    bool any = false;
    for (const FamilyMaterials& family : familyMaterials_)
        for (uint32_t m : family.rows) {
            if (currentMaterials_[m].mode != gpu::kModeXpbd || !(currentMaterials_[m].compliance > 0.0f)) return false;
            any = true;
        }
    return any;
}

void PbdSolver::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    if (settings.pbd.path == PbdPath::Workgroup && workgroupMisfit_)
        throw std::invalid_argument(fmt::format(
            "{}: /solver/pbdPath: \"workgroup\" needs every PBD object to fit one workgroup, but {}; use \"auto\", "
            "\"clusters\" or \"perColour\"",
            scenePath, *workgroupMisfit_));
    if (settings.pbd.path == PbdPath::Clusters && clusterMisfit_)
        throw std::invalid_argument(fmt::format(
            "{}: /solver/pbdPath: \"clusters\" on this CPU driver reads every array as one texel buffer, but {}; "
            "use \"auto\" or \"perColour\"",
            scenePath, *clusterMisfit_));
}

std::vector<SolverSettings> PbdSolver::liveVariants(const SolverSettings& settings) const {
    std::vector<SolverSettings> variants;
    for (PbdPath path : {PbdPath::PerColour, PbdPath::Clusters, PbdPath::Workgroup}) {
        if (pathMisfit(path)) continue;
        variants.push_back(settings);
        variants.back().pbd.path = path;
    }
    return variants;
}

}  // namespace vksim
