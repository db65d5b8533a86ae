#include "sim/pd_solver.h"

#include <cstring>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "shared/interaction_types.h"
#include "sim/residual_tracker.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "vk/gpu_timer.h"

namespace vksim {

struct PdSolver::PassIds {
    uint32_t predict, collideGenerate, springs, triangles, tetStrain, tetVolume, bending, attachments, collisions,
        gather, jacobi, collideProject, updateVelocity, contactVelocity, residual, energy;
};

namespace {

// Runs `record` between the begin and end timestamps of pass `id`.
template <typename Record>
void timedPass(VkCommandBuffer cmd, GpuTimer& timer, uint32_t id, Record&& record) {
    timer.beginPass(cmd, id);
    record();
    timer.endPass(cmd);
}

uint32_t localPassCount(const PdModel& pd, bool colliders) {
    return uint32_t(!pd.springs.empty()) + uint32_t(!pd.triangles.empty()) + uint32_t(!pd.tetStrain.empty()) +
           uint32_t(!pd.tetVolume.empty()) + uint32_t(!pd.bending.empty()) + uint32_t(!pd.attachments.empty()) +
           uint32_t(colliders);
}

}  // namespace

PdSolver::PdSolver(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions,
                   const GpuBuffer& velocities)
    : ctx_(ctx),
      pd_(model.pd),
      colliderCount_(static_cast<uint32_t>(model.colliders.size())),
      positions_(positions),
      velocities_(velocities) {
    if (pd_.empty()) return;
    if (pd_.rows.size() != pd_.particleCount)
        throw std::invalid_argument("PdSolver: the model's PD system is not built (buildPdSystem)");
    const uint32_t n = model.particleCount();
    const std::vector<glm::vec4> zeros(n, glm::vec4(0.0f));
    for (int b = 0; b < 3; ++b) q_[b] = makeStorageBuffer<glm::vec4>(ctx, model.positions, fmt::format("pd q{}", b));
    contacts_ = makeStorageBuffer<gpu::ParticleContact>(ctx, std::vector<gpu::ParticleContact>(n), "pd contacts");
    collisionTargets_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "pd collision targets");
    rhs_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "pd rhs (f, absolute diagonal)");
    contributions_ = makeStorageBuffer<glm::vec4>(ctx, std::vector<glm::vec4>(pd_.slots.total, glm::vec4(0.0f)),
                                                  "pd element contributions");
    rows_ = makeStorageBuffer<gpu::PdRow>(ctx, pd_.rows, "pd rows");
    offDiagonal_ = makeStorageBuffer<gpu::PdOffDiagonal>(ctx, pd_.offDiagonal, "pd off-diagonal");
    gatherSlots_ = makeStorageBuffer<uint32_t>(ctx, pd_.gatherSlots, "pd gather slots");
    springs_ = makeStorageBuffer<gpu::PdSpring>(ctx, pd_.springs, "pd springs");
    triangles_ = makeStorageBuffer<gpu::PdTriangle>(ctx, pd_.triangles, "pd triangles");
    tetStrain_ = makeStorageBuffer<gpu::PdTetrahedron>(ctx, pd_.tetStrain, "pd tet strain");
    tetVolume_ = makeStorageBuffer<gpu::PdTetrahedron>(ctx, pd_.tetVolume, "pd tet volume");
    bending_ = makeStorageBuffer<gpu::PdBending>(ctx, pd_.bending, "pd bending");
    attachments_ = makeStorageBuffer<gpu::PdAttachment>(ctx, pd_.attachments, "pd attachments");
    colliders_ = makeStorageBuffer<gpu::Collider>(ctx, model.colliders, "pd colliders");
    meshSdfGrids_ = makeStorageBuffer<float>(ctx, model.meshSdfGrids, "pd mesh collider SDF grids");

    using gpu::ParticlePush, gpu::PdElementPush, gpu::PdParticlePush;
    auto kernel = [&](const char* shader, uint32_t pushSize, uint32_t sets) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize, sets);
    };
    predict_ = kernel("particle/predict.comp", sizeof(ParticlePush), 1);
    collideGenerate_ = kernel("particle/collide_generate.comp", sizeof(ParticlePush), 1);
    localSprings_ = kernel("pd/local_springs.comp", sizeof(PdElementPush), 3);
    localTriangles_ = kernel("pd/local_triangles.comp", sizeof(PdElementPush), 3);
    localTets_ = kernel("pd/local_tets.comp", sizeof(PdElementPush), 6);
    localBending_ = kernel("pd/local_bending.comp", sizeof(PdElementPush), 3);
    localAttachments_ = kernel("pd/local_attachments.comp", sizeof(PdElementPush), 3);
    localCollisions_ = kernel("pd/local_collisions.comp", sizeof(PdParticlePush), 3);
    gather_ = kernel("pd/gather_rhs.comp", sizeof(gpu::PdGatherPush), 1);
    jacobi_ = kernel("pd/jacobi.comp", sizeof(PdParticlePush), 6);
    projectCollision_ = kernel("particle/project_collision.comp", sizeof(ParticlePush), 3);
    updateVelocity_ = kernel("particle/update_velocity.comp", sizeof(ParticlePush), 3);
    contactVelocity_ = kernel("particle/contact_velocity.comp", sizeof(ParticlePush), 1);

    // Binding order = the shader's binding numbers.
    predictSet_ = predict_->bind({&positions_, &velocities_, &q_[0]}, "pd predict");
    collideGenerateSet_ = collideGenerate_->bind({&q_[0], &velocities_, &colliders_, &contacts_, &meshSdfGrids_},
                                                   "pd collide");
    gatherSet_ = gather_->bind({&rows_, &gatherSlots_, &contributions_, &collisionTargets_, &rhs_}, "pd gather");
    contactVelocitySet_ =
        contactVelocity_->bind({&positions_, &velocities_, &colliders_, &contacts_, &meshSdfGrids_},
                               "pd contact velocity");
    for (int c = 0; c < 3; ++c) {
        const std::string q = fmt::format(" (q{})", c);
        springsSets_[c] = localSprings_->bind({&q_[c], &springs_, &contributions_}, "pd springs" + q);
        trianglesSets_[c] = localTriangles_->bind({&q_[c], &triangles_, &contributions_}, "pd triangles" + q);
        tetStrainSets_[c] = localTets_->bind({&q_[c], &tetStrain_, &contributions_}, "pd tet strain" + q);
        tetVolumeSets_[c] = localTets_->bind({&q_[c], &tetVolume_, &contributions_}, "pd tet volume" + q);
        bendingSets_[c] = localBending_->bind({&q_[c], &bending_, &contributions_}, "pd bending" + q);
        attachmentsSets_[c] = localAttachments_->bind({&q_[c], &attachments_, &contributions_}, "pd attachments" + q);
        collisionSets_[c] =
            localCollisions_->bind({&q_[c], &colliders_, &contacts_, &collisionTargets_, &meshSdfGrids_},
                                   "pd collisions" + q);
        projectCollisionSets_[c] =
            projectCollision_->bind({&q_[c], &colliders_, &contacts_, &meshSdfGrids_}, "pd collide project" + q);
        updateVelocitySets_[c] = updateVelocity_->bind({&positions_, &q_[c], &velocities_}, "pd update velocity" + q);
        const GpuBuffer* head[] = {&positions_, &velocities_, &rows_, &offDiagonal_, &rhs_};
        jacobiSets_[c] = jacobi_->bind({head[0], head[1], head[2], head[3], head[4], &q_[c], &q_[c], &q_[(c + 1) % 3]},
                                       fmt::format("pd jacobi (q{0}, q{0} -> q{1})", c, (c + 1) % 3));
        jacobiSets_[3 + c] =
            jacobi_->bind({head[0], head[1], head[2], head[3], head[4], &q_[c], &q_[(c + 1) % 3], &q_[(c + 2) % 3]},
                          fmt::format("pd jacobi (q{}, q{} -> q{})", c, (c + 1) % 3, (c + 2) % 3));
    }
}

