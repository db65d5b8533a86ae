#include "sim/pbd_solver.h"

#include <algorithm>

#include <fmt/format.h>

#include "shared/interaction_types.h"
#include "sim/residual_tracker.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {

struct PbdSolver::PassIds {
    uint32_t predict, collideGenerate, collideProject, updateVelocity, contactVelocity, normals, mouse, residual,
        energy;
    std::vector<uint32_t> distance, bending, attachment;  // per colour
};

namespace {

constexpr VkBufferUsageFlags kVertexUsage = VK_BUFFER_USAGE_VERTEX_BUFFER_BIT;

// Runs `record` between the begin and end timestamps of pass `id`.
template <typename Record>
void timedPass(VkCommandBuffer cmd, GpuTimer& timer, uint32_t id, Record&& record) {
    timer.beginPass(cmd, id);
    record();
    timer.endPass(cmd);
}

}  // namespace

PbdSolver::PbdSolver(const VulkanContext& ctx, const SimModel& model)
    : ctx_(ctx),
      particleCount_(model.particleCount()),
      pbdParticleCount_(model.pbdParticleCount()),
      triangleCount_(model.triangleCount()),
      colliderCount_(static_cast<uint32_t>(model.colliders.size())),
      distanceCount_(model.distance.size()),
      bendingCount_(model.bending.size()),
      attachmentCount_(model.attachments.size()),
      distanceColors_(model.distanceColors),
      bendingColors_(model.bendingColors),
      attachmentColors_(model.attachmentColors),
      currentMaterials_(model.materials) {
    for (const auto& c : model.distance) materialsInUse_.push_back(c.material);
    for (const auto& c : model.bending) materialsInUse_.push_back(c.material);
    for (const auto& c : model.attachments) materialsInUse_.push_back(c.material);
    std::sort(materialsInUse_.begin(), materialsInUse_.end());
    materialsInUse_.erase(std::unique(materialsInUse_.begin(), materialsInUse_.end()), materialsInUse_.end());
    if (model.colliders.size() > gpu::kMaxColliders)
        throw std::invalid_argument(fmt::format("{} colliders; the GPU path supports {}", model.colliders.size(),
                                                gpu::kMaxColliders));
    const std::vector<gpu::ParticleContact> noContacts(particleCount_, gpu::ParticleContact{});
    const std::vector<glm::vec4> zeros(particleCount_, glm::vec4(0.0f));
    positions_ = makeStorageBuffer<glm::vec4>(ctx, model.positions, "positions (x, 1/m)", kVertexUsage);
    predicted_ = makeStorageBuffer<glm::vec4>(ctx, model.positions, "predicted positions (p, 1/m)");
    velocities_ = makeStorageBuffer<glm::vec4>(ctx, model.velocities, "velocities");
    contacts_ = makeStorageBuffer<gpu::ParticleContact>(ctx, noContacts, "particle contacts");
    normals_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "vertex normals", kVertexUsage);
    distanceLambdas_ = makeStorageBuffer<float>(ctx, std::vector<float>(model.distance.size()), "distance lambdas");
    bendingLambdas_ = makeStorageBuffer<float>(ctx, std::vector<float>(model.bending.size()), "bending lambdas");
    attachmentLambdas_ =
        makeStorageBuffer<float>(ctx, std::vector<float>(model.attachments.size()), "attachment lambdas");

    materials_ = makeStorageBuffer<gpu::ConstraintMaterial>(ctx, model.materials, "constraint materials");
    distance_ = makeStorageBuffer<gpu::DistanceConstraint>(ctx, model.distance, "distance constraints");
    bending_ = makeStorageBuffer<gpu::BendingConstraint>(ctx, model.bending, "bending constraints");
    attachments_ = makeStorageBuffer<gpu::AttachmentConstraint>(ctx, model.attachments, "attachment constraints");
    colliders_ = makeStorageBuffer<gpu::Collider>(ctx, model.colliders, "colliders");
    meshSdfGrids_ = makeStorageBuffer<float>(ctx, model.meshSdfGrids, "mesh collider SDF grids");
    triangles_ = makeStorageBuffer<uint32_t>(ctx, model.triangles, "triangle indices", VK_BUFFER_USAGE_INDEX_BUFFER_BIT);
    adjacencyOffsets_ = makeStorageBuffer<uint32_t>(ctx, model.adjacencyOffsets, "vertex-triangle offsets");
    adjacentTriangles_ = makeStorageBuffer<uint32_t>(ctx, model.adjacentTriangles, "vertex-triangle lists");

    using gpu::ParticlePush, gpu::ProjectPush, gpu::NormalsPush;
    auto kernel = [&](const char* shader, uint32_t pushSize) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize);
    };
    predict_ = kernel("particle/predict.comp", sizeof(ParticlePush));
    collideGenerate_ = kernel("particle/collide_generate.comp", sizeof(ParticlePush));
    projectDistance_ = kernel("pbd/project_distance.comp", sizeof(ProjectPush));
    projectBending_ = kernel("pbd/project_bending.comp", sizeof(ProjectPush));
    projectAttachment_ = kernel("pbd/project_attachment.comp", sizeof(ProjectPush));
    projectCollision_ = kernel("particle/project_collision.comp", sizeof(ParticlePush));
    updateVelocity_ = kernel("particle/update_velocity.comp", sizeof(ParticlePush));
    contactVelocity_ = kernel("particle/contact_velocity.comp", sizeof(ParticlePush));
    computeNormals_ = kernel("particle/normals.comp", sizeof(NormalsPush));

    // Binding order = the shader's binding numbers.
    predictSet_ = predict_->bind({&positions_, &velocities_, &predicted_}, "predict");
    collideGenerateSet_ = collideGenerate_->bind({&predicted_, &velocities_, &colliders_, &contacts_, &meshSdfGrids_},
                                                   "collide");
    distanceSet_ = projectDistance_->bind({&predicted_, &distance_, &materials_, &distanceLambdas_}, "distance");
    bendingSet_ = projectBending_->bind({&predicted_, &bending_, &materials_, &bendingLambdas_}, "bending");
    attachmentSet_ =
        projectAttachment_->bind({&predicted_, &attachments_, &materials_, &attachmentLambdas_}, "attachment");
    collisionSet_ = projectCollision_->bind({&predicted_, &colliders_, &contacts_, &meshSdfGrids_}, "collision");
    updateVelocitySet_ = updateVelocity_->bind({&positions_, &predicted_, &velocities_}, "update velocity");
    contactVelocitySet_ =
        contactVelocity_->bind({&positions_, &velocities_, &colliders_, &contacts_, &meshSdfGrids_}, "contact velocity");
    normalsSet_ = computeNormals_->bind(
        {&positions_, &triangles_, &adjacencyOffsets_, &adjacentTriangles_, &normals_}, "normals");
    projectMouse_ = kernel("pbd/project_mouse.comp", sizeof(gpu::MousePush));
    mouseSet_ = projectMouse_->bind({&positions_, &predicted_}, "mouse drag");
}

