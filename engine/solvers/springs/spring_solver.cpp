#include "solvers/springs/spring_solver.h"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "contacts/contact_stage.h"
#include "linear/block_sparse.h"
#include "solvers/springs/spring_settings.h"
#include "shaders/shared/interaction_types.h"
#include "shaders/springs/spring_types.h"
#include "solvers/solver_origin.h"
#include "solvers/springs/spring_newton_matrix.h"
#include "step/residual_tracker.h"
#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {
namespace {

// Each batch copy's rows of the range [first, first + count) (a scene's
// world: one copy, every row), from the particles' copies (particleCopies),
// numbered densely in row order. A copy's objects are consecutive in the
// range; a copy whose rows were not would be refused, as its line search
// groups would not be its world's.
std::vector<ParticleRange> copyRowRanges(const SharedModel& shared, ParticleRange range) {
    const std::vector<glm::uvec2> copies = particleCopies(shared);
    std::vector<ParticleRange> rows;
    std::vector<uint32_t> seen;
    for (uint32_t r = 0; r < range.count; ++r) {
        const uint32_t copy = copies.at(range.first + r).x;
        if (!rows.empty() && seen.back() == copy) {
            ++rows.back().count;
            continue;
        }
        if (std::ranges::find(seen, copy) != seen.end())
            throw std::logic_error(fmt::format("SpringSolver: the rows of batch copy {} are not consecutive", copy));
        seen.push_back(copy);
        rows.push_back({r, 1});
    }
    return rows;
}

}  // namespace

struct SpringSolver::PassIds {
    uint32_t forces = 0, forcesStage = 0;
    uint32_t newtonContactTotals = 0, newtonAssemble = 0, jacobi = 0, lineSearch = 0, lineSearchChoose = 0;
    uint32_t newtonUpdate = 0;
    uint32_t vbdInit = 0, vbdSnapshot = 0, energy = 0, objectEnergy = 0, mouse = 0;
    std::vector<uint32_t> vbdColours;
};