PdSolver::~PdSolver() = default;

uint32_t PdSolver::passRunsPerFrame(const SimModel& model, const SolverSettings& settings) {
    if (model.pd.empty()) return 0;
    const bool colliders = !model.colliders.empty();
    const uint32_t locals = localPassCount(model.pd, colliders);
    const uint32_t perIteration = locals + 1 + settings.pd.jacobiIterations;
    // Per substep: predict, collide, L x (locals, gather, J x Jacobi), collide: project, velocity, contacts;
    // the last substep's tracking: L x (energy, sum, residual, sum), then the
    // energy's extra local step, energy and sum.
    return settings.substeps * (5 + settings.pd.localIterations * perIteration) + 4 * settings.pd.localIterations +
           locals + 2;
}

void PdSolver::registerPasses(GpuTimer& timer) {
    passIds_ = std::make_unique<PassIds>();
    if (pd_.empty()) return;
    PassIds& ids = *passIds_;
    ids.predict = timer.registerPass("pd: predict");
    ids.collideGenerate = timer.registerPass("pd: collide: generate");
    ids.springs = timer.registerPass("pd: local springs");
    ids.triangles = timer.registerPass("pd: local triangle strain");
    ids.tetStrain = timer.registerPass("pd: local tet strain");
    ids.tetVolume = timer.registerPass("pd: local tet volume");
    ids.bending = timer.registerPass("pd: local bending");
    ids.attachments = timer.registerPass("pd: local attachments");
    ids.collisions = timer.registerPass("pd: local collisions");
    ids.gather = timer.registerPass("pd: gather rhs");
    ids.jacobi = timer.registerPass("pd: jacobi/chebyshev");
    ids.residual = timer.registerPass("pd: residual |b - Aq|");
    ids.energy = timer.registerPass("pd: energy");
    ids.collideProject = timer.registerPass("pd: collide: project");
    ids.updateVelocity = timer.registerPass("pd: update velocity");
    ids.contactVelocity = timer.registerPass("pd: friction/restitution");
}