PbdSolver::~PbdSolver() = default;

uint32_t PbdSolver::passRunsPerFrame(const SimModel& model, const SolverSettings& settings) {
    const auto colours = static_cast<uint32_t>(model.distanceColors.size() + model.bendingColors.size() +
                                               model.attachmentColors.size());
    // Per substep: predict, collide, n_s x (mouse + colours + collision projection), velocity,
    // contacts; the last substep's n_s x 4 tracking passes (residual, energy, their sums); the normals.
    return settings.substeps * (4 + settings.iterations * (colours + 2)) + 4 * settings.iterations + 1;
}

void PbdSolver::registerPasses(GpuTimer& timer) {
    passIds_ = std::make_unique<PassIds>();
    PassIds& ids = *passIds_;
    ids.predict = timer.registerPass("predict");
    ids.collideGenerate = timer.registerPass("collide: generate");
    ids.mouse = timer.registerPass("mouse drag");
    for (size_t c = 0; c < distanceColors_.size(); ++c)
        ids.distance.push_back(timer.registerPass(fmt::format("stretch colour {}", c)));
    for (size_t c = 0; c < bendingColors_.size(); ++c)
        ids.bending.push_back(timer.registerPass(fmt::format("bending colour {}", c)));
    for (size_t c = 0; c < attachmentColors_.size(); ++c)
        ids.attachment.push_back(timer.registerPass(fmt::format("attachment colour {}", c)));
    ids.collideProject = timer.registerPass("collide: project");
    ids.residual = timer.registerPass("residual: stretch |C|");
    ids.energy = timer.registerPass("energy (xpbd)");
    ids.updateVelocity = timer.registerPass("update velocity");
    ids.contactVelocity = timer.registerPass("friction/restitution");
    ids.normals = timer.registerPass("normals");
}