SpringSolver::SpringSolver(const VulkanContext& ctx, const SpringModelView& model, const ParticleStore& particles,
                           const ContactModel* contacts)
    : ctx_(ctx),
      particles_(particles),
      ms_(model.springs),
      restPositions_(model.shared.positions),
      origin_(solverOrigin(model.shared, {model.springs.firstParticle, model.springs.particleCount})) {
    if (ms_.empty()) return;
    particleRecords_ = makeStorageBuffer<gpu::MsParticle>(ctx, ms_.particles, "springs particles");
    springs_ = makeStorageBuffer<gpu::MsSpring>(ctx, ms_.springs, "springs");
    incidentSprings_ = makeStorageBuffer<gpu::MsIncidentSpring>(ctx, ms_.incidentSprings, "springs incidence");
    hinges_ = makeStorageBuffer<gpu::MsHinge>(ctx, ms_.hinges, "springs hinges");
    incidentHinges_ = makeStorageBuffer<uint32_t>(ctx, ms_.incidentHinges, "springs hinge incidence");
    quadratic_ = makeStorageBuffer<gpu::MsQuadraticEntry>(ctx, ms_.quadratic, "springs quadratic bending");
    vertexOrder_ = makeStorageBuffer<uint32_t>(ctx, ms_.vertexOrder, "springs vertex colours");
    std::vector<gpu::MsObjectRange> objectRanges;
    for (const SpringObject& object : ms_.objects) objectRanges.push_back({object.firstParticle, object.particleCount});
    objectRanges_ = makeStorageBuffer<gpu::MsObjectRange>(ctx, objectRanges, "springs objects");
    iterate_ = makeStorageBuffer<glm::vec4>(ctx, model.shared.positions, "springs iterate");
    newtonSystem_ = std::make_unique<linear::BlockJacobi>(ctx, ms_.blockRowStart, ms_.blockColumns, "springs newton");
    copyRows_ = copyRowRanges(model.shared, range());
    std::vector<uint32_t> rowCopies(ms_.particleCount);
    for (uint32_t c = 0; c < copyRows_.size(); ++c)
        std::fill_n(rowCopies.begin() + copyRows_[c].first, copyRows_[c].count, c);
    rowCopies_ = makeStorageBuffer<uint32_t>(ctx, rowCopies, "springs row copies");
    jacobiWeights_ = CopyJacobiWeights(ctx, static_cast<uint32_t>(copyRows_.size()), "springs jacobi weights");
    buildLineSearchGroups(ctx);
    auto kernel = [&](const char* shader, uint32_t pushSize) {
        return std::make_unique<ComputeKernel>(ctx, shader, pushSize);
    };
    forces_ = kernel("springs/forces.comp", sizeof(gpu::MsForcePush));
    newtonAssemble_ = kernel("springs/newton_assemble.comp", sizeof(gpu::MsImplicitPush));
    newtonJacobi_ = kernel("springs/newton_jacobi.comp", sizeof(gpu::BlockJacobiPush));
    newtonUpdate_ = kernel("springs/newton_update.comp", sizeof(gpu::MsImplicitPush));
    vbd_ = kernel("springs/vbd.comp", sizeof(gpu::MsImplicitPush));
    // Contacts enter the implicit methods' objective (springs/contact_energy.glsl):
    // their kernels with them, and the iterate's snapshot VBD reads them from.
    if (hasContacts(model.shared, {ms_.firstParticle, ms_.particleCount})) {
        contactKernels_ = ContactKernels{kernel("springs/vbd_contacts.comp", sizeof(gpu::MsImplicitPush)),
                                         kernel("springs/newton_contact_totals.comp", sizeof(gpu::MsImplicitPush)),
                                         kernel("springs/newton_assemble_contacts.comp", sizeof(gpu::MsImplicitPush)),
                                         kernel("springs/line_search_contacts.comp", sizeof(gpu::MsImplicitPush)),
                                         kernel("springs/energy_contacts.comp", sizeof(gpu::MsImplicitPush)),
                                         kernel("springs/newton_jacobi_contacts.comp", sizeof(gpu::BlockJacobiPush))};
        rowContacts_ = makeStorageBuffer<glm::uvec2>(ctx, std::vector<glm::uvec2>(ms_.particleCount),
                                                     "springs newton contact rows");
        if (!contacts) throw std::logic_error("SpringSolver: mass-spring contacts without the stepper's contact model");
        const uint32_t capacity = contacts->capacity;
        contactCouplings_ = makeStorageBuffer<gpu::MsContactCoupling>(
            ctx, std::vector<gpu::MsContactCoupling>(capacity), "springs newton contact couplings");
        contactNormalTotals_ = makeStorageBuffer<float>(ctx, std::vector<float>(ms_.particleCount, 0.0f),
                                                        "springs newton contact normal totals");
        snapshot_ = makeStorageBuffer<glm::vec4>(ctx, model.shared.positions, "springs contact snapshot");
        std::vector<uint32_t> orderOf(ms_.particleCount);
        for (uint32_t at = 0; at < ms_.vertexOrder.size(); ++at) orderOf[ms_.vertexOrder[at] - ms_.firstParticle] = at;
        orderOf_ = makeStorageBuffer<uint32_t>(ctx, orderOf, "springs vertex order of each particle");
    }
    energy_ = kernel("springs/energy.comp", sizeof(gpu::MsImplicitPush));
    lineSearch_ = kernel("springs/line_search.comp", sizeof(gpu::MsImplicitPush));
    lineSearchChoose_ = kernel("springs/line_search_choose.comp", sizeof(gpu::MsLineSearchChoosePush));
    objectEnergy_ = kernel("springs/object_energy.comp", sizeof(gpu::MsObjectEnergyPush));
    projectMouse_ = kernel("pbd/project_mouse.comp", sizeof(gpu::MousePush));
}

SpringSolver::~SpringSolver() = default;