PdSolver::JacobiParameters PdSolver::jacobiParameters(const SolverSettings& settings) {
    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    auto found = spectra_.find(h);
    if (found == spectra_.end()) found = spectra_.emplace(h, estimateJacobiSpectrum(pd_, h)).first;
    JacobiParameters p;
    p.spectrum = found->second;
    p.gamma = settings.pd.relaxation > 0.0f ? double(settings.pd.relaxation) : optimalRelaxation(p.spectrum);
    if (!(p.gamma * p.spectrum.muMax < 2.0))
        throw std::invalid_argument(fmt::format(
            "relaxation {:.3g} makes the projective dynamics Jacobi iteration diverge (gamma * mu_max = {:.3f} >= 2, "
            "mu_max = {:.3f} being the largest eigenvalue of D^-1 A); use a relaxation below {:.3f}, or \"auto\"",
            p.gamma, p.gamma * p.spectrum.muMax, p.spectrum.muMax, 2.0 / p.spectrum.muMax));
    p.rho = settings.pd.spectralRadius > 0.0f ? double(settings.pd.spectralRadius)
                                              : relaxedJacobiSpectralRadius(p.spectrum, p.gamma);
    return p;
}

void PdSolver::recordFrame(VkCommandBuffer cmd, const SolverSettings& settings, GpuTimer& timer) {
    if (!passIds_) throw std::logic_error("PdSolver::registerPasses must be called before recordFrame");
    if (pd_.empty()) return;
    if (settings.pd.localIterations == 0 || settings.pd.jacobiIterations == 0)
        throw std::invalid_argument("PdSolver: needs at least one local and one Jacobi iteration");
    // The previous frame's draw read positions as vertices, and its compute
    // passes wrote the state this frame reads.
    vertexInputToComputeBarrier(cmd);
    computeToComputeBarrier(cmd);
    if (pendingColliders_) {  // a live collider edit: after the previous frames' reads, before this frame's
        computeToTransferWriteBarrier(cmd);
        if (!pendingColliders_->empty())
            vkCmdUpdateBuffer(cmd, colliders_.handle(), 0, pendingColliders_->size() * sizeof(gpu::Collider),
                              pendingColliders_->data());
        transferWriteToComputeBarrier(cmd);
        pendingColliders_.reset();
    }
    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    const JacobiParameters jacobi = jacobiParameters(settings);
    const std::vector<float> omegas =
        chebyshevOmegas(jacobi.rho, settings.pd.jacobiIterations, settings.pd.chebyshev);
    for (uint32_t s = 0; s < settings.substeps; ++s)
        recordSubstep(cmd, settings, s, h, omegas, static_cast<float>(jacobi.gamma), timer);
}

