#include "solvers/stepper.h"

#include <algorithm>
#include <span>
#include <stdexcept>

#include <fmt/format.h>
#include <glm/glm.hpp>

#include "solvers/solver_list.h"
#include "vk/barriers.h"

namespace vksim {

namespace {

// PBD projects the contacts between its particles in its iterations;
// every other pair is projected after the solves.
std::unique_ptr<ContactStage> buildContactStage(const VulkanContext& ctx, const SimModel& model,
                                                const ParticleStore& particles) {
    for (const ObjectRange& object : model.objects)
        if (object.contacts.enabled) {
            const ParticleRange pbd{model.pbd.firstParticle, model.pbd.particleCount};
            auto stage = std::make_unique<ContactStage>(ctx, model, pbd, &particles.adjacencyRows());
            return stage->empty() ? nullptr : std::move(stage);
        }
    return nullptr;
}

}  // namespace

Stepper::Stepper(const VulkanContext& ctx, const SimModel& model, const SolverSettings& settings)
    : particles_(ctx, model),
      colliders_(ctx, model, model.rigid.shapes, model.rigid.copyCount),
      stages_(ctx, particles_, colliders_),
      contacts_(buildContactStage(ctx, model, particles_)),
      wind_(someObjectFeelsWind(model) ? std::make_unique<WindStage>(ctx, model, particles_) : nullptr),
      keyframes_(model.keyframeTracks.empty() ? nullptr : std::make_unique<KeyframeStage>(ctx, model, colliders_)),
      tethers_(model.solvedTethers.empty() ? nullptr : std::make_unique<TetherStage>(ctx, model)),
      attachments_(model.frameAttachments.empty()
                       ? nullptr
                       : std::make_unique<FrameAttachmentStage>(ctx, model, particles_, colliders_)),
      solvers_(makeParticleSolvers(ctx, model, particles_, colliders_, settings,
                                   contacts_ ? &contacts_->model() : nullptr)),
      rigid_(std::make_unique<RigidSolver>(ctx, model.rigid, colliders_)) {
    // The bodies are colliders of the particles, after the scene's (ColliderSet).
    if (!rigid_->empty() && colliders_.count() > colliders_.sceneCount())
        coupling_ = std::make_unique<BodyCoupling>(ctx, model, *rigid_, particles_, colliders_);
    if (keyframes_) keyframes_->declarePasses(plan_);
    rigid_->declarePasses(plan_);
    if (coupling_) coupling_->declarePasses(plan_);
    if (contacts_) contacts_->declarePasses(plan_, someContactsAfterSolve(settings));
    if (wind_) wind_->declarePasses(plan_);
    for (const std::unique_ptr<Solver>& owned : solvers_) {
        Solver* solver = owned.get();
        if (solver->range().count == 0) continue;
        Active& active = active_.emplace_back(Active{solver, {}, contactsIn(solver->range())});
        ParticleStages::declareBeforeSolve(plan_, solver->passPrefix(), solver->owner(), active.passes);
        solver->declarePasses(plan_);
        if (active.contacts && !solver->projectsContactsInSolve(settings))
            active.passes.solvedIntoPredicted =
                plan_.declare(std::string(solver->passPrefix()) + "solved into p", StageKind::Solve,
                              std::string(solver->owner()));
        if (tethers_) active.tethers = tethers_->sliceOf(solver->range());
        if (active.tethers.count > 0)
            active.passes.tethers = TetherStage::declare(plan_, solver->passPrefix(), solver->owner());
        if (attachments_) active.attachments.slice = attachments_->sliceOf(solver->range());
        if (active.attachments.slice.count > 0) {
            active.attachments.stage = attachments_.get();
            active.attachments.pass = FrameAttachmentStage::declare(plan_, solver->passPrefix(), solver->owner());
        }
        ParticleStages::declareAfterSolve(plan_, solver->passPrefix(), solver->owner(), active.passes);
    }
    normalsPass_ = ParticleStages::declareNormals(plan_);
}

Stepper::~Stepper() = default;

gpu::ParticlePush Stepper::particlePush(const SolverSettings& settings, float h, const Solver& solver,
                                        uint32_t colliderCount) const {
    const ParticleRange range = solver.range();
    gpu::ParticlePush push{};
    // w, the kGravity* flags: predict adds the wind passes' accelerations
    // (step/wind_stage.h); the stages read each particle's own gravity (a
    // batch's copies that vary it), which the settings' then do not move.
    const uint32_t flags = (airActs(settings) ? gpu::kGravityWind : 0u) |
                           (particles_.perParticleGravity() ? gpu::kGravityPerParticle : 0u);
    push.gravity = glm::vec4(settings.gravity, float(flags));
    push.dt = h;
    push.damping = settings.damping;
    push.collisionMargin = settings.collisionMargin;
    // Bounces slower than what gravity adds in two substeps are resting
    // contacts: no restitution, or they would jitter.
    push.restitutionThreshold = 2.0f * glm::length(settings.gravity) * h;
    push.particleCount = range.count;
    push.colliderCount = colliderCount;
    push.stencilStep = settings.stencilStep;
    push.firstParticle = range.first;
    push.integrator = solver.integrator(settings);
    const glm::vec3 origin = solver.origin();
    push.originX = origin.x;
    push.originY = origin.y;
    push.originZ = origin.z;
    push.colliderFrictionInSolve = solver.holdsColliderFriction() ? 1u : 0u;
    return push;
}

void Stepper::recordFrame(StepRecorder& rec, const FrameInputs& frame) {
    if (!rec.counting()) {
        // The previous frame's draw read positions/normals as vertices, and
        // its compute passes wrote the state this frame reads.
        vertexInputToComputeBarrier(rec.cmd());
        computeToComputeBarrier(rec.cmd());
        if (colliders_.updatePending()) {
            rec.recordedOneTimeWork();
            colliders_.recordPendingUpdate(rec.cmd());
        }
    }
    for (const Active& active : active_) active.solver->beginFrame(rec, frame);
    if (contacts_) contacts_->recordFrameStart(rec);
    const SolverSettings& settings = frame.settings;
    const float h = settings.timeStep / static_cast<float>(settings.substeps);
    if (coupling_ || keyframes_) {
        // Substep by substep: the kinematic colliders at the pose they end
        // it with (docs/physics.md §17), the bodies', their shapes into the
        // colliders at the pose they end it with, the particles' against
        // them, and what the particles gave the bodies back to them
        // (docs/physics.md §11, "Two-way coupling"). No solver records whole
        // frames here (the PBD workgroup path takes neither bodies nor
        // kinematic colliders).
        for (uint32_t s = 0; s < settings.substeps; ++s) {
            if (keyframes_) keyframes_->recordSubstep(rec, h, s);
            rigid_->recordSubsteps(rec, settings, frame.bodyDrag, {s, 1});
            if (coupling_) rigid_->recordColliders(rec);
            recordSubstep(rec, frame, s, h);
            if (coupling_) coupling_->recordSubstepEnd(rec, h, s);
        }
    } else {
        // Bodies alone, or particles alone: no order between them.
        rigid_->recordFrame(rec, settings, frame.bodyDrag);
        for (uint32_t s = 0; s < settings.substeps; ++s) recordSubstep(rec, frame, s, h);
    }
    for (const Active& active : active_)
        if (active.solver->recordsWholeFrames(settings))
            active.solver->recordFrame(rec, frame, particlePush(settings, h, *active.solver, colliders_.count()));
    for (const Active& active : active_) active.solver->recordFrameEnd(rec, frame);
    if (wind_) wind_->recordFrameEnd(rec, settings);
    if (frame.normals) stages_.normals(rec, normalsPass_);
}

// One substep of every solver that records substeps: the shared stages
// around each one's solve, in phases, so that the contacts between objects
// see every solver's particles: every prediction, one detection, every
// solve (PBD projects the pairs of its particles in its iterations), the
// other pairs on the solved positions, then every collider projection and
// velocity update. The solvers' ranges are disjoint and the colliders do not
// move within a substep, so the order of solvers within a phase changes no
// result.
void Stepper::recordSubstep(StepRecorder& rec, const FrameInputs& frame, uint32_t substep, float h) {
    const SolverSettings& settings = frame.settings;
    const bool colliders = colliders_.count() > 0;
    std::vector<SubstepContext> subs;
    std::vector<const Active*> stepped;
    for (const Active& active : active_) {
        if (active.solver->recordsWholeFrames(settings)) continue;
        stepped.push_back(&active);
        subs.push_back(SubstepContext{frame,
                                      substep,
                                      h,
                                      frame.tracker != nullptr && substep + 1 == settings.substeps,
                                      particlePush(settings, h, *active.solver, colliders_.count()),
                                      stages_,
                                      active.passes,
                                      active.contacts,
                                      coupling_.get(),
                                      active.attachments});
    }
    // The wind at the substep's start, before every prediction and force
    // pass reads it: an explicit external force for every solver alike.
    if (airActs(settings) && !stepped.empty()) wind_->recordSubstep(rec, settings, substep);
    for (size_t i = 0; i < stepped.size(); ++i) {
        Solver& solver = *stepped[i]->solver;
        const SubstepContext& sub = subs[i];
        const GpuBuffer& predicted = solver.predictTarget();
        solver.recordBeforePredict(rec, sub);
        stages_.predict(rec, sub.stagePasses.predict, sub.particles, predicted, solver.workingName(), substep);
        if (colliders) stages_.collideGenerate(rec, sub.stagePasses.collideGenerate, sub.particles, predicted);
    }
    const bool contacts = contacts_ && !stepped.empty();
    if (contacts) contacts_->recordDetect(rec, particles_.predicted(), settings.contactSolve);
    std::vector<const GpuBuffer*> solved(stepped.size());
    for (size_t i = 0; i < stepped.size(); ++i) {
        Solver& solver = *stepped[i]->solver;
        const SubstepContext& sub = subs[i];
        solved[i] = &solver.recordSolve(rec, sub);
        // The contacts after the solves read every solver's solved positions
        // in the store's p.
        if (sub.contacts && !solver.projectsContactsInSolve(settings) && solved[i] != &particles_.predicted()) {
            stages_.copyRange(rec, sub.stagePasses.solvedIntoPredicted, sub.particles, *solved[i],
                              particles_.predicted(), ParticleStore::kPredictedName, substep);
            solved[i] = &particles_.predicted();
        }
    }
    bool afterSolve = contacts && contacts_->model().afterSolve;
    for (size_t i = 0; i < stepped.size(); ++i)
        afterSolve = afterSolve || (subs[i].contacts && !stepped[i]->solver->projectsContactsInSolve(settings));
    if (afterSolve)
        contacts_->recordProjectAfterSolve(rec, settings.contactSolve, settings.contactIterations,
                                           particles_.positions(), particles_.predicted(), substep,
                                           ParticleStore::kPredictedName);
    for (size_t i = 0; i < stepped.size(); ++i) {
        Solver& solver = *stepped[i]->solver;
        const SubstepContext& sub = subs[i];
        const ParticleStagePasses& passes = sub.stagePasses;
        if (stepped[i]->tethers.count > 0)
            tethers_->record(rec, passes.tethers, sub.particles, stepped[i]->tethers, *solved[i],
                             particles_.velocities(), solver.workingName(), substep);
        if (colliders && !solver.projectsCollisionsInSolve())
            stages_.collideProject(rec, passes.collideProject, sub.particles, *solved[i], solver.workingName(),
                                   {substep});
        // The attachments to bodies and colliders last, so that the attached
        // particles end the substep on their points (PBD projects them in its
        // iterations; docs/physics.md §1, "Attachments to bodies and colliders").
        if (sub.attachments.any() && !solver.projectsCollisionsInSolve())
            attachments_->record(rec, sub.attachments.pass, sub.particles, sub.attachments.slice, *solved[i],
                                 solver.workingName(), {substep});
        stages_.updateVelocity(rec, passes.updateVelocity, sub.particles, *solved[i], substep);
        if (colliders) stages_.contactVelocity(rec, passes.contactVelocity, sub.particles, substep);
    }
}

uint32_t Stepper::maxRunsPerFrame(const SolverSettings& settings, ResidualTracker* tracker,
                                  const std::function<void(StepRecorder&)>& frameEnd) {
    uint32_t most = 0;
    auto count = [&](std::optional<MouseAttachment> mouse) {
        StepRecorder counter(plan_);
        recordFrame(counter, FrameInputs{settings, tracker, mouse});
        if (frameEnd) frameEnd(counter);
        most = std::max(most, counter.runs());
    };
    count(std::nullopt);
    for (const Active& active : active_) count(MouseAttachment{active.solver->range().first, glm::vec3(0.0f)});
    return most;
}

FrameWork Stepper::frameWork(const SolverSettings& settings) {
    StepRecorder counter(plan_);
    recordFrame(counter, FrameInputs{settings, nullptr, std::nullopt});
    return counter.work();
}

uint32_t Stepper::residualThreads() const {
    uint32_t most = 0;
    for (const std::unique_ptr<Solver>& solver : solvers_) most = std::max(most, solver->residualThreads());
    return most;
}

// Whether some pair may be projected after the solves, with `settings` or
// a live variant of them: one outside the in-iterations range, or one of a
// solver whose iterations do not project its contacts on some path (PBD's
// workgroup path).
bool Stepper::someContactsAfterSolve(const SolverSettings& settings) const {
    if (contacts_->model().afterSolve) return true;
    for (const std::unique_ptr<Solver>& solver : solvers_) {
        if (solver->range().count == 0 || !contactsIn(solver->range())) continue;
        if (!solver->projectsContactsInSolve(settings)) return true;
        for (const SolverSettings& variant : solver->liveVariants(settings))
            if (!solver->projectsContactsInSolve(variant)) return true;
    }
    return false;
}

const ContactStage* Stepper::contactsIn(ParticleRange range) const {
    if (!contacts_) return nullptr;
    for (const gpu::ContactParticle& particle : contacts_->model().particles)
        if (range.contains(particle.particle)) return contacts_.get();
    return nullptr;
}

void Stepper::reset(const SimModel& model) {
    particles_.reset(model);
    if (contacts_) contacts_->reset();
    if (wind_) wind_->reset();
    if (keyframes_) keyframes_->reset();
    rigid_->reset(model.rigid);
    for (const Active& active : active_) active.solver->reset(model);
}

std::vector<GpuBuffer*> Stepper::stateBuffers() {
    std::vector<GpuBuffer*> buffers = particles_.stateBuffers();
    if (contacts_) contacts_->addStateBuffers(buffers);
    if (wind_) wind_->addStateBuffers(buffers);
    if (keyframes_) keyframes_->addStateBuffers(buffers);
    rigid_->addStateBuffers(buffers);
    for (const Active& active : active_) active.solver->addStateBuffers(buffers);
    return buffers;
}

std::vector<StateSection> Stepper::saveSections() {
    std::vector<StateSection> sections;
    for (const GpuBuffer* buffer : stateBuffers()) {
        const std::vector<std::byte> bytes = buffer->download();
        sections.push_back({buffer->name(), std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size())});
    }
    return sections;
}