void SpringSolver::buildLineSearchGroups(const VulkanContext& ctx) {
    std::vector<gpu::MsLineSearchGroup> groups;
    std::vector<gpu::MsLineSearchCopy> copies;
    uint32_t partials = 0;
    for (const ParticleRange& rows : copyRows_) {
        const uint32_t count = (rows.count + gpu::kWorkgroupSize - 1) / gpu::kWorkgroupSize;
        copies.push_back({partials, count, 0u, 0u});
        for (uint32_t g = 0; g < count; ++g)
            groups.push_back({rows.first + g * gpu::kWorkgroupSize, rows.end(), partials + g, count});
        partials += gpu::kLineSearchValues * count;
    }
    lineSearchGroupCount_ = static_cast<uint32_t>(groups.size());
    lineSearchGroups_ = makeStorageBuffer<gpu::MsLineSearchGroup>(ctx, groups, "springs line search groups");
    lineSearchCopies_ = makeStorageBuffer<gpu::MsLineSearchCopy>(ctx, copies, "springs line search copies");
    lineSearchPartials_ =
        makeStorageBuffer<float>(ctx, std::vector<float>(partials, 0.0f), "springs line search partials");
    lineSearchChoice_ =
        makeStorageBuffer<float>(ctx, std::vector<float>(4 * copies.size(), 0.0f), "springs line search choice");
}

void SpringSolver::declarePasses(StepPlan& plan) {
    passIds_ = std::make_unique<PassIds>();
    PassIds& ids = *passIds_;
    ids.forces = plan.declare("springs: forces", StageKind::Solve, "springs");
    ids.forcesStage = plan.declare("springs: forces (second stage)", StageKind::Solve, "springs");
    if (contactKernels_)
        ids.newtonContactTotals = plan.declare("springs: newton contact totals", StageKind::Solve, "springs");
    ids.newtonAssemble = plan.declare("springs: newton assemble", StageKind::Solve, "springs");
    ids.jacobi = plan.declare("springs: jacobi/chebyshev", StageKind::Solve, "springs");
    ids.lineSearch = plan.declare("springs: line search", StageKind::Solve, "springs");
    ids.lineSearchChoose = plan.declare("springs: line search choose", StageKind::Solve, "springs");
    ids.newtonUpdate = plan.declare("springs: newton update", StageKind::Solve, "springs");
    ids.vbdInit = plan.declare("springs: vbd init", StageKind::Solve, "springs");
    if (contactKernels_) ids.vbdSnapshot = plan.declare("springs: vbd contact snapshot", StageKind::Solve, "springs");
    ids.energy = plan.declare("springs: energy", StageKind::Diagnostic, "springs");
    ids.objectEnergy = plan.declare("springs: object energy", StageKind::Diagnostic, "springs");
    ids.mouse = plan.declare("springs: mouse drag", StageKind::Diagnostic, "springs");
    for (size_t c = 0; c < ms_.vertexColours.size(); ++c)
        ids.vbdColours.push_back(plan.declare(fmt::format("springs: vbd colour {}", c), StageKind::Solve, "springs"));
}

bool SpringSolver::usesDihedralBending() const {
    for (const gpu::MsHinge& hinge : ms_.hinges)
        if (hinge.stiffness != 0.0f) return true;
    return false;
}

void SpringSolver::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    if (empty()) return;
    try {
        checkSettings(settings);
    } catch (const std::invalid_argument& e) {
        throw std::invalid_argument(fmt::format("{}: /solver/springs: {}", scenePath, e.what()));
    }
}

void SpringSolver::checkSettings(const SolverSettings& settings) const {
    const SpringSettings& s = settings.springs;
    if (s.integrator == SpringIntegrator::ImplicitEuler && (s.newtonIterations == 0 || s.jacobiIterations == 0))
        throw std::invalid_argument("springs: implicit Euler needs at least one Newton and one Jacobi iteration");
    if (s.integrator == SpringIntegrator::Vbd && s.vbdIterations == 0)
        throw std::invalid_argument("springs: vertex block descent needs at least one iteration");
    if (minimisesEnergy(s.integrator) && usesDihedralBending())
        throw std::invalid_argument(std::string("springs: ") + kDihedralHasNoEnergy);
    for (const SpringObject& object : ms_.objects)
        if (object.params.integrator && (minimisesEnergy(s.integrator) || minimisesEnergy(*object.params.integrator)))
            throw std::invalid_argument(std::string("springs: ") + kObjectIntegratorNeedsExplicitSolver);
}

