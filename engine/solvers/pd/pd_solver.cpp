#include "solvers/pd/pd_solver.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include <fmt/format.h>

#include "shaders/shared/interaction_types.h"
#include "state/collider_set.h"
#include "step/residual_tracker.h"
#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {

struct PdSolver::PassIds {
    uint32_t springs, triangles, tetStrain, tetVolume, bending, attachments, collisions, gather, jacobi,
        jacobiInWorkgroup, jacobiTiled, residual, energy;
};

PdSolver::PdSolver(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
                   const ColliderSet& colliders)
    : ctx_(ctx), particles_(particles), colliders_(colliders), pd_(model.pd) {
    q_[0] = &particles.predicted();
    q_[1] = &ownQ_[0];
    q_[2] = &ownQ_[1];
    if (pd_.empty()) return;
    if (pd_.rows.size() != pd_.particleCount)
        throw std::invalid_argument("PdSolver: the model's PD system is not built (buildPdSystem)");
    const uint32_t n = model.particleCount();
    const std::vector<glm::vec4> zeros(n, glm::vec4(0.0f));
    for (int b = 0; b < 2; ++b)
        ownQ_[b] = makeStorageBuffer<glm::vec4>(ctx, model.positions, fmt::format("pd q{}", b + 1));
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

    using gpu::PdElementPush, gpu::PdParticlePush;
    auto kernel = [&](const char* shader, uint32_t pushSize) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize);
    };
    localSprings_ = kernel("pd/local_springs.comp", sizeof(PdElementPush));
    localTriangles_ = kernel("pd/local_triangles.comp", sizeof(PdElementPush));
    localTets_ = kernel("pd/local_tets.comp", sizeof(PdElementPush));
    localBending_ = kernel("pd/local_bending.comp", sizeof(PdElementPush));
    localAttachments_ = kernel("pd/local_attachments.comp", sizeof(PdElementPush));
    const SpecializationConstant shapes[] = {colliders_.shapeSpecialization()};
    localCollisions_ = std::make_unique<ComputeKernel>(ctx, "pd/local_collisions.comp", sizeof(PdParticlePush), shapes);
    gather_ = kernel("pd/gather_rhs.comp", sizeof(gpu::PdGatherPush));
    jacobi_ = kernel("pd/jacobi.comp", sizeof(PdParticlePush));
    // 16 invocations on a CPU driver, 256 on a GPU, as the PBD workgroup solve.
    const bool cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    jacobiInWorkgroup_ = kernel(cpuDevice ? "pd/jacobi_in_workgroup_16.comp" : "pd/jacobi_in_workgroup_256.comp",
                                sizeof(gpu::PdJacobiRunPush));
    omegaBuffer_ = makeStorageBuffer<float>(ctx, std::vector<float>(kMaxOmegas, 1.0f), "pd chebyshev omegas");

    // The tiled path's halo: the farthest column from its row, as far as the
    // window (kTiledJacobiRows + 2 halo vec4) fits shared memory.
    const uint32_t bandwidth = pdBandwidth(pd_);
    const uint32_t windowVec4s = ctx.properties().limits.maxComputeSharedMemorySize / sizeof(glm::vec4);
    const uint32_t maxHalo = windowVec4s > kTiledJacobiRows ? (windowVec4s - kTiledJacobiRows) / 2 : 0;
    tiledHalo_ = std::min(bandwidth, maxHalo);
}

// "auto": one workgroup up to kOneWorkgroupRows rows, where it measured
// faster on both kinds of device: a workgroup runs on one core or one
// multiprocessor, so its cost grows with the rows, while a dispatch per
// iteration costs its fixed share whatever the size (faster for pd_bar's
// 99 rows, slower from pd_ball's 729 on lavapipe and on an H100;
// docs/physics.md §5, "The global step in one dispatch").
PdJacobiPath PdSolver::jacobiPathFor(const SolverSettings& settings) const {
    if (settings.pd.jacobiIterations > kMaxOmegas) return PdJacobiPath::PerIteration;
    if (settings.pd.jacobiPath != PdJacobiPath::Auto) return settings.pd.jacobiPath;
    return pd_.particleCount <= kOneWorkgroupRows ? PdJacobiPath::Workgroup : PdJacobiPath::PerIteration;
}