void PbdSolver::recordFrame(VkCommandBuffer cmd, const SolverSettings& settings, GpuTimer& timer) {
    if (!passIds_) throw std::logic_error("PbdSolver::registerPasses must be called before recordFrame");
    // The previous frame's draw read positions/normals as vertices, and its
    // compute passes wrote the state this frame reads.
    vertexInputToComputeBarrier(cmd);
    computeToComputeBarrier(cmd);
    recordPendingUpdates(cmd);

    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    // A scene of projective dynamics objects only has no PBD particles to step.
    if (pbdParticleCount_ > 0)
        for (uint32_t s = 0; s < settings.substeps; ++s) recordSubstep(cmd, settings, s, h, timer);

    timedPass(cmd, timer, passIds_->normals, [&] {
        dispatch(cmd, *computeNormals_, normalsSet_, particleCount_, gpu::NormalsPush{particleCount_, 0, 0, 0});
    });
    probePass(cmd, timer, passIds_->normals, {}, {&normals_, "normal"});
}

// SPEC.md 1, one substep of length h. probePass() records nothing unless a
// finite probe is set (replays that look for the pass that went non-finite).
void PbdSolver::recordSubstep(VkCommandBuffer cmd, const SolverSettings& settings, uint32_t substep, float h,
                              GpuTimer& timer) {
    const PassIds& ids = *passIds_;
    const ProbedBuffer positions{&positions_, "position"}, predicted{&predicted_, "predicted position"},
        velocities{&velocities_, "velocity"};
    gpu::ParticlePush particles{};
    particles.gravity = glm::vec4(settings.gravity, 0.0f);
    particles.dt = h;
    particles.damping = settings.damping;
    particles.collisionMargin = settings.collisionMargin;
    // Bounces slower than what gravity adds in two substeps are resting
    // contacts: no restitution, or they would jitter.
    particles.restitutionThreshold = 2.0f * glm::length(settings.gravity) * h;
    particles.particleCount = pbdParticleCount_;
    particles.colliderCount = colliderCount_;
    particles.stencilStep = settings.stencilStep;

    // 1-2. External forces, damping, prediction p = x + h v.
    timedPass(cmd, timer, ids.predict, [&] { dispatch(cmd, *predict_, predictSet_, pbdParticleCount_, particles); });
    computeToComputeBarrier(cmd);
    probePass(cmd, timer, ids.predict, {substep}, velocities, predicted);

    // 3. Collision constraints against the SDF colliders. (Not probed: it
    //    writes only the contact list, which the projection and friction
    //    passes turn into positions and velocities.)
    timedPass(cmd, timer, ids.collideGenerate,
              [&] { dispatch(cmd, *collideGenerate_, collideGenerateSet_, pbdParticleCount_, particles); });
    computeToComputeBarrier(cmd);

    // 4. n_s Gauss-Seidel iterations: one dispatch per colour of each family,
    //    then the collision constraints (one thread per particle).
    for (uint32_t it = 0; it < settings.iterations; ++it) {
        const gpu::ProjectPush project{0, 0, it, settings.iterations, h, 0, 0, 0};
        const StepPosition at{substep, it};
        // The dragged particle onto the mouse target, kinematic for the
        // constraints that follow (one constraint, one thread).
        if (mouse_) {
            gpu::MousePush push{};
            push.target = glm::vec4(mouse_->target, 1.0f);
            push.particle = mouse_->particle;
            timedPass(cmd, timer, ids.mouse, [&] { dispatch(cmd, *projectMouse_, mouseSet_, 1, push); });
            computeToComputeBarrier(cmd);
            probePass(cmd, timer, ids.mouse, at, predicted);
        }
        projectColors(cmd, *projectDistance_, distanceSet_, distanceColors_, ids.distance, project, at, timer);
        projectColors(cmd, *projectBending_, bendingSet_, bendingColors_, ids.bending, project, at, timer);
        projectColors(cmd, *projectAttachment_, attachmentSet_, attachmentColors_, ids.attachment, project, at,
                      timer);
        if (colliderCount_ > 0) {
            timedPass(cmd, timer, ids.collideProject,
                      [&] { dispatch(cmd, *projectCollision_, collisionSet_, pbdParticleCount_, particles); });
            computeToComputeBarrier(cmd);
            probePass(cmd, timer, ids.collideProject, at, predicted);
        }
        // Residual tracking (last substep only): mean |C| of the distance constraints now.
        const auto distanceCount = static_cast<uint32_t>(distanceCount_);
        if (tracker_ && tracker_->enabled() && substep + 1 == settings.substeps && distanceCount > 0) {
            const gpu::ResidualPush push{0, distanceCount, h, 0};
            timedPass(cmd, timer, ids.residual,
                      [&] { dispatch(cmd, *residualDistance_, residualSet_, distanceCount, push); });
            computeToComputeBarrier(cmd);
            tracker_->recordSum(cmd, ResidualTracker::Series::Pbd, it, ResidualTracker::groupsFor(distanceCount),
                                1.0f / static_cast<float>(distanceCount), false, timer);
            computeToComputeBarrier(cmd);
        }
        // The XPBD objective g(p) now, where it is defined.
        if (tracker_ && tracker_->enabled() && substep + 1 == settings.substeps && xpbdEnergyDefined()) {
            const gpu::PbdEnergyPush push{pbdParticleCount_, distanceCount, static_cast<uint32_t>(bendingCount_),
                                          static_cast<uint32_t>(attachmentCount_), h, 0, 0, 0};
            const uint32_t threads = push.particleCount + push.distanceCount + push.bendingCount +
                                     push.attachmentCount;
            timedPass(cmd, timer, ids.energy, [&] { dispatch(cmd, *energy_, energySet_, threads, push); });
            computeToComputeBarrier(cmd);
            tracker_->recordSum(cmd, ResidualTracker::Series::PbdEnergy, it, ResidualTracker::groupsFor(threads),
                                1.0f, false, timer);
            computeToComputeBarrier(cmd);
        }
    }

    // 5. v = (p - x)/h, x = p.
    timedPass(cmd, timer, ids.updateVelocity,
              [&] { dispatch(cmd, *updateVelocity_, updateVelocitySet_, pbdParticleCount_, particles); });
    computeToComputeBarrier(cmd);
    probePass(cmd, timer, ids.updateVelocity, {substep}, positions, velocities);

    // 6. Friction and restitution for particles in contact (SPEC.md 3).
    if (colliderCount_ > 0) {
        timedPass(cmd, timer, ids.contactVelocity,
                  [&] { dispatch(cmd, *contactVelocity_, contactVelocitySet_, pbdParticleCount_, particles); });
        computeToComputeBarrier(cmd);
        probePass(cmd, timer, ids.contactVelocity, {substep}, velocities);
    }
}