std::vector<SpringIntegrator> SpringSolver::objectIntegrators(const SolverSettings& settings) const {
    std::vector<SpringIntegrator> integrators;
    for (const SpringObject& object : ms_.objects)
        integrators.push_back(objectIntegrator(settings.springs, object.params));
    if (ms_.objects.empty()) integrators.push_back(settings.springs.integrator);
    return integrators;
}

ParticleRange SpringSolver::objectRange(size_t k) const {
    if (ms_.objects.empty()) return range();
    return {ms_.objects[k].firstParticle, ms_.objects[k].particleCount};
}

namespace {

// The one integrator every object uses, or none when they differ.
std::optional<SpringIntegrator> commonIntegrator(const std::vector<SpringIntegrator>& integrators) {
    if (integrators.empty()) return std::nullopt;
    for (SpringIntegrator integrator : integrators)
        if (integrator != integrators.front()) return std::nullopt;
    return integrators.front();
}

bool hasSecondForceStage(SpringIntegrator integrator) {
    return integrator == SpringIntegrator::VelocityVerlet || integrator == SpringIntegrator::Midpoint;
}

// A pass's own buffers, then, for its contacts variant, the contact
// buffers (springs/contact_energy.glsl's bindings) and `after` them.
std::vector<const GpuBuffer*> withContacts(std::initializer_list<const GpuBuffer*> own, const ContactStage* contacts,
                                           std::initializer_list<const GpuBuffer*> after = {}) {
    std::vector<const GpuBuffer*> buffers(own);
    if (!contacts) return buffers;
    const ContactDetection& d = contacts->detection();
    buffers.insert(buffers.end(),
                   {&contacts->particles(), &d.counts(), &d.offsets(), &d.neighbours(), &contacts->contactOf()});
    buffers.insert(buffers.end(), after);
    return buffers;
}

}  // namespace

// One integrator for the whole range keeps its own pipeline (the constant
// folds the other rules away); objects on different ones share the
// per-particle pipeline.
uint32_t SpringSolver::integrator(const SolverSettings& settings) const {
    const std::vector<SpringIntegrator> integrators = objectIntegrators(settings);
    const std::optional<SpringIntegrator> common = commonIntegrator(integrators);
    return common ? stageIntegrator(*common) : gpu::kIntegratorPerParticle;
}

std::vector<SpringSolver::JacobiParameters> SpringSolver::copyJacobiParameters(float h) {
    auto found = spectra_.find(h);
    if (found == spectra_.end()) found = spectra_.emplace(h, springCopySpectra(ms_, restPositions_, h, copyRows_)).first;
    std::vector<JacobiParameters> copies;
    for (const linear::JacobiSpectrum& spectrum : found->second) {
        JacobiParameters p;
        p.spectrum = spectrum;
        p.gamma = linear::optimalRelaxation(p.spectrum);
        p.rho = linear::relaxedJacobiSpectralRadius(p.spectrum, p.gamma);
        copies.push_back(p);
    }
    return copies;
}

void SpringSolver::beginFrame(StepRecorder& rec, const FrameInputs& frame) {
    if (ms_.empty() || rec.counting()) return;
    const SolverSettings& settings = frame.settings;
    checkSettings(settings);
    const SpringSettings& s = settings.springs;
    if (s.integrator == SpringIntegrator::ImplicitEuler) {
        const float h = settings.timeStep / static_cast<float>(settings.substeps);
        std::vector<CopyRelaxation> relaxations;
        for (const JacobiParameters& p : copyJacobiParameters(h)) relaxations.push_back({p.gamma, p.rho});
        jacobiWeights_.record(rec, relaxations, s.jacobiIterations, s.chebyshev);
    }
    recordIntegratorChanges(rec, objectIntegrators(settings));
}