PdSolver::~PdSolver() = default;

void PdSolver::declarePasses(StepPlan& plan) {
    passIds_ = std::make_unique<PassIds>();
    PassIds& ids = *passIds_;
    ids.springs = plan.declare("pd: local springs", StageKind::Solve, "pd");
    ids.triangles = plan.declare("pd: local triangle strain", StageKind::Solve, "pd");
    ids.tetStrain = plan.declare("pd: local tet strain", StageKind::Solve, "pd");
    ids.tetVolume = plan.declare("pd: local tet volume", StageKind::Solve, "pd");
    ids.bending = plan.declare("pd: local bending", StageKind::Solve, "pd");
    ids.attachments = plan.declare("pd: local attachments", StageKind::Solve, "pd");
    ids.collisions = plan.declare("pd: local collisions", StageKind::Solve, "pd");
    ids.gather = plan.declare("pd: gather rhs", StageKind::Solve, "pd");
    ids.jacobi = plan.declare("pd: jacobi/chebyshev", StageKind::Solve, "pd");
    ids.jacobiInWorkgroup = plan.declare(std::string(kJacobiInWorkgroupPassName), StageKind::Solve, "pd");
    ids.jacobiTiled = plan.declare(std::string(kJacobiTiledPassName), StageKind::Solve, "pd");
    ids.residual = plan.declare("pd: residual |b - Aq|", StageKind::Diagnostic, "pd");
    ids.energy = plan.declare("pd: energy", StageKind::Diagnostic, "pd");
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

void PdSolver::beginFrame(StepRecorder& rec, const FrameInputs& frame) {
    // Counting needs no weights: no spectrum estimate, and nothing a real
    // frame's parameters depend on changes.
    if (pd_.empty() || rec.counting()) return;
    const SolverSettings& settings = frame.settings;
    if (settings.pd.localIterations == 0 || settings.pd.jacobiIterations == 0)
        throw std::invalid_argument("PdSolver: needs at least one local and one Jacobi iteration");
    const JacobiParameters jacobi = jacobiParameters(settings);
    omegas_ = chebyshevOmegas(jacobi.rho, settings.pd.jacobiIterations, settings.pd.chebyshev);
    gamma_ = static_cast<float>(jacobi.gamma);
    // The workgroup path reads them from a buffer: written at the frame's
    // start, between barriers, when they changed.
    if (jacobiPathFor(settings) == PdJacobiPath::Workgroup && omegas_ != uploadedOmegas_) {
        rec.recordedOneTimeWork();
        computeToTransferWriteBarrier(rec.cmd());
        vkCmdUpdateBuffer(rec.cmd(), omegaBuffer_.handle(), 0, omegas_.size() * sizeof(float), omegas_.data());
        transferWriteToComputeBarrier(rec.cmd());
        uploadedOmegas_ = omegas_;
    }
}

// docs/physics.md §5, one implicit Euler substep of length h as local/global
// alternation. q^0 of the first global step is s (the prediction, in p);
// each later one starts from the previous one's result (warm start), and the
// Chebyshev weights restart with every global step.
const GpuBuffer& PdSolver::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    if (!passIds_) throw std::logic_error("PdSolver::declarePasses must be called before recording");
    const PassIds& ids = *passIds_;
    const SolverSettings& settings = sub.frame.settings;
    const std::optional<MouseAttachment>& mouse = sub.frame.mouse;
    const bool dragging = mouse && range().contains(mouse->particle);

    gpu::PdParticlePush pdParticles{};
    pdParticles.firstParticle = pd_.firstParticle;
    pdParticles.particleCount = pd_.particleCount;
    pdParticles.colliderCount = colliders_.count();
    pdParticles.stencilStep = settings.stencilStep;
    pdParticles.dt = sub.h;
    pdParticles.collisionWeight = settings.pd.collisionWeight;
    pdParticles.omega = 1.0f;
    pdParticles.gamma = gamma_;

    uint32_t c = 0;  // the q buffer holding the current iterate
    for (uint32_t l = 0; l < settings.pd.localIterations; ++l) {
        const StepPosition at{sub.substep, l};
        // Local step: every element projected onto its constraint set.
        recordLocalStep(rec, c, pdParticles, at);
        if (sub.tracking) recordEnergy(rec, *sub.frame.tracker, c, pdParticles, l);

        // Global step: gather the right-hand side (with the mouse term of a
        // dragged particle), then J Jacobi iterations.
        gpu::PdGatherPush gather{};
        gather.particles = pdParticles;
        gather.mouseParticle = dragging ? mouse->particle : gpu::kNoParticle;
        gather.mouseTarget = glm::vec4(dragging ? mouse->target : glm::vec3(0.0f), 1.0f);
        gather.mouseWeight = kPdMouseWeight;
        rec.run(ids.gather, *gather_, {&rows_, &gatherSlots_, &contributions_, &collisionTargets_, &rhs_},
                pd_.particleCount, gather);
        if (jacobiPathFor(settings) == PdJacobiPath::Workgroup) {
            gpu::PdJacobiRunPush run{};
            run.particles = pdParticles;
            run.iterations = settings.pd.jacobiIterations;
            run.firstBuffer = c;
            const GpuBuffer* last = q_[(c + settings.pd.jacobiIterations) % 3];
            rec.run(ids.jacobiInWorkgroup, *jacobiInWorkgroup_,
                    {&particles_.positions(), &particles_.velocities(), &rows_, &offDiagonal_, &rhs_, q_[0], q_[1],
                     q_[2], &omegaBuffer_},
                    jacobiInWorkgroup_->workgroupSize(), run, at, {last, workingName()});
            rec.countWork({.pdWorkgroupRows = double(settings.pd.jacobiIterations) * pd_.particleCount});
        } else {
            const bool tiled = jacobiPathFor(settings) == PdJacobiPath::Tiled;
            if (tiled && !jacobiTiled_) {
                const SpecializationConstant specialization[] = {{0, tiledHalo_}};  // kHalo
                jacobiTiled_ = std::make_unique<ComputeKernel>(ctx_, "pd/jacobi_tiled.comp",
                                                               sizeof(gpu::PdParticlePush), specialization);
            }
            // The tiled kernel's invocations take kTiledJacobiRows / workgroup size rows each.
            const ComputeKernel& kernel = tiled ? *jacobiTiled_ : *jacobi_;
            const uint32_t rowsPerThread = tiled ? kTiledJacobiRows / jacobiTiled_->workgroupSize() : 1;
            const uint32_t threads = (pd_.particleCount + rowsPerThread - 1) / rowsPerThread;
            for (uint32_t k = 0; k < settings.pd.jacobiIterations; ++k) {
                if (!rec.counting()) pdParticles.omega = omegas_[k];
                // (previous, current, next): the first iteration from q^0 has q^{-1} = q^0.
                const uint32_t d = k == 0 ? c : (c + k - 1) % 3;
                const GpuBuffer* previous = q_[d];
                const GpuBuffer* current = k == 0 ? q_[c] : q_[(d + 1) % 3];
                const GpuBuffer* next = k == 0 ? q_[(c + 1) % 3] : q_[(d + 2) % 3];
                rec.run(tiled ? ids.jacobiTiled : ids.jacobi, kernel,
                        {&particles_.positions(), &particles_.velocities(), &rows_, &offDiagonal_, &rhs_, previous,
                         current, next},
                        threads, pdParticles, at, {next, workingName()});
            }
        }
        c = (c + settings.pd.jacobiIterations) % 3;
        // ||b - A q||_2 of this global step.
        if (sub.tracking) {
            ResidualTracker& tracker = *sub.frame.tracker;
            const gpu::ResidualPush push{pd_.firstParticle, pd_.particleCount, sub.h, 0};
            rec.run(ids.residual, residualKernel(),
                    {&particles_.positions(), &particles_.velocities(), &rows_, &offDiagonal_, &rhs_, q_[c],
                     &tracker.partials()},
                    pd_.particleCount, push);
            tracker.recordSum(rec, ResidualTracker::Series::Pd, l, ResidualTracker::groupsFor(pd_.particleCount),
                              1.0f, true);
            rec.barrier();
        }
    }
    // g(q^L) needs the projections at q^L: one more local step. Its slots and
    // collision targets are rewritten by the next substep's first local step
    // before anything reads them, and the touching bits it sets are the ones
    // the collision projection sets at the same q, so the step is unchanged.
    if (sub.tracking) {
        recordLocalStep(rec, c, pdParticles, {sub.substep, settings.pd.localIterations}, ids.energy);
        recordEnergy(rec, *sub.frame.tracker, c, pdParticles, settings.pd.localIterations);
    }
    return *q_[c];
}

