#pragma once
// The solver seam. A solver steps the particles of its objects (one range of
// the world's particle store) and adds only what is its own: its topology
// buffers, its kernels and the passes of its solve. The stepper
// (solvers/stepper.h) runs the shared particle stages around each solver's
// solve, once per substep:
//
//   predict -> collide: generate -> [the solver's solve] -> collide: project
//   -> update velocity -> friction/restitution
//
// and the normals once per frame. docs/architecture.md has the checklist for
// adding a solver.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scene/scene.h"
#include "shaders/shared/sim_types.h"
#include "state/interaction.h"
#include "state/particle_store.h"
#include "step/frame_attachment_stage.h"
#include "step/particle_stages.h"
#include "step/step_recorder.h"

namespace vksim {

class ContactStage;
class ResidualTracker;
struct SharedModel;

// What one frame is recorded with.
struct FrameInputs {
    const SolverSettings& settings;
    // Residual and energy tracking of the last substep, when set and enabled.
    ResidualTracker* tracker = nullptr;
    // The dragged particle, if any; each solver acts on it only in its range.
    std::optional<MouseAttachment> mouse;
    // The dragged rigid body, if any.
    std::optional<BodyDrag> bodyDrag;
    // Whether the frame ends with the normals pass (something draws or
    // exports them).
    bool normals = true;
};

// What a solver whose iterations project the collisions records after each
// iteration's projections, over its range (`range`: its first particle,
// count, h and origin): the two-way coupling with the rigid bodies
// (solvers/rigid/body_coupling.h), which moves them by what the
// projections pushed, and the particles that touched them in the store's
// predicted positions (the solver's working positions: PBD's).
class IterationCoupling {
public:
    virtual void recordIteration(StepRecorder& rec, const gpu::ParticlePush& range, StepPosition at) const = 0;

protected:
    ~IterationCoupling() = default;
};

// What one substep of one solver is recorded with.
struct SubstepContext {
    const FrameInputs& frame;
    uint32_t substep = 0;
    float h = 0.0f;
    bool tracking = false;          // record residuals/energies (the frame's last substep)
    gpu::ParticlePush particles{};  // the solver's range, h and the collision settings
    const ParticleStages& stages;
    const ParticleStagePasses& stagePasses;
    // The contacts between objects (contacts/contact_stage.h), when any
    // object of the solver's range has them: detected once per substep after
    // every prediction; a solver that projectsContactsInSolve() projects
    // them in each iteration of its solve.
    const ContactStage* contacts = nullptr;
    // The two-way coupling with the rigid bodies, when the world has
    // bodies: a solver whose iterations project the collisions records it
    // after each iteration's projections.
    const IterationCoupling* bodies = nullptr;
    // Its attachments to bodies and colliders (step/frame_attachment_stage.h),
    // which a solver whose iterations project the collisions projects in
    // each iteration after them, before the coupling's exchange.
    FrameAttachmentPass attachments{};
};

class Solver {
public:
    virtual ~Solver() = default;

    // "pbd", "pd": the owner column of the plan.
    virtual std::string_view owner() const = 0;
    // What its pass names start with ("pbd: ", "pd: ", "springs: ").
    virtual std::string_view passPrefix() const = 0;
    virtual ParticleRange range() const = 0;
    // What its predicted positions are relative to (solvers/solver_origin.h;
    // ParticlePush::origin*): each solver takes solverOrigin() of its range
    // at construction and keeps it.
    virtual glm::vec3 origin() const = 0;
    // The threads of the longest first pass its residual or energy tracking
    // records (step/residual_tracker.h sizes its partial sums by the largest).
    virtual uint32_t residualThreads() const { return 0; }

    // Declares its own passes, in step order (between the shared stages'
    // predict/collide-generate and collide-project/velocity passes).
    virtual void declarePasses(StepPlan& plan) = 0;