void SpringSolver::stateLoaded() {
    if (empty()) return;
    // Which objects' stages hold Position Verlet's x^{n-1} (the saving
    // world's integrators, kept current in the particle store's): the
    // next frame keeps those stages where the object still steps by it.
    const std::vector<uint32_t> saved = particles_.integrators().downloadArray<uint32_t>();
    lastIntegrators_.assign(objectIntegrators(SolverSettings{}).size(), std::nullopt);
    for (size_t k = 0; k < lastIntegrators_.size(); ++k)
        if (saved.at(objectRange(k).first) == gpu::kIntegratorPositionVerlet)
            lastIntegrators_[k] = SpringIntegrator::PositionVerlet;
}

void SpringSolver::recordIntegratorChanges(StepRecorder& rec, const std::vector<SpringIntegrator>& integrators) {
    auto changed = [&](size_t k) { return lastIntegrators_.empty() || lastIntegrators_[k] != integrators[k]; };
    bool any = false;
    for (size_t k = 0; k < integrators.size(); ++k) any = any || changed(k);
    if (!any) return;
    rec.recordedOneTimeWork();
    memoryBarrier(rec.cmd(), VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT);
    for (size_t k = 0; k < integrators.size(); ++k) {
        const ParticleRange object = objectRange(k);
        if (!changed(k)) continue;
        const VkDeviceSize first = object.first, count = object.count;
        // What kIntegratorPerParticle reads (unread while the objects agree,
        // but kept current so that they may come to differ at any frame).
        vkCmdFillBuffer(rec.cmd(), particles_.integrators().handle(), first * sizeof(uint32_t),
                        count * sizeof(uint32_t), stageIntegrator(integrators[k]));
        // Position Verlet keeps x^{n-1} in the integrator stage (w = 1 once
        // set). Switching to it, whatever an earlier run of it left there is
        // stale: clear the object's particles, so that it starts again from
        // x - h v. (The other integrators write the stage before they read it.)
        if (integrators[k] == SpringIntegrator::PositionVerlet)
            vkCmdFillBuffer(rec.cmd(), particles_.integratorStage().handle(), first * sizeof(glm::vec4),
                            count * sizeof(glm::vec4), 0u);
    }
    memoryBarrier(rec.cmd(), VK_PIPELINE_STAGE_2_ALL_TRANSFER_BIT, VK_ACCESS_2_TRANSFER_WRITE_BIT,
                  VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT,
                  VK_ACCESS_2_SHADER_STORAGE_READ_BIT | VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT);
    lastIntegrators_.assign(integrators.begin(), integrators.end());
}

gpu::MsImplicitPush SpringSolver::implicitPush(const SubstepContext& sub) const {
    gpu::MsImplicitPush push{};
    push.firstParticle = ms_.firstParticle;
    push.particleCount = ms_.particleCount;
    push.dt = sub.h;
    push.step = 1.0f;
    push.originX = origin_.x;
    push.originY = origin_.y;
    push.originZ = origin_.z;
    if (const ContactStage* contacts = energyContacts(sub)) push.contactCapacity = contacts->model().capacity;
    return push;
}

gpu::MsForcePush SpringSolver::forcePush(const SubstepContext& sub, uint32_t evaluateAt) const {
    gpu::MsForcePush push{};
    push.gravity = sub.particles.gravity;  // w: the kGravity* flags, as for predict
    push.firstParticle = ms_.firstParticle;
    push.particleCount = ms_.particleCount;
    push.evaluateAt = evaluateAt;
    push.dt = sub.h;
    return push;
}

void SpringSolver::recordForces(StepRecorder& rec, uint32_t pass, const SubstepContext& sub, uint32_t evaluateAt) {
    rec.run(pass, *forces_,
            {&particles_.positions(), &particles_.predicted(), &particles_.velocities(), &particles_.integratorStage(),
             &particles_.accelerations(), &particles_.integrators(), &particleRecords_, &springs_, &incidentSprings_,
             &quadratic_, &hinges_, &incidentHinges_, &particles_.windAccelerations(), &particles_.gravities()},
            ms_.particleCount, forcePush(sub, evaluateAt), {sub.substep},
            {&particles_.accelerations(), "springs acceleration"});
}

