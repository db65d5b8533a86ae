#include "solvers/pd/pd_solver.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "shaders/shared/interaction_types.h"
#include "solvers/pd/pd_jacobi_path_choice.h"
#include "solvers/solver_origin.h"
#include "state/collider_set.h"
#include "step/residual_tracker.h"
#include "vk/context.h"

namespace vksim {
namespace {

// Per PD row its batch copy (ObjectRange::copy): each copy's system takes
// its own Jacobi weights (PdConstraints). 0 in a scene's world.
std::vector<uint32_t> rowCopies(const PdModelView& model) {
    const PdModel& pd = model.pd;
    std::vector<uint32_t> copies(pd.particleCount, 0u);
    for (const ObjectRange& object : model.shared.objects) {
        if (object.particleCount == 0 || object.firstParticle < pd.firstParticle ||
            object.firstParticle >= pd.firstParticle + pd.particleCount)
            continue;
        std::fill_n(copies.begin() + (object.firstParticle - pd.firstParticle), object.particleCount, object.copy);
    }
    return copies;
}

}  // namespace

struct PdSolver::PassIds {
    uint32_t springs, triangles, tetStrain, tetVolume, bending, attachments, collisions, gather, residual, energy;
};

PdSolver::PdSolver(const VulkanContext& ctx, const PdModelView& model, const ParticleStore& particles,
                   const ColliderSet& colliders)
    : ctx_(ctx),
      particles_(particles),
      colliders_(colliders),
      constraints_(ctx, model.pd, solverOrigin(model.shared, {model.pd.firstParticle, model.pd.particleCount}),
                   rowCopies(model)),
      q_{&particles.predicted(), &ownQ_[0], &ownQ_[1]},
      jacobiBuffers_{.q = {q_[0], q_[1], q_[2]},
                     .positions = &particles.positions(),
                     .velocities = &particles.velocities(),
                     .constraints = &constraints_,
                     .rhs = &rhs_,
                     .workingName = kIterateName},
      perIteration_(ctx, jacobiBuffers_),
      inWorkgroup_(ctx, jacobiBuffers_),
      tiled_(ctx, jacobiBuffers_) {
    const PdModel& pd = constraints_.model();
    if (pd.empty()) return;
    const uint32_t n = model.shared.particleCount();
    const std::vector<glm::vec4> zeros(n, glm::vec4(0.0f));
    for (int b = 0; b < 2; ++b)
        ownQ_[b] = makeStorageBuffer<glm::vec4>(ctx, relativePositions(model.shared), fmt::format("pd q{}", b + 1));
    collisionTargets_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "pd collision targets");
    rhs_ = makeStorageBuffer<glm::vec4>(ctx, zeros, "pd rhs (f, absolute diagonal)");
    contributions_ = makeStorageBuffer<glm::vec4>(ctx, std::vector<glm::vec4>(pd.slots.total, glm::vec4(0.0f)),
                                                  "pd element contributions");

    using gpu::PdElementPush, gpu::PdParticlePush;
    auto kernel = [&](const char* shader, uint32_t pushSize) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize);
    };
    localSprings_ = kernel("pd/local_springs.comp", sizeof(PdElementPush));
    localTriangles_ = kernel("pd/local_triangles.comp", sizeof(PdElementPush));
    localTets_ = kernel("pd/local_tets.comp", sizeof(PdElementPush));
    localBending_ = kernel("pd/local_bending.comp", sizeof(PdElementPush));
    localAttachments_ = kernel("pd/local_attachments.comp", sizeof(PdElementPush));
    localCollisions_ = std::make_unique<ComputeKernel>(ctx, "pd/local_collisions.comp", sizeof(PdParticlePush),
                                                       colliders_.particleSpecialization());
    gather_ = kernel("pd/gather_rhs.comp", sizeof(gpu::PdGatherPush));
}

PdJacobiPath PdSolver::jacobiPathFor(const SolverSettings& settings) const {
    return choosePdJacobiPath(settings.pd, model().particleCount);
}

std::string PdSolver::describePath(const SolverSettings& settings) const {
    const PdJacobiDispatchPath& taken = jacobiPath(settings);
    const bool chosen = settings.pd.jacobiPath == PdJacobiPath::Auto;
    return fmt::format("PD Jacobi path: {}{}: {}\n", taken.name(), chosen ? " (\"auto\")" : "", taken.describe());
}

const PdJacobiDispatchPath& PdSolver::jacobiPath(const SolverSettings& settings) const {
    switch (jacobiPathFor(settings)) {
        case PdJacobiPath::Workgroup: return inWorkgroup_;
        case PdJacobiPath::Tiled: return tiled_;
        case PdJacobiPath::PerIteration:
        case PdJacobiPath::Auto: break;  // resolved by jacobiPathFor
    }
    return perIteration_;
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
    perIteration_.declarePasses(plan);
    inWorkgroup_.declarePasses(plan);
    tiled_.declarePasses(plan);
    ids.residual = plan.declare("pd: residual |b - Aq|", StageKind::Diagnostic, "pd");
    ids.energy = plan.declare("pd: energy", StageKind::Diagnostic, "pd");
}

