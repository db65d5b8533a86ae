#pragma once
// The CPU reference of the rigid-body passes (rigid/step_bodies.comp,
// rigid/body_pairs.comp) in double precision, the test oracle of the GPU
// bodies: the same substep, the same shared math (rigid/rigid_math.glsl
// through geometry/shared_math.h), the same collider order and rounds of pairs,
// the same averaged contacts. Only the order of the sums over contact points
// differs (the GPU reduces over a tree), which changes results by rounding
// only.
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "solvers/reference_collider.h"
#include "solvers/rigid/rigid_model.h"

namespace vksim {

struct ReferenceBodyState {
    glm::dvec3 position{0.0};  // centre of mass
    glm::dvec4 rotation{0.0, 0.0, 0.0, 1.0};
    glm::dvec3 linearVelocity{0.0};
    glm::dvec3 angularVelocity{0.0};
    // The velocities at the start of the current substep (RigidBodyState).
    glm::dvec3 startLinearVelocity{0.0};
    glm::dvec3 startAngularVelocity{0.0};
};

class RigidReference {
public:
    explicit RigidReference(const RigidModelView& model);

    // One frame of every body with `settings` (substeps of timeStep / substeps).
    void stepFrame(const SolverSettings& settings);
    // One substep of length h.
    void stepSubstep(const SolverSettings& settings, double h);

    const std::vector<ReferenceBodyState>& states() const { return states_; }
    std::vector<ReferenceBodyState>& states() { return states_; }
    uint32_t bodyCount() const { return static_cast<uint32_t>(bodies_.size()); }

    // Two-way coupling with the particles (docs/physics.md §11, "Two-way
    // coupling"; ReferenceWorld::coupleBodies). Body b as a collider of the
    // particles (rigid/body_collider.glsl): its shape at its pose, its
    // surface moving with the body.
    ReferenceCollider particleCollider(uint32_t b) const;
    // What the particles that touched a body gave it (rigid/
    // particle_impulses.comp's sums): the momentum j and its moment about
    // the centre, and of those particles the mass, first moment and spread
    // about the centre.
    struct ParticleSums {
        glm::dvec3 j{0.0}, torque{0.0};
        double mass = 0.0;
        glm::dvec3 moment{0.0};
        glm::dmat3 spread{0.0};
    };
    // Body b and the particles share `sums` as one rigid aggregate
    // (aggregateVelocityChange): the body takes the change, which is
    // returned (zero without particles or for a static body). With
    // `displacement` (after a PBD iteration) the change moves the pose and
    // changes the velocities by it over h; else the velocities alone.
    struct Change {
        glm::dvec3 linear{0.0}, angular{0.0};
    };
    Change shareWithParticles(uint32_t b, const ParticleSums& sums, bool displacement, double h);

    // Per body: world angular momentum L = I omega [kg m^2/s] and kinetic
    // energy 1/2 m v^2 + 1/2 omega . I omega [J].
    glm::dvec3 angularMomentum(uint32_t body) const;
    double kineticEnergy(uint32_t body) const;

private:
    struct Body {
        double inverseMass = 0.0;
        glm::dmat3 inertia{1.0}, inverseInertia{1.0};
        std::vector<glm::dvec3> points;
        double friction = 0.0, staticFriction = 0.0, restitution = 0.0;
        ref::ContactMaterial material() const { return {friction, staticFriction, restitution}; }
        double boundingRadius = 0.0;
        ReferenceCollider shape{};  // in the body frame
    };
    void collide(Body& body, ReferenceBodyState& s, const SolverSettings& settings, double h) const;
    void pushOut(const Body& body, ReferenceBodyState& s, const SolverSettings& settings) const;
    void penalty(const Body& body, ReferenceBodyState& s, const SolverSettings& settings, double h) const;
    void integrateVelocity(uint32_t b, const SolverSettings& settings, double h);
    void integratePositions(uint32_t b, const SolverSettings& settings, double h);
    void solvePair(uint32_t a, uint32_t b, const SolverSettings& settings, double h);
    double bodyDistance(uint32_t b, const ReferenceBodyState& pose, const glm::dvec3& x) const;
    glm::dvec3 bodyGradient(uint32_t b, const ReferenceBodyState& pose, const glm::dvec3& x, double stencil) const;
    glm::dvec4 penetrationInside(uint32_t from, const ReferenceBodyState& fromPose, uint32_t into,
                                 const ReferenceBodyState& intoPose, double stencil, double sign) const;

    std::vector<Body> bodies_;
    std::vector<ReferenceBodyState> states_;
    std::vector<ReferenceCollider> colliders_;
    std::vector<float> meshSdfGrids_;
    std::vector<glm::uvec2> pairs_;
    std::vector<uint32_t> roundStarts_;
};

}  // namespace vksim