void SpringSolver::recordObjectEnergies(StepRecorder& rec, const SubstepContext& sub) {
    const auto objectCount =
        static_cast<uint32_t>(std::min<size_t>(ms_.objects.size(),
                                               ResidualTracker::kMaxValues));  // the first 1024 objects
    const ResidualTracker::SeriesDestination out =
        sub.frame.tracker->writeSeries(rec, ResidualTracker::Series::SpringsObjectEnergy, objectCount);
    gpu::MsObjectEnergyPush push{};
    // The per-particle gravity of a batch's copies, without the wind's flag.
    push.gravity = glm::vec4(sub.frame.settings.gravity,
                             float(uint32_t(sub.particles.gravity.w) & gpu::kGravityPerParticle));
    push.firstParticle = ms_.firstParticle;
    push.objectCount = objectCount;
    push.firstResult = out.firstIndex;
    rec.run(passIds_->objectEnergy, *objectEnergy_,
            {&particles_.positions(), &particles_.velocities(), &objectRanges_, out.results, &particleRecords_,
             &springs_, &incidentSprings_, &quadratic_, &particles_.gravities()},
            objectCount * gpu::kWorkgroupSize, push);
}

void SpringSolver::recordBeforePredict(StepRecorder& rec, const SubstepContext& sub) {
    if (sub.frame.tracker && sub.substep == 0 && !ms_.objects.empty()) recordObjectEnergies(rec, sub);
    if (minimisesEnergy(sub.frame.settings.springs.integrator)) return;
    recordForces(rec, passIds_->forces, sub, gpu::kForcesAtPositions);
}

const GpuBuffer& SpringSolver::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    if (!passIds_) throw std::logic_error("SpringSolver::declarePasses must be called before recording");
    const GpuBuffer* solved = &particles_.predicted();
    const std::vector<SpringIntegrator> integrators = objectIntegrators(sub.frame.settings);
    const std::optional<SpringIntegrator> common = commonIntegrator(integrators);
    switch (common.value_or(SpringIntegrator::ExplicitEuler)) {
        case SpringIntegrator::VelocityVerlet:
            recordForces(rec, passIds_->forcesStage, sub, gpu::kForcesAtPredicted);
            break;
        case SpringIntegrator::Midpoint:
            recordForces(rec, passIds_->forcesStage, sub, gpu::kForcesAtMidpoint);
            break;
        case SpringIntegrator::ImplicitEuler:
            solved = &recordNewton(rec, sub);
            break;
        case SpringIntegrator::Vbd:
            solved = &recordVbd(rec, sub);
            break;
        default:
            break;
    }
    // Objects on different explicit integrators: one second force pass for
    // those whose integrator has one, each particle at its own stage.
    if (!common && std::any_of(integrators.begin(), integrators.end(), hasSecondForceStage))
        recordForces(rec, passIds_->forcesStage, sub, gpu::kForcesAtEachIntegrator);
    const std::optional<MouseAttachment>& mouse = sub.frame.mouse;
    if (mouse && range().contains(mouse->particle)) {
        gpu::MousePush push{};
        push.target = glm::vec4(mouse->target - origin_, 1.0f);  // p is relative to the origin
        push.particle = mouse->particle;
        rec.run(passIds_->mouse, *projectMouse_, {&particles_.positions(), solved}, 1, push, {sub.substep},
                {solved, workingName()});
    }
    return *solved;
}