uint64_t Stepper::stateBytes() {
    uint64_t bytes = 0;
    for (const GpuBuffer* buffer : stateBuffers()) bytes += buffer->size();
    return bytes;
}

void Stepper::loadSections(const std::vector<StateSection>& sections, std::string_view source) {
    const std::vector<GpuBuffer*> buffers = stateBuffers();
    // Every section checked before the first is written: a refused state changes nothing.
    for (size_t k = 0; k < std::max(buffers.size(), sections.size()); ++k) {
        if (k >= sections.size())
            throw std::invalid_argument(fmt::format("{}: the state ends after {} sections; this world has {} (the next "
                                                    "is \"{}\")",
                                                    source, sections.size(), buffers.size(), buffers[k]->name()));
        if (k >= buffers.size())
            throw std::invalid_argument(fmt::format("{}: the state has {} sections; this world has {} (the first "
                                                    "extra is \"{}\")",
                                                    source, sections.size(), buffers.size(), sections[k].name));
        if (sections[k].name != buffers[k]->name() || sections[k].bytes.size() != buffers[k]->size())
            throw std::invalid_argument(fmt::format(
                "{}: state section {} is \"{}\" of {} bytes; this world's is \"{}\" of {} bytes", source, k,
                sections[k].name, sections[k].bytes.size(), buffers[k]->name(), buffers[k]->size()));
    }
    for (size_t k = 0; k < buffers.size(); ++k)
        buffers[k]->upload(std::as_bytes(std::span(sections[k].bytes.data(), sections[k].bytes.size())));
    for (const Active& active : active_) active.solver->stateLoaded();
}

void Stepper::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    for (const std::unique_ptr<Solver>& solver : solvers_) solver->checkSettings(settings, scenePath);
}

std::vector<std::string> Stepper::fewerPassesKeys() const {
    std::vector<std::string> keys;
    for (const Active& active : active_) keys.push_back(active.solver->fewerPassesKeys());
    if (!rigid_->empty()) keys.push_back(rigid_->fewerPassesKeys());
    if (contacts_) keys.push_back("\"contactSolve\": \"jacobi\" (/solver/contactSolve)");
    return keys;
}

std::vector<SolverSettings> Stepper::liveVariants(const SolverSettings& settings) const {
    std::vector<SolverSettings> variants;
    for (const std::unique_ptr<Solver>& solver : solvers_)
        for (SolverSettings& variant : solver->liveVariants(settings)) variants.push_back(std::move(variant));
    // The contacts by colours record more passes than the Jacobi average.
    if (contacts_ && settings.contactSolve != ContactSolve::Colours) {
        variants.push_back(settings);
        variants.back().contactSolve = ContactSolve::Colours;
    }
    return variants;
}

}  // namespace vksim
