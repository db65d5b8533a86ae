#pragma once
// The CPU reference world in double precision: the test oracle for the GPU
// path. It holds the particle state (x, v, inverse mass), the colliders and
// the per-particle stages every solver shares (shaders/particle/*.comp),
// written once here with the shared GLSL math (geometry/shared_math.h). A solver
// (pbd_reference.h, pd_reference.h) supplies only what lies between
// collide-generate and the velocity update: its own constraint solve.
//
// One substep of length h over the solver's particle range, as the GPU
// records it (docs/physics.md §1, §5 and §9.2):
//   solver.predictSubstep -> generateCollisions -> the contacts between
//   objects detected -> solver.solveSubstep -> solver.updateSubstep
//   -> applyContactVelocities
// where predictSubstep and updateSubstep are predict and updateVelocities
// unless the solver integrates forces explicitly (spring_reference.h).
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_reference_solve.h"
#include "model/shared_model.h"
#include "shaders/shared/sim_types.h"
#include "scene/scene.h"
#include "solvers/reference_collider.h"
#include "state/particle_range.h"

namespace vksim {

class RigidReference;

// What the per-particle passes read (the GPU's ParticlePush, in double).
struct SubstepParams {
    double h = 0.0;
    glm::dvec3 gravity{0.0};
    double damping = 0.0;
    double collisionMargin = 0.0;
    double stencilStep = 0.0;
    // Approach speeds below what gravity adds in two substeps are resting
    // contact, not impact: no bounce (contact.glsl).
    double restitutionThreshold = 0.0;
    // ParticlePush::colliderFrictionInSolve: the solver holds the scene
    // colliders' friction (ReferenceSolver::holdsColliderFriction), so the
    // projection and the contact velocities apply only the bodies'.
    bool colliderFrictionInSolve = false;

    static SubstepParams from(const SolverSettings& settings);
};

// The GPU's ParticleContact, per particle and substep.
struct ReferenceContact {
    uint32_t candidates = 0;  // bit c: collider c is within the margin of the predicted position
    uint32_t touching = 0;    // bit c: a projection pushed the particle out of collider c
    double approachSpeed = 0.0;
    double pushedOut = 0.0;  // the collision projections' normal push over the substep
};

class ReferenceWorld;

// What a solver plugs into the world: its particles and its solve.
class ReferenceSolver {
public:
    virtual ~ReferenceSolver() = default;
    // The particles this solver moves; the others stay where they are.
    virtual ParticleRange range(const ReferenceWorld& world) const = 0;
    // Throws std::invalid_argument when the settings cannot be stepped.
    virtual void checkSettings(const SolverSettings& settings) const = 0;
    // Solver::holdsColliderFriction: its solve holds the scene colliders'
    // friction (the VBD solids' sweeps).
    virtual bool holdsColliderFriction() const { return false; }
    // From the predicted positions (world.predicted(), collision candidates
    // generated) to the constrained positions in world.predicted(),
    // including the collision projections, marking world.contacts().touching.
    virtual void solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                              const SolverSettings& settings) = 0;
    // predict.comp and update_velocity.comp. The defaults are the symplectic
    // Euler of §1 (PBD, projective dynamics, the implicit spring methods); a
    // solver with explicit integrators of forces runs its force pass and the
    // integrator hooks (predictParticles, updateParticles) instead.
    virtual void predictSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                                const SolverSettings& settings);
    virtual void updateSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                               const SolverSettings& settings);
};

class ReferenceWorld {
public:
    // Copies the model's particles (floats widened to double) and colliders;
    // the contacts between its objects, where any has them, with the pairs
    // of `contactsInIterations` solved in the solver's iterations
    // (buildContactModel).
    explicit ReferenceWorld(const SharedModel& model, ParticleRange contactsInIterations = {});

    // One frame: settings.substeps substeps of h = timeStep / substeps over
    // solver.range(*this).
    void step(const SolverSettings& settings, ReferenceSolver& solver);

    uint32_t particleCount() const { return static_cast<uint32_t>(positions_.size()); }
    std::span<const glm::dvec3> positions() const { return positions_; }
    std::span<const glm::dvec3> velocities() const { return velocities_; }
    std::span<const double> inverseMasses() const { return inverseMasses_; }
    std::span<const double> drags() const { return drags_; }  // sigma [kg/s] per particle
    std::span<glm::dvec3> predicted() { return predicted_; }
    std::span<const glm::dvec3> predicted() const { return predicted_; }
    std::span<ReferenceContact> contacts() { return contacts_; }
    std::span<const ReferenceCollider> colliders() const { return colliders_; }
    // The model's mesh collider grids (bind them with ref::MeshSdfGridScope
    // before evaluating a mesh collider outside step()).
    std::span<const float> meshSdfGrids() const { return meshSdfGrids_; }