void SpringSolver::recordObjective(StepRecorder& rec, const SubstepContext& sub, const GpuBuffer& x, uint32_t index) {
    ResidualTracker& tracker = *sub.frame.tracker;
    gpu::MsImplicitPush push = implicitPush(sub);
    const uint32_t groups = ResidualTracker::groupsFor(ms_.particleCount);
    const ContactStage* contacts = energyContacts(sub);
    const std::vector<const GpuBuffer*> buffers =
        withContacts({&particles_.positions(), &particles_.predicted(), &x, &tracker.partials(), &particleRecords_,
                      &springs_, &incidentSprings_, &quadratic_},
                     contacts);
    for (const uint32_t measure : {gpu::kMeasureObjective, gpu::kMeasureGradient}) {
        push.measure = measure;
        rec.run(passIds_->energy, contacts ? *contactKernels_->energy : *energy_, buffers, ms_.particleCount, push);
        const bool gradient = measure == gpu::kMeasureGradient;
        tracker.recordSum(rec, gradient ? ResidualTracker::Series::SpringsGradient
                                        : ResidualTracker::Series::SpringsObjective,
                          index, groups, 1.0f, gradient);
        rec.barrier();
    }
}

const ContactStage* SpringSolver::energyContacts(const SubstepContext& sub) const {
    return contactKernels_ ? sub.contacts : nullptr;
}

// docs/physics.md §9.3. Newton iteration k reads x^k (y itself for k = 0,
// so no copy) and writes x^{k+1} into the iterate buffer.
const GpuBuffer& SpringSolver::recordNewton(StepRecorder& rec, const SubstepContext& sub) {
    const SpringSettings& s = sub.frame.settings.springs;
    const PassIds& ids = *passIds_;
    linear::BlockJacobi& system = *newtonSystem_;
    gpu::MsImplicitPush push = implicitPush(sub);
    const uint32_t J = s.jacobiIterations;
    const ContactStage* contacts = energyContacts(sub);
    if (sub.tracking) recordObjective(rec, sub, particles_.predicted(), 0);
    for (uint32_t k = 0; k < s.newtonIterations; ++k) {
        const GpuBuffer& current = k == 0 ? particles_.predicted() : iterate_;
        const StepPosition at{sub.substep, k};
        if (contacts)
            rec.run(ids.newtonContactTotals, *contactKernels_->newtonContactTotals,
                    withContacts({&particles_.positions(), &current, &contactNormalTotals_}, contacts),
                    ms_.particleCount, push, at);
        rec.run(ids.newtonAssemble, contacts ? *contactKernels_->newtonAssemble : *newtonAssemble_,
                withContacts({&particles_.positions(), &particles_.predicted(), &current, &system.rows(),
                              &system.blocks(), &system.rhs(), &system.iterate(0), &particleRecords_, &springs_,
                              &incidentSprings_, &quadratic_},
                             contacts, {&rowContacts_, &contactCouplings_, &contactNormalTotals_}),
                ms_.particleCount, push, at);
        for (uint32_t j = 0; j < J; ++j) {
            const std::array<const GpuBuffer*, 6> b = system.iterationBuffers(j);
            const GpuBuffer* weights = &jacobiWeights_.buffer();
            if (contacts)
                rec.run(ids.jacobi, *contactKernels_->newtonJacobi,
                        {b[0], b[1], b[2], b[3], b[4], b[5], &rowCopies_, weights, &rowContacts_, &contactCouplings_},
                        system.blockRows(), system.copyWeightsPush(j), at);
            else
                rec.run(ids.jacobi, *newtonJacobi_, {b[0], b[1], b[2], b[3], b[4], b[5], &rowCopies_, weights},
                        system.blockRows(), system.copyWeightsPush(j), at);
        }
        const GpuBuffer& dx = system.iterate(linear::BlockJacobi::resultIndex(J));
        push.lineSearch = s.lineSearch ? 1u : 0u;
        if (s.lineSearch) {
            // A workgroup per copy's group of rows, then one per copy.
            rec.run(ids.lineSearch, contacts ? *contactKernels_->lineSearch : *lineSearch_,
                    withContacts({&particles_.positions(), &particles_.predicted(), &current, &dx,
                                  &lineSearchPartials_, &lineSearchGroups_, &particleRecords_, &springs_,
                                  &incidentSprings_, &quadratic_},
                                 contacts, {&contactCouplings_}),
                    lineSearchGroupCount_ * gpu::kWorkgroupSize, push, at);
            gpu::MsLineSearchChoosePush choose{};
            choose.copyCount = static_cast<uint32_t>(copyRows_.size());
            rec.run(ids.lineSearchChoose, *lineSearchChoose_,
                    {&lineSearchPartials_, &lineSearchCopies_, &lineSearchChoice_}, choose.copyCount * gpu::kWorkgroupSize,
                    choose, at);
        }
        rec.run(ids.newtonUpdate, *newtonUpdate_, {&current, &dx, &iterate_, &lineSearchChoice_, &rowCopies_},
                ms_.particleCount, push, at, {&iterate_, "springs x"});
        if (sub.tracking) recordObjective(rec, sub, iterate_, k + 1);
    }
    return iterate_;
}