    // When the world is built: throws std::invalid_argument, naming
    // `scenePath` and the JSON path, for settings it cannot step its objects
    // with (a dispatch path they do not fit, a diverging relaxation).
    virtual void checkSettings(const SolverSettings& settings, const std::string& scenePath) {
        (void)settings;
        (void)scenePath;
    }
    // The scene keys that make its frame record fewer passes (its
    // iterations, a path that runs them in one dispatch), with their JSON
    // paths: for the message that refuses a frame of too many passes.
    virtual std::string fewerPassesKeys() const = 0;
    // The settings a live edit may switch it to that record other passes
    // (its other dispatch paths, where its objects fit them): the world
    // sizes its pass timer over these too.
    virtual std::vector<SolverSettings> liveVariants(const SolverSettings& settings) const {
        (void)settings;
        return {};
    }

    // At the start of a frame, before any substep: live parameter updates,
    // per-frame constants. Throws std::invalid_argument for settings it
    // cannot step with. Does nothing while the recorder only counts.
    virtual void beginFrame(StepRecorder& rec, const FrameInputs& frame) {
        (void)rec;
        (void)frame;
    }

    // The integrator the shared predict stage advances its range with (the
    // integrator hook: kIntegrator* in shared/sim_types.h). PBD and PD
    // predict by symplectic Euler with gravity; the explicit mass-spring
    // integrators predict and update from the accelerations their force pass
    // writes (recordBeforePredict) into the particle store.
    virtual uint32_t integrator(const SolverSettings& settings) const {
        (void)settings;
        return gpu::kIntegratorSymplecticEuler;
    }

    // Runs before the shared predict stage of every substep: the force
    // pass a(x) of an explicit integrator. Nothing by default.
    virtual void recordBeforePredict(StepRecorder& rec, const SubstepContext& sub) {
        (void)rec;
        (void)sub;
    }

    // The buffer that holds its working positions p: prediction writes it
    // for the solver's range, collide-generate reads it. `workingName` is
    // how the non-finite replay calls one of its values.
    virtual const GpuBuffer& predictTarget() const = 0;
    virtual std::string_view workingName() const = 0;

    // Its own passes of one substep. Returns the buffer that holds the
    // solved positions, which the shared stages then project out of the
    // colliders (unless projectsCollisionsInSolve()) and turn into velocities.
    virtual const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) = 0;
    virtual bool projectsCollisionsInSolve() const { return false; }
    // Whether its iterations with `settings` project the contacts between
    // its particles (SubstepContext::contacts, ContactStage::recordProject).
    // The stepper projects every other contact pair after the solves, on the
    // store's p: a solver that does not returns its solved positions, and
    // the stepper copies them there.
    virtual bool projectsContactsInSolve(const SolverSettings& settings) const {
        (void)settings;
        return false;
    }
    // Whether its solve holds the friction of the scene's colliders (the VBD
    // solids' sweeps, docs/physics.md §16): then the shared stages after it
    // apply none of theirs (ParticlePush::colliderFrictionInSolve), only the
    // bodies' colliders'.
    virtual bool holdsColliderFriction() const { return false; }
    // Whether it records its whole frame itself, every substep with the
    // shared particle stages inside its own kernels (the PBD workgroup solve,
    // docs/physics.md §1, "Small objects in one workgroup"), instead of a
    // solve per substep between the stepper's stages. Then recordFrame() is called once per frame, and
    // recordSolve() never.
    virtual bool recordsWholeFrames(const SolverSettings& settings) const {
        (void)settings;
        return false;
    }
    // Its whole frame; `particles` is what the shared stages would be given
    // (its range, h and the collision settings).
    virtual void recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
        (void)rec;
        (void)frame;
        (void)particles;
    }

    // After every substep of the frame (and the whole-frame records), before
    // the normals: work that runs once per frame on its end-of-frame
    // positions, the same on every dispatch path (PBD's tearing). Nothing
    // by default.
    virtual void recordFrameEnd(StepRecorder& rec, const FrameInputs& frame) {
        (void)rec;
        (void)frame;
    }

    // Back to the model's initial state (waits for the queue): whatever
    // per-step state it keeps beside the particle store.
    virtual void reset(const SharedModel& model) { (void)model; }
    // The buffers of that per-step state, which carry it from one frame to
    // the next (what reset() restores): World::saveState() writes them,
    // loadState() fills them. None by default.
    virtual void addStateBuffers(std::vector<GpuBuffer*>& out) { (void)out; }
    // After a loaded state was written into those and the particle store's
    // (World::loadState): what it keeps on the host about them.
    virtual void stateLoaded() {}
};

}  // namespace vksim
