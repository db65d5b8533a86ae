#pragma once
// Projective dynamics (docs/physics.md §5) on the CPU in double precision:
// the local/global solve of the reference world (reference_world.h), the
// test oracle for the GPU path (pd_solver.h). The same passes in the same
// order with the same shared math (the local projections of
// shaders/pd/pd_projections.glsl compiled as C++ double), but an exact
// global step: a sparse Cholesky (LDL^T) factorisation of
// M/h^2 + L over the free particles, computed once per time step and
// refactored (numerically only; the pattern is analysed once) when the set
// of active collision projections changes its diagonal. Pinned particles
// are eliminated: their known positions move to the right-hand side.
// Its range is the PD particles of the model; the rest are left as they are.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "solvers/pd/pd_model.h"
#include "solvers/reference_world.h"

namespace vksim {

class PdReference final : public ReferenceSimulation {
public:
    explicit PdReference(const PdModelView& model);
    ~PdReference() override;
    PdReference(const PdReference&) = delete;
    PdReference& operator=(const PdReference&) = delete;

    // step(settings) (ReferenceSimulation): settings.substeps substeps, each
    // settings.pd.localIterations local/global iterations with the direct
    // global solve (settings.pd.jacobiIterations, chebyshev, relaxation and
    // spectralRadius are the GPU's business and ignored here).
    ParticleRange range(const ReferenceWorld&) const override { return {pd_.firstParticle, pd_.particleCount}; }
    void checkSettings(const SolverSettings& settings) const override;
    // The scene colliders' friction is in the collision targets (PdSolver).
    bool holdsColliderFriction() const override { return true; }
    // L local/global iterations from q = s, then what is left inside a
    // candidate collider projected onto its surface (project_collision.comp).
    void solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                      const SolverSettings& settings) override;

    const PdModel& model() const { return pd_; }

    // The pieces of a step, for tests. localStep fills the contribution of
    // every slot (pd_types.h) for the shape q (all particles, PD range used);
    // with `energy`, also sums the elements' energies w/2 |A S q - p|^2 into it.
    std::vector<glm::dvec3> localStep(std::span<const glm::dvec3> q, double* energy = nullptr) const;
    // s = x + h v of the next substep (predict.comp: v after gravity and
    // damping), h = timeStep / substeps; the state does not change.
    std::vector<glm::dvec3> predictedPositions(const SolverSettings& settings) const;
    // The objective the local/global iteration of the next substep minimises
    // (pd/energy.comp), at the shape q for the predicted positions s:
    // sum over free PD particles m/(2h^2) |q - s|^2, over elements
    // w/2 |A S q - p(q)|^2, over collision projections active at q
    // (candidates at s, as collide_generate) collisionWeight m/(2h^2) |q - t(q)|^2 [J].
    double objective(std::span<const glm::dvec3> q, std::span<const glm::dvec3> s,
                     const SolverSettings& settings) const;
    // Solves (M/h^2 + L) q = M/h^2 s + sum of the slots over the free PD
    // particles (no collisions), pinned ones held at `pinnedAt`. Returns all
    // particles (non-PD ones copied from pinnedAt).
    std::vector<glm::dvec3> globalSolve(std::span<const glm::dvec3> s, std::span<const glm::dvec3> contributions,
                                        std::span<const glm::dvec3> pinnedAt, double h);
    // |(M/h^2 + L) q - b| / |b| over the free PD particles (no collisions).
    double relativeResidual(std::span<const glm::dvec3> q, std::span<const glm::dvec3> s,
                            std::span<const glm::dvec3> contributions, double h) const;

    // Linear momentum sum m_i v_i of the free PD particles.
    glm::dvec3 linearMomentum() const;

private:
    struct Factorisation;

    // local_collisions.comp: each candidate in collider order, projected
    // while violated, with the colliders' friction (collisionTarget); marks
    // the contacts touching.
    static glm::dvec3 collisionTarget(const ReferenceWorld& world, uint32_t i, glm::dvec3 p, uint32_t candidates,
                                      double stencilStep, double h, uint32_t& touching);
    void collisionProjections(ReferenceWorld& world, std::span<const glm::dvec3> q, double stencilStep, double h);
    // Right-hand side of the free rows (pinned couplings moved over) for the
    // current collision targets, and the solve.
    std::vector<glm::dvec3> solve(std::span<const glm::dvec3> s, std::span<const glm::dvec3> contributions,
                                  std::span<const glm::dvec3> pinnedAt, double h, double collisionWeight,
                                  bool withCollisions);
    void factorise(double h, double collisionWeight, const std::vector<bool>& active);

    PdModel pd_;

    // Per PD particle (row r), this substep.
    std::vector<glm::dvec3> collisionTargets_;
    std::vector<bool> collisionActive_;

    std::vector<uint32_t> freeRows_;     // free index -> PD row
    std::vector<int32_t> freeIndex_;     // PD row -> free index, -1 when pinned
    std::unique_ptr<Factorisation> factorisation_;
};

}  // namespace vksim