void PbdSolver::projectColors(VkCommandBuffer cmd, const ComputeKernel& kernel, VkDescriptorSet set,
                              const std::vector<ColorRange>& colors, const std::vector<uint32_t>& passIds,
                              gpu::ProjectPush push, StepPosition position, GpuTimer& timer) {
    for (size_t c = 0; c < colors.size(); ++c) {
        push.first = colors[c].first;
        push.count = colors[c].count;
        timedPass(cmd, timer, passIds[c], [&] { dispatch(cmd, kernel, set, push.count, push); });
        computeToComputeBarrier(cmd);
        probePass(cmd, timer, passIds[c], position, {&predicted_, "predicted position"});
    }
}

void PbdSolver::probePass(VkCommandBuffer cmd, const GpuTimer& timer, uint32_t passId, StepPosition position,
                          ProbedBuffer first, ProbedBuffer second) {
    if (probe_) probe_->check(cmd, timer.passName(passId), position, first, second);
}

void PbdSolver::uploadMaterials(const std::vector<gpu::ConstraintMaterial>& materials) {
    materials_.uploadArray<gpu::ConstraintMaterial>(materials);
}

void PbdSolver::uploadColliders(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != colliderCount_) throw std::invalid_argument("collider count cannot change at run time");
    colliders_.uploadArray<gpu::Collider>(colliders);
}

