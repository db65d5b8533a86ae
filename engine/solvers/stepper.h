#pragma once
// The GPU state of one model and the solvers that step it: the particle
// store, the collider set, the shared particle stages and one solver per
// method (projective dynamics, PBD, mass-spring), with the step plan of their passes.
// One frame is the rigid bodies' frame (one pass: every substep inside),
// then, for each substep and each solver with particles:
//
//   predict -> collide: generate -> solve -> collide: project
//   -> update velocity -> friction/restitution
//
// (with kinematic colliders or two-way coupling, substep by substep: the
// keyframed colliders' poses, the bodies' substep, the particles'),
// then the normals of every particle. World steps one of these every frame;
// the non-finite replay (non_finite_replay.h) steps a fresh one with a
// finite probe; tests step one directly.
#include <functional>
#include <memory>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "contacts/contact_stage.h"
#include "solvers/rigid/body_coupling.h"
#include "solvers/rigid/rigid_solver.h"
#include "solvers/sim_model.h"
#include "solvers/solver.h"
#include "state/collider_set.h"
#include "state/particle_store.h"
#include "state/saved_state.h"
#include "step/frame_work.h"
#include "step/keyframe_stage.h"
#include "step/particle_stages.h"
#include "step/step_plan.h"
#include "step/frame_attachment_stage.h"
#include "step/tether_stage.h"
#include "step/wind_stage.h"

namespace vksim {

class VulkanContext;

class Stepper {
public:
    // Declares the solvers' passes and the normals in plan(); the owner may
    // declare more after them before registering the plan with its timer.
    // `settings` are the first frame's (what a solver prepares for before
    // it: PbdSolver's per-iteration stiffness); frames may change them.
    Stepper(const VulkanContext& ctx, const SimModel& model, const SolverSettings& settings);
    ~Stepper();
    Stepper(const Stepper&) = delete;
    Stepper& operator=(const Stepper&) = delete;

    StepPlan& plan() { return plan_; }
    const StepPlan& plan() const { return plan_; }

    // One frame: the barriers that order it after the previous frame's
    // simulation and drawing, pending collider edits, every substep of every
    // solver (or the whole frame of a solver that records whole frames), the
    // normals (when frame.normals). Ends with compute writes not yet visible
    // to anything else (World::recordReadBarrier). Throws
    // std::invalid_argument for settings a solver cannot step with.
    void recordFrame(StepRecorder& rec, const FrameInputs& frame);

    // The most timed runs one frame with `settings` records: tracking on when
    // `tracker` is set, and a drag in whichever solver's range costs most;
    // `frameEnd` records what the owner adds after the stepper's frame (the
    // finite check). Counted by recording without a command buffer, never by
    // a formula.
    uint32_t maxRunsPerFrame(const SolverSettings& settings, ResidualTracker* tracker,
                             const std::function<void(StepRecorder&)>& frameEnd = {});

    // The work of one frame with `settings` and no drag or tracking
    // (frame_work.h), counted the same way.
    FrameWork frameWork(const SolverSettings& settings);

    // Every solver's checkSettings(), in step order.
    void checkSettings(const SolverSettings& settings, const std::string& scenePath);
    // The fewerPassesKeys() of every solver with something to step, in
    // step order.
    std::vector<std::string> fewerPassesKeys() const;
    // Every solver's liveVariants() of `settings`, and the contacts by
    // colours where a world with contacts starts with the Jacobi average.
    std::vector<SolverSettings> liveVariants(const SolverSettings& settings) const;

    // The most threads of any solver's first residual or energy pass
    // (Solver::residualThreads): what the world's ResidualTracker sums.
    uint32_t residualThreads() const;

    // Back to the model's initial state (waits for the queue).
    void reset(const SimModel& model);
    // The state reset() restores as named sections (state/saved_state.h):
    // the particle store's, the contacts', the wind's clock, the bodies',
    // each solver's, in that order. saveSections() reads them back (waits for the queue);
    // loadSections() writes them, after checking that each has the name and
    // size of this stepper's, else throws std::invalid_argument starting
    // with `source` and naming the first that differs.
    std::vector<StateSection> saveSections();
    // The bytes of those sections.
    uint64_t stateBytes();
    void loadSections(const std::vector<StateSection>& sections, std::string_view source);

    ParticleStore& particles() { return particles_; }
    const ParticleStore& particles() const { return particles_; }
    ColliderSet& colliders() { return colliders_; }
    const ColliderSet& colliders() const { return colliders_; }
    // The wind on cloth; null when no object has an "aero" block.
    const WindStage* wind() const { return wind_.get(); }
    // The contacts between objects; null when no object has a "contacts" block.
    const ContactStage* contacts() const { return contacts_.get(); }
    // The kinematic colliders' keyframes; null when no collider has any.
    const KeyframeStage* keyframes() const { return keyframes_.get(); }
    // A solver by its type (PbdSolver, PdSolver, SpringSolver, RigidSolver):
    // every one exists, empty of particles or bodies when the scene has none.
    template <class S>
    S& solver() {
        return const_cast<S&>(std::as_const(*this).solver<S>());
    }
    template <class S>
    const S& solver() const {
        if constexpr (std::is_same_v<S, RigidSolver>) {
            return *rigid_;
        } else {
            for (const std::unique_ptr<Solver>& solver : solvers_)
                if (const S* typed = dynamic_cast<const S*>(solver.get())) return *typed;
            throw std::logic_error("a solver type that solvers/solver_list.cpp does not make");
        }
    }

private:
    // The solvers with particles, in step order, with their stage passes.
    struct Active {
        Solver* solver;
        ParticleStagePasses passes;
        const ContactStage* contacts;  // contactsIn(its range)
        TetherStage::Slice tethers{};  // its tethers projected after its solve (none for PBD)
        FrameAttachmentPass attachments{};  // its attachments to bodies and colliders
    };

    // Per-particle settings of one solver's range for a substep of length h.
    gpu::ParticlePush particlePush(const SolverSettings& settings, float h, const Solver& solver,
                                   uint32_t colliderCount) const;
    // Whether the wind passes run this frame: some object feels the air, which has a density.
    bool airActs(const SolverSettings& settings) const { return wind_ && WindStage::acts(settings); }
    // The contact stage when a particle of `range` has contacts, else null.
    const ContactStage* contactsIn(ParticleRange range) const;
    // Whether the stepper may project contacts after the solves (contacts_ set).
    bool someContactsAfterSolve(const SolverSettings& settings) const;
    void recordSubstep(StepRecorder& rec, const FrameInputs& frame, uint32_t substep, float h);
    std::vector<GpuBuffer*> stateBuffers();

    ParticleStore particles_;
    ColliderSet colliders_;
    ParticleStages stages_;
    // Null when no object has contacts.
    std::unique_ptr<ContactStage> contacts_;
    // Null when no object has an "aero" block.
    std::unique_ptr<WindStage> wind_;
    // Null when no collider has keyframes.
    std::unique_ptr<KeyframeStage> keyframes_;
    std::unique_ptr<TetherStage> tethers_;
    // Null when no cloth is attached to a body or collider.
    std::unique_ptr<FrameAttachmentStage> attachments_;
    std::vector<std::unique_ptr<Solver>> solvers_;  // solvers/solver_list.h, in step order
    std::unique_ptr<RigidSolver> rigid_;
    // Null unless the world has both bodies and particles.
    std::unique_ptr<BodyCoupling> coupling_;
    std::vector<Active> active_;  // the solvers with particles, in step order
    uint32_t normalsPass_ = 0;
    StepPlan plan_;
};

}  // namespace vksim