// SPEC.md 5, one implicit Euler substep of length h as local/global
// alternation. q^0 of the first global step is s; each later one starts
// from the previous one's result (warm start), and the Chebyshev weights
// restart with every global step.
void PdSolver::recordSubstep(VkCommandBuffer cmd, const SolverSettings& settings, uint32_t substep, float h,
                             const std::vector<float>& omegas, float gamma, GpuTimer& timer) {
    const PassIds& ids = *passIds_;
    const ProbedBuffer positions{&positions_, "position"}, velocities{&velocities_, "velocity"};
    const bool colliders = colliderCount_ > 0;

    gpu::ParticlePush particles{};
    particles.gravity = glm::vec4(settings.gravity, 0.0f);
    particles.dt = h;
    particles.damping = settings.damping;
    particles.collisionMargin = settings.collisionMargin;
    particles.restitutionThreshold = 2.0f * glm::length(settings.gravity) * h;  // as PbdSolver
    particles.particleCount = pd_.particleCount;
    particles.colliderCount = colliderCount_;
    particles.stencilStep = settings.stencilStep;
    particles.firstParticle = pd_.firstParticle;

    gpu::PdParticlePush pdParticles{};
    pdParticles.firstParticle = pd_.firstParticle;
    pdParticles.particleCount = pd_.particleCount;
    pdParticles.colliderCount = colliderCount_;
    pdParticles.stencilStep = settings.stencilStep;
    pdParticles.dt = h;
    pdParticles.collisionWeight = settings.pd.collisionWeight;
    pdParticles.omega = 1.0f;
    pdParticles.gamma = gamma;

    // s = x + h v + h^2 g (v += h g first, as in PBD), written to q0.
    timedPass(cmd, timer, ids.predict, [&] { dispatch(cmd, *predict_, predictSet_, pd_.particleCount, particles); });
    computeToComputeBarrier(cmd);
    probePass(cmd, timer, ids.predict, {substep}, velocities, {&q_[0], "pd q"});

    if (colliders) {
        timedPass(cmd, timer, ids.collideGenerate,
                  [&] { dispatch(cmd, *collideGenerate_, collideGenerateSet_, pd_.particleCount, particles); });
        computeToComputeBarrier(cmd);
    }

    const bool tracking = tracker_ && tracker_->enabled() && substep + 1 == settings.substeps;
    uint32_t c = 0;  // the q buffer holding the current iterate
    for (uint32_t l = 0; l < settings.pd.localIterations; ++l) {
        const StepPosition at{substep, l};
        // Local step: every element projected onto its constraint set.
        recordLocalStep(cmd, c, pdParticles, timer, at);
        if (tracking) recordEnergy(cmd, c, pdParticles, l, timer);

        // Global step: gather the right-hand side (with the mouse term of a
        // dragged particle), then J Jacobi iterations.
        gpu::PdGatherPush gather{};
        gather.particles = pdParticles;
        gather.mouseParticle = mouse_ ? mouse_->particle : gpu::kNoParticle;
        gather.mouseTarget = glm::vec4(mouse_ ? mouse_->target : glm::vec3(0.0f), 1.0f);
        gather.mouseWeight = kPdMouseWeight;
        timedPass(cmd, timer, ids.gather, [&] { dispatch(cmd, *gather_, gatherSet_, pd_.particleCount, gather); });
        computeToComputeBarrier(cmd);
        for (uint32_t k = 0; k < settings.pd.jacobiIterations; ++k) {
            pdParticles.omega = omegas[k];
            const VkDescriptorSet set = k == 0 ? jacobiSets_[c] : jacobiSets_[3 + (c + k - 1) % 3];
            timedPass(cmd, timer, ids.jacobi, [&] { dispatch(cmd, *jacobi_, set, pd_.particleCount, pdParticles); });
            computeToComputeBarrier(cmd);
            probePass(cmd, timer, ids.jacobi, at, {&q_[(c + k + 1) % 3], "pd q"});
        }
        c = (c + settings.pd.jacobiIterations) % 3;
        // ||b - A q||_2 of this global step.
        if (tracking) {
            const gpu::ResidualPush push{pd_.firstParticle, pd_.particleCount, h, 0};
            timedPass(cmd, timer, ids.residual,
                      [&] { dispatch(cmd, *residual_, residualSets_[c], pd_.particleCount, push); });
            computeToComputeBarrier(cmd);
            tracker_->recordSum(cmd, ResidualTracker::Series::Pd, l, ResidualTracker::groupsFor(pd_.particleCount),
                                1.0f, true, timer);
            computeToComputeBarrier(cmd);
        }
    }
    // g(q^L) needs the projections at q^L: one more local step. Its slots and
    // collision targets are rewritten by the next substep's first local step
    // before anything reads them, and the touching bits it sets are the ones
    // the collision projection below sets at the same q, so the step is
    // unchanged.
    if (tracking) {
        recordLocalStep(cmd, c, pdParticles, timer, {substep, settings.pd.localIterations}, ids.energy);
        recordEnergy(cmd, c, pdParticles, settings.pd.localIterations, timer);
    }

    // Whatever the finite collision weights left inside a collider is
    // projected onto its surface (the PBD pass, on q), so no step ends
    // inside one; it also marks the contacts for friction.
    if (colliders) {
        timedPass(cmd, timer, ids.collideProject,
                  [&] { dispatch(cmd, *projectCollision_, projectCollisionSets_[c], pd_.particleCount, particles); });
        computeToComputeBarrier(cmd);
        probePass(cmd, timer, ids.collideProject, {substep}, {&q_[c], "pd q"});
    }

    // v = (q - x)/h, x = q.
    timedPass(cmd, timer, ids.updateVelocity,
              [&] { dispatch(cmd, *updateVelocity_, updateVelocitySets_[c], pd_.particleCount, particles); });
    computeToComputeBarrier(cmd);
    probePass(cmd, timer, ids.updateVelocity, {substep}, positions, velocities);

    if (colliders) {
        timedPass(cmd, timer, ids.contactVelocity,
                  [&] { dispatch(cmd, *contactVelocity_, contactVelocitySet_, pd_.particleCount, particles); });
        computeToComputeBarrier(cmd);
        probePass(cmd, timer, ids.contactVelocity, {substep}, velocities);
    }
}