void PbdSolver::setMaterials(const std::vector<gpu::ConstraintMaterial>& materials) {
    if (materials.size() * sizeof(gpu::ConstraintMaterial) > materials_.size())
        throw std::invalid_argument("material count cannot change at run time");
    pendingMaterials_ = materials;
    currentMaterials_ = materials;
}

bool PbdSolver::xpbdEnergyDefined() const {
    if (materialsInUse_.empty()) return false;
    for (uint32_t m : materialsInUse_)
        if (currentMaterials_[m].mode != gpu::kModeXpbd || !(currentMaterials_[m].compliance > 0.0f)) return false;
    return true;
}

void PbdSolver::setColliders(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != colliderCount_) throw std::invalid_argument("collider count cannot change at run time");
    pendingColliders_ = colliders;
}

void PbdSolver::setMouse(std::optional<MouseAttachment> mouse) {
    if (mouse && mouse->particle >= pbdParticleCount_)
        throw std::invalid_argument(fmt::format("PbdSolver: mouse particle {} is not a PBD particle (there are {})",
                                                mouse->particle, pbdParticleCount_));
    mouse_ = mouse;
}

void PbdSolver::setResidualTracker(ResidualTracker* tracker) {
    tracker_ = tracker;
    if (tracker_ && !residualDistance_) {
        residualDistance_ = std::make_unique<ComputeKernel>(ctx_, "pbd/residual_distance.comp",
                                                            sizeof(gpu::ResidualPush), 1);
        residualSet_ = residualDistance_->bind({&predicted_, &distance_, &tracker_->partials()}, "residual: stretch");
        energy_ = std::make_unique<ComputeKernel>(ctx_, "pbd/energy.comp", sizeof(gpu::PbdEnergyPush), 1);
        energySet_ = energy_->bind({&positions_, &velocities_, &predicted_, &distance_, &bending_, &attachments_,
                                    &materials_, &tracker_->partials()},
                                   "energy (xpbd)");
    }
}

// Live parameter edits, recorded before the frame's first pass: the previous
// frames' passes finish reading the buffers before the update writes them,
// and the update is visible to this frame's passes.
void PbdSolver::recordPendingUpdates(VkCommandBuffer cmd) {
    if (!pendingMaterials_ && !pendingColliders_) return;
    computeToTransferWriteBarrier(cmd);
    if (pendingMaterials_ && !pendingMaterials_->empty())
        vkCmdUpdateBuffer(cmd, materials_.handle(), 0, pendingMaterials_->size() * sizeof(gpu::ConstraintMaterial),
                          pendingMaterials_->data());
    if (pendingColliders_ && !pendingColliders_->empty())
        vkCmdUpdateBuffer(cmd, colliders_.handle(), 0, pendingColliders_->size() * sizeof(gpu::Collider),
                          pendingColliders_->data());
    transferWriteToComputeBarrier(cmd);
    pendingMaterials_.reset();
    pendingColliders_.reset();
}

void PbdSolver::resetState(const SimModel& model) {
    positions_.uploadArray<glm::vec4>(model.positions);
    predicted_.uploadArray<glm::vec4>(model.positions);
    velocities_.uploadArray<glm::vec4>(model.velocities);
    contacts_.uploadArray<gpu::ParticleContact>(std::vector<gpu::ParticleContact>(particleCount_));
}

}  // namespace vksim