void PdSolver::recordLocalStep(StepRecorder& rec, uint32_t c, const gpu::PdParticlePush& particles,
                               StepPosition at, std::optional<uint32_t> timedAs) {
    const PassIds& ids = *passIds_;
    const GpuBuffer& q = *q_[c];
    auto local = [&](uint32_t passId, const ComputeKernel& kernel, const GpuBuffer& elements, size_t count,
                     uint32_t slotBase, uint32_t mode) {
        if (count == 0) return;
        const gpu::PdElementPush push{static_cast<uint32_t>(count), slotBase, mode, 0};
        rec.run(timedAs.value_or(passId), kernel, {&q, &elements, &contributions_}, push.count, push);
    };
    local(ids.springs, *localSprings_, springs_, pd_.springs.size(), pd_.slots.springs, 0);
    local(ids.triangles, *localTriangles_, triangles_, pd_.triangles.size(), pd_.slots.triangles, 0);
    local(ids.tetStrain, *localTets_, tetStrain_, pd_.tetStrain.size(), pd_.slots.tetStrain, gpu::kPdTetStrain);
    local(ids.tetVolume, *localTets_, tetVolume_, pd_.tetVolume.size(), pd_.slots.tetVolume, gpu::kPdTetVolume);
    local(ids.bending, *localBending_, bending_, pd_.bending.size(), pd_.slots.bending, 0);
    local(ids.attachments, *localAttachments_, attachments_, pd_.attachments.size(), pd_.slots.attachments, 0);
    if (colliders_.count() > 0) {
        const ProbedBuffer targets =
            timedAs ? ProbedBuffer{} : ProbedBuffer{&collisionTargets_, "pd collision target"};
        rec.run(timedAs.value_or(ids.collisions), *localCollisions_,
                {&q, &colliders_.colliders(), &particles_.contacts(), &collisionTargets_, &colliders_.meshSdfGrids()},
                pd_.particleCount, particles, at, targets);
    }
}