    // The shared stages, named after their shaders, over `range`.
    // predict.comp: v += h g, damped; p = x + h v (pinned particles keep
    // v = 0). Particles outside the range keep p = x and their v.
    void predict(ParticleRange range, const SubstepParams& params);
    // collide_generate.comp: candidates within the margin of the predicted
    // position, and v.N towards the nearest of them.
    void generateCollisions(ParticleRange range, const SubstepParams& params);
    // project_collision.comp on world.predicted(): C = f(p) - thickness >= 0
    // for each candidate, in collider order, with the static friction.
    void projectCollisions(ParticleRange range, const SubstepParams& params);
    // update_velocity.comp: v = (p - x) / h, x = p.
    void updateVelocities(ParticleRange range, double h);
    // The integrator hooks of predict.comp and update_velocity.comp
    // (docs/physics.md §9.2): predictParticle / updateParticle of
    // particle_math.glsl with the force pass's accelerations `a` (indexed
    // by global particle, used over `range`) and the per-particle stage
    // buffer. kIntegratorSymplecticEuler is predict / updateVelocities.
    // predictParticles writes p, v and the stage of `range` only, so that
    // objects on different integrators are predicted range by range.
    void predictParticles(ParticleRange range, const SubstepParams& params, uint32_t integrator,
                          std::span<const glm::dvec3> a);
    void updateParticles(ParticleRange range, double h, uint32_t integrator, std::span<const glm::dvec3> a);
    // The integrator stage buffer (position Verlet's x^{n-1}, the midpoint
    // and explicit Euler's saved velocity), zero at the start.
    std::span<const glm::dvec4> stages() const { return stages_; }
    // The contacts between objects (null when no object has them): detected
    // by step() after generateCollisions; a solver that projects contacts in
    // its iterations projects its pairs (gpu::kContactPairsInIterations).
    const ContactReferenceSolve* objectContacts() const {
        return objectContacts_ ? &*objectContacts_ : nullptr;
    }
    // The stepper's contacts after the solves: settings.contactIterations
    // sweeps over every pair, on predicted(). A
    // solver that does not project contacts in its iterations calls it
    // after its solve, before its collision projection.
    void projectContactsAfterSolve(const SolverSettings& settings);
    // project_tethers.comp over `range`'s tethers (the model's solvedTethers),
    // on predicted(): after the contacts after the solve, before the
    // collision projection.
    void projectTethers(ParticleRange range);
    // project_frame_attachments.comp over `range`'s attachments to bodies and
    // colliders (the model's frameAttachments), on predicted(), with the
    // colliders as they are now; a coupled body's gets the move in the
    // particle's push record. PBD: in each iteration after the collisions,
    // before the exchange; the others after the collision projection.
    void projectFrameAttachments(ParticleRange range);
    // contact_velocity.comp: friction and restitution against the nearest
    // collider the projection touched, with its normal at the new position.
    void applyContactVelocities(ParticleRange range, const SubstepParams& params);

    // Two-way coupling with rigid bodies (solvers/rigid/body_coupling.h, as
    // the stepper records it): `bodies` become colliders after the scene's,
    // and step() runs each of their substeps before the particles', writes
    // their colliders at the new pose, and ends each substep with the
    // exchange on velocities. `bodies` must outlive the world.
    void coupleBodies(RigidReference& bodies);
    // The candidate bits of the scene's colliders (all but the coupled
    // bodies'), for the projective-dynamics local step, which leaves the
    // bodies to the projection after its solve (local_collisions.comp).
    uint32_t sceneColliderBits() const {
        const uint32_t scene = bodies_ ? firstBodyCollider_ : static_cast<uint32_t>(colliders_.size());
        return scene >= 32 ? ~0u : (1u << scene) - 1u;
    }
    // rigid/particle_impulses.comp and particle/follow_bodies.comp over
    // `range`: each body and the particles its collider pushed share what
    // they pushed as one rigid aggregate; `displacement` after a PBD
    // iteration's collision projection (the pushes are displacements: the
    // bodies' poses move and their colliders are written again), else on
    // velocities. Nothing without bodies.
    void exchangeWithBodies(ParticleRange range, bool displacement, double h);