void PdSolver::recordLocalStep(VkCommandBuffer cmd, uint32_t c, const gpu::PdParticlePush& particles,
                               GpuTimer& timer, StepPosition at, std::optional<uint32_t> timedAs) {
    const PassIds& ids = *passIds_;
    auto local = [&](uint32_t passId, const ComputeKernel& kernel, VkDescriptorSet set, size_t count,
                     uint32_t slotBase, uint32_t mode) {
        if (count == 0) return;
        const gpu::PdElementPush push{static_cast<uint32_t>(count), slotBase, mode, 0};
        timedPass(cmd, timer, timedAs.value_or(passId), [&] { dispatch(cmd, kernel, set, push.count, push); });
        computeToComputeBarrier(cmd);
    };
    local(ids.springs, *localSprings_, springsSets_[c], pd_.springs.size(), pd_.slots.springs, 0);
    local(ids.triangles, *localTriangles_, trianglesSets_[c], pd_.triangles.size(), pd_.slots.triangles, 0);
    local(ids.tetStrain, *localTets_, tetStrainSets_[c], pd_.tetStrain.size(), pd_.slots.tetStrain, gpu::kPdTetStrain);
    local(ids.tetVolume, *localTets_, tetVolumeSets_[c], pd_.tetVolume.size(), pd_.slots.tetVolume, gpu::kPdTetVolume);
    local(ids.bending, *localBending_, bendingSets_[c], pd_.bending.size(), pd_.slots.bending, 0);
    local(ids.attachments, *localAttachments_, attachmentsSets_[c], pd_.attachments.size(), pd_.slots.attachments, 0);
    if (colliderCount_ > 0) {
        timedPass(cmd, timer, timedAs.value_or(ids.collisions),
                  [&] { dispatch(cmd, *localCollisions_, collisionSets_[c], pd_.particleCount, particles); });
        computeToComputeBarrier(cmd);
        if (!timedAs) probePass(cmd, timer, ids.collisions, at, {&collisionTargets_, "pd collision target"});
    }
}

void PdSolver::recordEnergy(VkCommandBuffer cmd, uint32_t c, const gpu::PdParticlePush& particles, uint32_t index,
                            GpuTimer& timer) {
    const gpu::PdEnergyPush push{particles.firstParticle, particles.particleCount, pd_.slots.total, particles.dt,
                                 particles.collisionWeight, 0, 0, 0};
    const uint32_t threads = push.particleCount + push.slotCount;
    timedPass(cmd, timer, passIds_->energy, [&] { dispatch(cmd, *energy_, energySets_[c], threads, push); });
    computeToComputeBarrier(cmd);
    tracker_->recordSum(cmd, ResidualTracker::Series::PdEnergy, index, ResidualTracker::groupsFor(threads), 1.0f,
                        false, timer);
    computeToComputeBarrier(cmd);
}

