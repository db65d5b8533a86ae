#pragma once
// The VBD solids of docs/physics.md §16 on the CPU in double precision: the
// test oracle for the GPU path (shaders/vbd/*.comp). Its range is the
// model's VBD particles; the rest are left as they are. Each vertex step is
// the GPU's: the same per-tet math (shaders/vbd/vbd_math.glsl compiled as
// C++ double), gathered in the order of the model's incidence lists, the
// colours swept in the model's order (no two vertices of a colour share a
// tet, so a serial sweep of a colour is what its dispatch computes).
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "solvers/reference_world.h"
#include "solvers/vbd/vbd_model.h"

namespace vksim {

class VbdReference final : public ReferenceSimulation {
public:
    explicit VbdReference(const VbdModelView& model);

    ParticleRange range(const ReferenceWorld&) const override { return {vbd_.firstParticle, vbd_.particleCount}; }
    // Throws for zero iterations.
    void checkSettings(const SolverSettings& settings) const override;
    // VBD towards y = p from the initial guess (settings.vbd.initialGuess:
    // vbd_init.comp's, from predict's velocities this substep and the last),
    // then the contacts after the solve and the collision projection (the
    // stepper's stages after a VBD solve).
    void solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                      const SolverSettings& settings) override;

    // G(x) = sum over the free particles of m/(2h^2)|x - y|^2 and their
    // collider penalties (the last substep's half-spaces) plus the elastic
    // energy of every tet [J] (global indices), plus, with the contact
    // energy on and contacts in the world, the energy of the touching pairs
    // within the range (the world's positions are x^0). The colliders'
    // friction is a lagged force, not an energy of x (its normal force is
    // the penalty's at the iterate): no part of G.
    double objective(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y, double h) const;
    double elasticEnergy(std::span<const glm::dvec3> x) const;
    // The elastic force -dE/dx_i on every particle (zero outside the range).
    std::vector<glm::dvec3> elasticForces(std::span<const glm::dvec3> x) const;
    // `iterations` sweeps from x = y; `history`, when given, gets G at y and
    // after each sweep.
    std::vector<glm::dvec3> vertexBlockDescent(std::span<const glm::dvec3> y, double h, uint32_t iterations,
                                               std::vector<double>* history = nullptr) const {
        return vertexBlockDescent(y, y, h, iterations, history);
    }
    // The same from x = `start` (G at `start` first).
    std::vector<glm::dvec3> vertexBlockDescent(std::span<const glm::dvec3> start, std::span<const glm::dvec3> y,
                                               double h, uint32_t iterations,
                                               std::vector<double>* history = nullptr) const;
    // G per sweep of the last substep's solve, at the initial guess first.
    const std::vector<double>& lastSolve() const { return lastSolve_; }

    // Whether the sweeps hold the contact energy of the pairs within the
    // range (vbd_colour_contacts.comp; on, as on the GPU). Off, the pairs
    // are only projected after the solve, as before the energy was built:
    // the tests' comparison.
    void setContactEnergy(bool on) { contactEnergy_ = on; }

    // Whether the sweeps hold the colliders' penalty (vbd_collider_planes.comp;
    // on, as on the GPU). Off, the colliders are only projected after the
    // solve, as before the penalty was built: the tests' comparison.
    void setColliderEnergy(bool on) { colliderEnergy_ = on; }
    // With the penalty, the colliders' friction is in the sweeps too
    // (vbd_collider.glsl's vbdFrictionTerms), and the stages after the solve
    // leave it out; off, it is the stages' (docs/physics.md §3).
    bool holdsColliderFriction() const override { return colliderEnergy_; }

    // sum m v over the free particles of the range.
    glm::dvec3 linearMomentum() const;

    const VbdModel& model() const { return vbd_; }

private:
    // Vertex i's (global) incident tets at x: sum of V Psi, gradient, block.
    struct Terms {
        double energy = 0.0;
        glm::dvec3 gradient{0.0};
        glm::dmat3 hessian{0.0};
    };
    Terms vertexTerms(uint32_t i, std::span<const glm::dvec3> x) const;
    double mass(uint32_t i) const { return 1.0 / world_.inverseMasses()[i]; }
    // The contacts whose energy the sweeps hold, or null.
    const ContactReferenceSolve* energyContacts() const {
        return contactEnergy_ ? world_.objectContacts() : nullptr;
    }

    // The substep's collider half-spaces (vbd_collider_planes.comp), per
    // particle of the range; none while the penalty is off.
    void findColliderPlanes(ReferenceWorld& world, ParticleRange range, const SubstepParams& params);
    // Vertex i's (global) collider half-space, zero for none.
    glm::dvec4 colliderPlane(uint32_t i) const {
        const uint32_t r = i - vbd_.firstParticle;
        return r < colliderPlanes_.size() ? colliderPlanes_[r] : glm::dvec4(0.0);
    }
    // gpu::VbdColliderFriction in double: the anchor x + h w and the
    // collider's coefficients, beside each plane.
    struct ColliderFriction {
        glm::dvec3 anchor{0.0};
        double muStatic = 0.0, muKinetic = 0.0;
    };
    // Vertex i's (global) friction in the sweeps at x, given the step's
    // other terms (none without a plane).
    ref::LaggedFriction frictionTerms(uint32_t i, const glm::dvec3& x, double h, const glm::dvec3& gradient,
                                        const glm::dmat3& hessian) const;

    VbdModel vbd_;
    std::vector<double> lastSolve_;
    bool contactEnergy_ = true;
    bool colliderEnergy_ = true;
    std::vector<glm::dvec4> colliderPlanes_;
    std::vector<ColliderFriction> colliderFrictions_;  // as colliderPlanes_
    // Per particle (global), predict's velocity at the last substep's init;
    // w = 0 until one was seen (vbd_init.comp's buffer).
    std::vector<glm::dvec4> previousVelocities_;
};

}  // namespace vksim