void PdSolver::beginFrame(StepRecorder& rec, const FrameInputs& frame) {
    // Counting needs no weights: no spectrum estimate, and nothing a real
    // frame's parameters depend on changes.
    if (empty() || rec.counting()) return;
    const SolverSettings& settings = frame.settings;
    if (settings.pd.localIterations == 0 || settings.pd.jacobiIterations == 0)
        throw std::invalid_argument("PdSolver: needs at least one local and one Jacobi iteration");
    PdJacobiDispatchPath& path = jacobiPath(settings);
    if (std::optional<std::string> misfit = path.misfit(settings))
        throw std::invalid_argument(fmt::format("PdSolver: jacobiPath \"{}\": {}", path.name(), *misfit));
    constraints_.recordJacobiWeights(rec, settings);
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
    const PdModel& pd = model();

    gpu::PdParticlePush pdParticles{};
    pdParticles.firstParticle = pd.firstParticle;
    pdParticles.particleCount = pd.particleCount;
    pdParticles.colliderCount = colliders_.count();
    pdParticles.stencilStep = settings.stencilStep;
    pdParticles.dt = sub.h;
    pdParticles.collisionWeight = settings.pd.collisionWeight;
    const glm::vec3 o = origin();
    pdParticles.originX = o.x;
    pdParticles.originY = o.y;
    pdParticles.originZ = o.z;

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
        gather.mouseTarget = glm::vec4(dragging ? mouse->target - o : glm::vec3(0.0f), 1.0f);  // q is relative to o
        gather.mouseWeight = kPdMouseWeight;
        rec.run(ids.gather, *gather_,
                {&constraints_.rows(), &constraints_.gatherSlots(), &contributions_, &collisionTargets_, &rhs_},
                pd.particleCount, gather);
        jacobiPath(settings).record(rec, {.particles = pdParticles,
                                          .iterations = settings.pd.jacobiIterations,
                                          .first = c,
                                          .at = at});
        c = (c + settings.pd.jacobiIterations) % 3;
        // ||b - A q||_2 of this global step.
        if (sub.tracking) {
            ResidualTracker& tracker = *sub.frame.tracker;
            const gpu::ResidualPush push{pd.firstParticle, pd.particleCount, sub.h, o.x, o.y, o.z, 0, 0};
            rec.run(ids.residual, residualKernel(),
                    {&particles_.positions(), &particles_.velocities(), &constraints_.rows(),
                     &constraints_.offDiagonal(), &rhs_, q_[c], &tracker.partials()},
                    pd.particleCount, push);
            tracker.recordSum(rec, ResidualTracker::Series::Pd, l, ResidualTracker::groupsFor(pd.particleCount),
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
    const PdModel& pd = model();
    const PdConstraints& on = constraints_;
    local(ids.springs, *localSprings_, on.springs(), pd.springs.size(), pd.slots.springs, 0);
    local(ids.triangles, *localTriangles_, on.triangles(), pd.triangles.size(), pd.slots.triangles, 0);
    local(ids.tetStrain, *localTets_, on.tetStrain(), pd.tetStrain.size(), pd.slots.tetStrain, gpu::kPdTetStrain);
    local(ids.tetVolume, *localTets_, on.tetVolume(), pd.tetVolume.size(), pd.slots.tetVolume, gpu::kPdTetVolume);
    local(ids.bending, *localBending_, on.bending(), pd.bending.size(), pd.slots.bending, 0);
    local(ids.attachments, *localAttachments_, on.attachments(), pd.attachments.size(), pd.slots.attachments, 0);
    if (colliders_.count() > 0) {
        const ProbedBuffer targets =
            timedAs ? ProbedBuffer{} : ProbedBuffer{&collisionTargets_, "pd collision target"};
        rec.run(timedAs.value_or(ids.collisions), *localCollisions_,
                {&q, &colliders_.colliders(), &particles_.contacts(), &collisionTargets_, &colliders_.meshSdfGrids(),
                 &particles_.positions()},
                pd.particleCount, particles, at, targets);
    }
}

void PdSolver::recordEnergy(StepRecorder& rec, ResidualTracker& tracker, uint32_t c,
                            const gpu::PdParticlePush& particles, uint32_t index) {
    const gpu::PdEnergyPush push{particles.firstParticle, particles.particleCount, model().slots.total, particles.dt,
                                 particles.collisionWeight, particles.originX, particles.originY, particles.originZ};
    const uint32_t threads = push.particleCount + push.slotCount;
    if (!energy_) energy_ = std::make_unique<ComputeKernel>(ctx_, "pd/energy.comp", sizeof(gpu::PdEnergyPush));
    rec.run(passIds_->energy, *energy_,
            {&particles_.positions(), &particles_.velocities(), &constraints_.rows(), q_[c], &contributions_,
             &collisionTargets_, &tracker.partials()},
            threads, push);
    tracker.recordSum(rec, ResidualTracker::Series::PdEnergy, index, ResidualTracker::groupsFor(threads), 1.0f,
                      false);
    rec.barrier();
}

const ComputeKernel& PdSolver::residualKernel() {
    if (!residual_) residual_ = std::make_unique<ComputeKernel>(ctx_, "pd/residual.comp", sizeof(gpu::ResidualPush));
    return *residual_;
}

// The model's positions relative to the origin, as predict's p and so every
// iterate q are (the first Chebyshev step may read its q^{k-1}).
std::vector<glm::vec4> PdSolver::relativePositions(const SharedModel& model) const {
    std::vector<glm::vec4> relative = model.positions;
    for (glm::vec4& x : relative) x -= glm::vec4(origin(), 0.0f);
    return relative;
}

void PdSolver::reset(const SharedModel& model) {
    if (empty()) return;
    const uint32_t n = model.particleCount();
    for (GpuBuffer& q : ownQ_) q.uploadArray<glm::vec4>(relativePositions(model));
    collisionTargets_.uploadArray<glm::vec4>(std::vector<glm::vec4>(n, glm::vec4(0.0f)));
}

void PdSolver::addStateBuffers(std::vector<GpuBuffer*>& out) {
    if (empty()) return;
    for (GpuBuffer& q : ownQ_) out.push_back(&q);
    out.push_back(&collisionTargets_);
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