// docs/physics.md §9.6: x = y, then every colour of every iteration in
// place; with contacts, each iteration first snapshots the iterate, which
// the contact energy reads the other particle of a pair from.
const GpuBuffer& SpringSolver::recordVbd(StepRecorder& rec, const SubstepContext& sub) {
    const SpringSettings& s = sub.frame.settings.springs;
    const PassIds& ids = *passIds_;
    gpu::MsImplicitPush push = implicitPush(sub);
    sub.stages.copyRange(rec, ids.vbdInit, sub.particles, particles_.predicted(), iterate_, workingName(),
                         sub.substep);
    if (sub.tracking) recordObjective(rec, sub, iterate_, 0);
    const ContactStage* contacts = energyContacts(sub);
    for (uint32_t k = 0; k < s.vbdIterations; ++k) {
        if (contacts)
            sub.stages.copyRange(rec, ids.vbdSnapshot, sub.particles, iterate_, snapshot_, "springs contact snapshot",
                                 sub.substep);
        for (size_t c = 0; c < ms_.vertexColours.size(); ++c) {
            push.first = ms_.vertexColours[c].first;
            push.count = ms_.vertexColours[c].count;
            if (contacts) {
                const ContactDetection& d = contacts->detection();
                rec.run(ids.vbdColours[c], *contactKernels_->vbd,
                        {&particles_.positions(), &particles_.predicted(), &iterate_, &vertexOrder_, &particleRecords_,
                         &springs_, &incidentSprings_, &quadratic_, &contacts->particles(), &d.counts(), &d.offsets(),
                         &d.neighbours(), &contacts->contactOf(), &snapshot_, &orderOf_},
                        push.count, push, {sub.substep, k}, {&iterate_, "springs x"});
                continue;
            }
            rec.run(ids.vbdColours[c], *vbd_,
                    {&particles_.positions(), &particles_.predicted(), &iterate_, &vertexOrder_, &particleRecords_,
                     &springs_, &incidentSprings_, &quadratic_},
                    push.count, push, {sub.substep, k}, {&iterate_, "springs x"});
        }
        if (sub.tracking) recordObjective(rec, sub, iterate_, k + 1);
    }
    return iterate_;
}

void SpringSolver::setMaterials(const MsModel& ms) {
    if (ms.particleCount != ms_.particleCount || ms.springs.size() != ms_.springs.size() ||
        ms.hinges.size() != ms_.hinges.size() || ms.quadratic.size() != ms_.quadratic.size() ||
        ms.blockColumns != ms_.blockColumns)
        throw std::invalid_argument("SpringSolver::setMaterials: the topology changed");
    if (ms_.empty()) return;
    ms_ = ms;
    particleRecords_.uploadArray<gpu::MsParticle>(ms_.particles);
    springs_.uploadArray<gpu::MsSpring>(ms_.springs);
    if (!ms_.hinges.empty()) hinges_.uploadArray<gpu::MsHinge>(ms_.hinges);
    if (!ms_.quadratic.empty()) quadratic_.uploadArray<gpu::MsQuadraticEntry>(ms_.quadratic);
    spectra_.clear();
}

}  // namespace vksim
