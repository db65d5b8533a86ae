#pragma once
// The mass-spring solver of docs/physics.md §9 on the CPU in double
// precision: the test oracle for the GPU path (shaders/springs/*.comp). Its
// range is the model's mass-spring particles (MsModel); the rest are left
// as they are. The per-element math is the GPU's (shaders/springs/
// spring_math.glsl compiled as C++ double), gathered per particle in the
// order of MsModel's incidence lists, so each particle's force is summed in
// the order the force pass sums it.
//
// Three ways to step:
// - the explicit integrators (§9.2): force pass a = A(y, v), the integrator
//   hooks of predict and update-velocity (ReferenceWorld::predictParticles,
//   updateParticles), a second force pass for velocity Verlet and midpoint;
//   each object by its own integrator (SpringClothParams::integrator), else
//   the solver's;
// - implicit Euler by Newton's method on F (§9.3), each linear system
//   solved exactly (sparse LDL^T) where the GPU iterates;
// - vertex block descent on the same F (§9.6), in the model's colour order.
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_reference_solve.h"
#include "scene/scene.h"
#include "solvers/reference_world.h"
#include "solvers/springs/spring_model.h"

namespace vksim {

// One iterate of an implicit solve: F and |grad F| (2-norm over the free
// particles' 3n coordinates) at it.
struct ImplicitIterate {
    double objective = 0.0;  // F [J]
    double gradientNorm = 0.0;  // [N]
    double step = 1.0;          // Newton: the line search's alpha that led here (1 without search)
};

struct SpringReferenceOptions {
    // Newton: false runs settings.springs.newtonIterations iterations (what
    // the GPU runs); true iterates until |grad F| < newtonTolerance or
    // maxNewtonIterations.
    bool newtonToConvergence = false;
    double newtonTolerance = 1e-9;  // [N]
    uint32_t maxNewtonIterations = 50;
};

class SpringReference final : public ReferenceSimulation {
public:
    explicit SpringReference(const SpringModelView& model, SpringReferenceOptions options = {});

    ParticleRange range(const ReferenceWorld&) const override { return {ms_.firstParticle, ms_.particleCount}; }
    // Throws for zero Newton or VBD iterations, or an implicit method with
    // active dihedral hinges (their forces have no energy, §9.5).
    void checkSettings(const SolverSettings& settings) const override;
    void predictSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                        const SolverSettings& settings) override;
    // Explicit: the second force pass where the integrator has one, then the
    // collision projection. Implicit: minimises F from y = p, then the
    // collision projection.
    void solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                      const SolverSettings& settings) override;
    void updateSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                       const SolverSettings& settings) override;

    const MsModel& model() const { return ms_; }
    SpringReferenceOptions& options() { return options_; }

    // The force pass: a_i = g + w_i (springs + hinges + quadratic - sigma_i
    // v_i) at positions y, velocities v (all particles, global indices);
    // zero for pinned particles and outside the range.
    std::vector<glm::dvec3> accelerations(std::span<const glm::dvec3> y, std::span<const glm::dvec3> v,
                                          const glm::dvec3& gravity) const;
    // The internal force on every particle at x (springs, hinges, -Q x):
    // the accelerations without gravity, drag and the inverse mass.
    std::vector<glm::dvec3> internalForces(std::span<const glm::dvec3> x) const;
    // E_springs(x) + 1/2 x^T (Q (x) I3) x [J].
    double elasticEnergy(std::span<const glm::dvec3> x) const;

    // The implicit Euler objective (§9.3) over the free particles of the
    // range: F(x) = sum m/(2h^2)|x - y|^2 + sum sigma/(2h)|x - x0|^2
    // + E_springs(x) + 1/2 sum Q_ij x_i.x_j (+ the contact energy of the
    // pairs within the range, §14), and its gradient (zero for pinned
    // particles and outside the range). With `lags` (Newton's, taken by
    // frictionLags at its iterate) also the pairs' lagged friction.
    using FrictionLags = std::vector<std::vector<ContactReferenceSolve::FrictionLag>>;  // per row of the range
    double objective(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y, std::span<const glm::dvec3> x0,
                     double h, const FrictionLags* lags = nullptr) const;
    std::vector<glm::dvec3> gradient(std::span<const glm::dvec3> x, std::span<const glm::dvec3> y,
                                     std::span<const glm::dvec3> x0, double h,
                                     const FrictionLags* lags = nullptr) const;
    // Newton's friction lag of the pairs within the range at the iterate x
    // (springs/newton_assemble.glsl; none without contacts).
    FrictionLags frictionLags(std::span<const glm::dvec3> x, std::span<const glm::dvec3> x0, double h) const;

    // Minimise F from x = y: Newton (fixed `iterations`, or to
    // options().newtonTolerance when toConvergence) with an optional
    // backtracking line search; VBD `iterations` sweeps over the colours.
    // Each records its iterates, the start included.
    std::vector<glm::dvec3> newton(std::span<const glm::dvec3> y, std::span<const glm::dvec3> x0, double h,
                                   uint32_t iterations, bool toConvergence, bool lineSearch,
                                   std::vector<ImplicitIterate>* history = nullptr) const;
    std::vector<glm::dvec3> vertexBlockDescent(std::span<const glm::dvec3> y, std::span<const glm::dvec3> x0, double h,
                                               uint32_t iterations,
                                               std::vector<ImplicitIterate>* history = nullptr) const;
    // The iterates of the last substep's implicit solve.
    const std::vector<ImplicitIterate>& lastSolve() const { return lastSolve_; }

    // sum m_i v_i and sum m_i x_i x v_i over the free particles of the range.
    glm::dvec3 linearMomentum() const;
    glm::dvec3 angularMomentum() const;
    // Kinetic plus elastic energy (no gravity) [J].
    double mechanicalEnergy() const;

private:
    // The force on particle i (global) at x from its elements, in
    // incidence order; `hessian`, when given, gets its diagonal block of
    // the springs and quadratic entries (clamped, §9.3).
    glm::dvec3 particleForce(uint32_t i, std::span<const glm::dvec3> x, bool withHinges, glm::dmat3* hessian) const;
    double mass(uint32_t i) const;
    // The contact energy's terms at particle i (global) with every particle
    // at x (x0: the start of the substep).
    ContactReferenceSolve::Penalty contactPenalty(const ContactReferenceSolve& contacts, uint32_t i,
                                                  std::span<const glm::dvec3> x, std::span<const glm::dvec3> x0,
                                                  double h) const;
    // Each object's particles and integrator (its own, else the solver's);
    // the whole range under the solver's for a model built without objects.
    std::vector<std::pair<ParticleRange, SpringIntegrator>> integratorRanges(const SpringSettings& settings) const;

    MsModel ms_;
    SpringReferenceOptions options_;
    std::vector<glm::dvec3> accelerations_;  // the force pass's last a, for the update
    std::vector<ImplicitIterate> lastSolve_;
};

}  // namespace vksim