void PdSolver::probePass(VkCommandBuffer cmd, const GpuTimer& timer, uint32_t passId, StepPosition position,
                         ProbedBuffer first, ProbedBuffer second) {
    if (probe_) probe_->check(cmd, timer.passName(passId), position, first, second);
}

void PdSolver::setColliders(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != colliderCount_) throw std::invalid_argument("collider count cannot change at run time");
    if (!pd_.empty()) pendingColliders_ = colliders;
}

void PdSolver::resetState(const SimModel& model) {
    if (pd_.empty()) return;
    const uint32_t n = model.particleCount();
    for (GpuBuffer& q : q_) q.uploadArray<glm::vec4>(model.positions);
    contacts_.uploadArray<gpu::ParticleContact>(std::vector<gpu::ParticleContact>(n));
    collisionTargets_.uploadArray<glm::vec4>(std::vector<glm::vec4>(n, glm::vec4(0.0f)));
}

void PdSolver::setMouse(std::optional<MouseAttachment> mouse) {
    if (mouse && (mouse->particle < pd_.firstParticle || mouse->particle >= pd_.firstParticle + pd_.particleCount))
        throw std::invalid_argument(fmt::format("PdSolver: mouse particle {} is not a PD particle ([{}, {}))",
                                                mouse->particle, pd_.firstParticle,
                                                pd_.firstParticle + pd_.particleCount));
    mouse_ = mouse;
}

void PdSolver::setResidualTracker(ResidualTracker* tracker) {
    tracker_ = tracker;
    if (!tracker_ || residual_ || pd_.empty()) return;
    residual_ = std::make_unique<ComputeKernel>(ctx_, "pd/residual.comp", sizeof(gpu::ResidualPush), 3);
    energy_ = std::make_unique<ComputeKernel>(ctx_, "pd/energy.comp", sizeof(gpu::PdEnergyPush), 3);
    for (int c = 0; c < 3; ++c) {
        residualSets_[c] = residual_->bind(
            {&positions_, &velocities_, &rows_, &offDiagonal_, &rhs_, &q_[c], &tracker_->partials()},
            fmt::format("pd residual (q{})", c));
        energySets_[c] = energy_->bind(
            {&positions_, &velocities_, &rows_, &q_[c], &contributions_, &collisionTargets_, &tracker_->partials()},
            fmt::format("pd energy (q{})", c));
    }
}

void PdSolver::setWeights(const PdModel& pd) {
    if (pd.particleCount != pd_.particleCount || pd.springs.size() != pd_.springs.size() ||
        pd.triangles.size() != pd_.triangles.size() || pd.tetStrain.size() != pd_.tetStrain.size() ||
        pd.tetVolume.size() != pd_.tetVolume.size() || pd.bending.size() != pd_.bending.size() ||
        pd.attachments.size() != pd_.attachments.size() || pd.offDiagonal.size() != pd_.offDiagonal.size() ||
        pd.gatherSlots != pd_.gatherSlots)
        throw std::invalid_argument("PdSolver::setWeights: the elements or the system pattern changed");
    if (pd_.empty()) return;
    // Only the arrays whose bytes changed (an edit touches one family, and
    // the rows of its particles).
    auto upload = [](GpuBuffer& buffer, auto& current, const auto& next) {
        using T = typename std::decay_t<decltype(next)>::value_type;
        if (std::memcmp(current.data(), next.data(), next.size() * sizeof(T)) == 0) return;
        current = next;
        buffer.uploadArray<T>(current);
    };
    upload(springs_, pd_.springs, pd.springs);
    upload(triangles_, pd_.triangles, pd.triangles);
    upload(tetStrain_, pd_.tetStrain, pd.tetStrain);
    upload(tetVolume_, pd_.tetVolume, pd.tetVolume);
    upload(bending_, pd_.bending, pd.bending);
    upload(attachments_, pd_.attachments, pd.attachments);
    upload(rows_, pd_.rows, pd.rows);
    upload(offDiagonal_, pd_.offDiagonal, pd.offDiagonal);
    spectra_.clear();
}

void PdSolver::uploadColliders(const std::vector<gpu::Collider>& colliders) {
    if (colliders.size() != colliderCount_) throw std::invalid_argument("collider count cannot change at run time");
    if (!pd_.empty()) colliders_.uploadArray<gpu::Collider>(colliders);
}

}  // namespace vksim