    // x + h v of the next substep (predict's p) without changing the state.
    std::vector<glm::dvec3> predictedPositions(ParticleRange range, const SolverSettings& settings) const;
    // Colliders within `margin` of p (collide_generate.comp's candidate bits).
    uint32_t collisionCandidates(const glm::dvec3& p, double margin) const;
    // The friction a push out of a collider applies to the particle's slip
    // since the substep's start (particle/contact.glsl): the static cone
    // alone, the kinetic part left to the contact velocity
    // (project_collision.comp, staticFriction), or Coulomb's rule whole,
    // undone inside the static cone and cut by mu_k outside it
    // (pd/local_collisions.comp, coulombCorrection).
    enum class PushFriction { Static, Coulomb };
    // p moved out of each candidate collider in collider order while inside
    // (the projection of project_collision.comp and local_collisions.comp);
    // `touching` gets the colliders it was inside. With `start` (the
    // particle's position at the substep's start) and h, each push also
    // applies `friction` to the slip.
    // `record`, where given, sums what a body's collider did (BodyPush).
    // `colliderFrictionInSolve`: the scene colliders get no friction here
    // (SubstepParams::colliderFrictionInSolve). `pushed`, where given, sums
    // the normal pushes (ReferenceContact::pushedOut).
    struct BodyPushRecord {
        glm::dvec3 push{0.0};
        uint32_t collider = gpu::kNoBodyPush;
    };
    glm::dvec3 projectOutOfColliders(glm::dvec3 p, uint32_t candidates, double stencilStep, uint32_t& touching,
                                     const glm::dvec3* start = nullptr, double h = 0.0,
                                     BodyPushRecord* record = nullptr, bool colliderFrictionInSolve = false,
                                     double* pushed = nullptr, PushFriction friction = PushFriction::Static) const;
    double colliderDistance(const ReferenceCollider& collider, const glm::dvec3& p) const;  // f(p) - thickness
    glm::dvec3 colliderGradient(const ReferenceCollider& collider, const glm::dvec3& p, double stencilStep) const;

private:
    // collider_stages.glsl's frictionAfterSolve: whether the stages apply
    // collider c's friction.
    bool frictionAfterSolve(uint32_t c, bool colliderFrictionInSolve) const {
        return !colliderFrictionInSolve || (bodies_ && c >= firstBodyCollider_);
    }

    std::vector<glm::dvec3> positions_;
    std::vector<double> inverseMasses_;
    std::vector<double> drags_;  // sigma [kg/s] the predict stage applies (ObjectRange::drag)
    std::vector<glm::dvec3> velocities_;
    std::vector<glm::dvec3> predicted_;
    std::vector<ReferenceContact> contacts_;
    std::vector<glm::dvec4> stages_;
    std::vector<gpu::SolvedTether> tethers_;
    std::vector<gpu::FrameAttachment> frameAttachments_;
    std::vector<ReferenceCollider> colliders_;
    std::vector<float> meshSdfGrids_;  // sdf.glsl reads them
    std::optional<ContactReferenceSolve> objectContacts_;
    RigidReference* bodies_ = nullptr;  // coupled bodies, colliders from firstBodyCollider_
    uint32_t firstBodyCollider_ = 0;
    std::vector<BodyPushRecord> bodyPushes_;  // per particle, reset by generateCollisions
};

// A world stepped by one solver, which owns it: what tests hold
// (PbdReference, PdReference). The accessors forward to the world.
class ReferenceSimulation : public ReferenceSolver {
public:
    explicit ReferenceSimulation(const SharedModel& model, ParticleRange contactsInIterations = {})
        : world_(model, contactsInIterations) {}

    // One frame (ReferenceWorld::step with this solver).
    void step(const SolverSettings& settings) { world_.step(settings, *this); }
    // ReferenceWorld::coupleBodies.
    void coupleBodies(RigidReference& bodies) { world_.coupleBodies(bodies); }

    const ReferenceWorld& world() const { return world_; }
    uint32_t particleCount() const { return world_.particleCount(); }
    std::span<const glm::dvec3> positions() const { return world_.positions(); }
    std::span<const glm::dvec3> velocities() const { return world_.velocities(); }
    std::span<const double> inverseMasses() const { return world_.inverseMasses(); }

protected:
    ReferenceWorld world_;
};

}  // namespace vksim