void PdSolver::recordEnergy(StepRecorder& rec, ResidualTracker& tracker, uint32_t c,
                            const gpu::PdParticlePush& particles, uint32_t index) {
    const gpu::PdEnergyPush push{particles.firstParticle, particles.particleCount, pd_.slots.total, particles.dt,
                                 particles.collisionWeight, 0, 0, 0};
    const uint32_t threads = push.particleCount + push.slotCount;
    if (!energy_) energy_ = std::make_unique<ComputeKernel>(ctx_, "pd/energy.comp", sizeof(gpu::PdEnergyPush));
    rec.run(passIds_->energy, *energy_,
            {&particles_.positions(), &particles_.velocities(), &rows_, q_[c], &contributions_, &collisionTargets_,
             &tracker.partials()},
            threads, push);
    tracker.recordSum(rec, ResidualTracker::Series::PdEnergy, index, ResidualTracker::groupsFor(threads), 1.0f,
                      false);
    rec.barrier();
}

const ComputeKernel& PdSolver::residualKernel() {
    if (!residual_) residual_ = std::make_unique<ComputeKernel>(ctx_, "pd/residual.comp", sizeof(gpu::ResidualPush));
    return *residual_;
}

void PdSolver::reset(const SimModel& model) {
    if (pd_.empty()) return;
    const uint32_t n = model.particleCount();
    for (GpuBuffer& q : ownQ_) q.uploadArray<glm::vec4>(model.positions);
    collisionTargets_.uploadArray<glm::vec4>(std::vector<glm::vec4>(n, glm::vec4(0.0f)));
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
    // the rows of its particles). An empty family has no bytes, and its
    // null data() may not go to memcmp.
    auto upload = [](GpuBuffer& buffer, auto& current, const auto& next) {
        using T = typename std::decay_t<decltype(next)>::value_type;
        if (next.empty() || std::memcmp(current.data(), next.data(), next.size() * sizeof(T)) == 0) return;
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

void PdSolver::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    if (empty()) return;
    try {
        jacobiParameters(settings);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: /solver/pd/relaxation: {}", scenePath, e.what()));
    }
}

}  // namespace vksim
