#pragma once
// The PBD/XPBD solver of docs/physics.md §1 on the CPU in double precision:
// the constraint projection of the reference world (reference_world.h), the
// test oracle for the GPU path (shaders/pbd/*.comp). It sweeps each
// constraint family serially in the colour order of the model; since
// constraints of one colour share no particle, that serial Gauss-Seidel
// sweep is exactly what the per-colour dispatches compute, and GPU and CPU
// differ only by float rounding. Constructed with a cluster size, it sweeps
// in the cluster path's order instead (solvers/pbd/pbd_clusters.h): per iteration
// the first sweep's constraints, family by family, then the second's, then
// the coloured sweep's. Every particle of the model is in its range. The
// contacts between objects are projected as contact_stage.h does, after the
// shape matching in each iteration (contacts/contact_reference_solve.h);
// constructed for the workgroup path's order, those within one object in
// each iteration and every pair after the solve, as the stepper projects
// them there.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "contacts/contact_reference_solve.h"
#include "scene/scene.h"
#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_clusters.h"
#include "solvers/pbd/pbd_model.h"
#include "solvers/reference_world.h"

namespace vksim {

class PbdReference final : public ReferenceSimulation {
public:
    // Copies the model's state and topology (floats widened to double); with
    // `clusterParticles`, the order of the cluster path with clusters of that
    // many particles (the GPU's ClusterPath::capacity()); with
    // `workgroupContacts`, the workgroup path's contacts: those within one
    // object in the iterations (gpu::kContactPairsWithinObjects), then
    // settings.contactIterations sweeps over every pair after them
    // (ReferenceWorld::projectContactsAfterSolve).
    explicit PbdReference(const PbdModelView& model, std::optional<uint32_t> clusterParticles = std::nullopt,
                          bool workgroupContacts = false);

    // step(settings) (ReferenceSimulation) reads settings.substeps and
    // settings.pbd.iterations at every call, so the same state can be stepped
    // with different iteration counts (residual-versus-iterations tests).

    ParticleRange range(const ReferenceWorld& world) const override { return {0, world.particleCount()}; }
    void checkSettings(const SolverSettings& settings) const override;
    // The contacts detected first (settings.contactSolve); then
    // settings.pbd.iterations times: distance, bending, attachments, tetrahedra (each
    // sweep's, on the cluster order), shape matching, contacts, collisions;
    // with workgroupContacts, every contact again after them.
    void solveSubstep(ReferenceWorld& world, ParticleRange range, const SubstepParams& params,
                      const SolverSettings& settings) override;

    // Mean |C| = mean ||x0 - x1| - d| over the distance constraints at the
    // current positions (0 when there are none).
    double distanceResidual() const;
    // x~ = x + h v of the next substep (predict.comp: v after gravity and
    // damping), h = timeStep / substeps; the state does not change.
    std::vector<glm::dvec3> predictedPositions(const SolverSettings& settings) const;
    // The XPBD objective at the current positions for predicted positions x~
    // (pbd/energy.comp): sum over free particles m/(2h^2) |x - x~|^2 + sum
    // over constraints C^2 / (2 alpha) + sum over tetrahedra V Psi(F) [J];
    // none unless every constraint is XPBD with alpha > 0 (a tetrahedron's
    // PBD volume constraint is not).
    std::optional<double> xpbdObjective(std::span<const glm::dvec3> predicted, double h) const;

    // sum m_i v_i over particles with inverse mass > 0 (pinned ones carry none).
    glm::dvec3 linearMomentum() const;

private:
    struct Material {
        uint32_t mode;
        double stiffness;
        double compliance;
    };
    struct Distance {
        uint32_t p0, p1;
        double restLength;
        uint32_t material;
    };
    struct Bending {
        glm::uvec4 particles;
        glm::dvec4 K;
        double scale;
        uint32_t material;
    };
    struct Attachment {
        glm::dvec3 target;
        uint32_t particle;
        uint32_t material;
        double length;  // 0: a pin; > 0: a tether
    };
    // A tetrahedron of an XPBD solid (docs/physics.md §16, "XPBD for solids"), its material
    // as uploaded (floats widened).
    struct Tetrahedron {
        glm::uvec4 particles;
        glm::dvec3 g1, g2, g3;
        double volume;
        uint32_t model;
        double mu, lambda;
        uint32_t volumeMaterial;  // gpu::kNoVolumeConstraint or a material row
    };
    struct ShapeMatch {
        gpu::ShapeMatchGroup group;             // particles, mode, stiffness, beta
        glm::dmat3 restInverse;                 // Aqq^-1 as uploaded
        std::vector<glm::dvec4> rest;           // r_i (xyz) and m_i (w) as uploaded
        double inverseMass = 0.0;               // 1 / sum m_i of the uploaded masses
    };

    // The constraint passes, named after their shaders; with `sweep`, only
    // that sweep's constraints of the cluster order.
    // Constraints [range) of a family's array, those of `sweep` only where given.
    void projectDistance(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations, uint32_t iteration,
                         ColourRange range, std::optional<ClusterSweep> sweep);
    void projectBending(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations, uint32_t iteration,
                        ColourRange range, std::optional<ClusterSweep> sweep);
    void projectAttachments(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                            uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep);
    void projectTetrahedra(ReferenceWorld& world, const SubstepParams& params, uint32_t iterations,
                           uint32_t iteration, ColourRange range, std::optional<ClusterSweep> sweep);
    void projectShapeMatches(ReferenceWorld& world, uint32_t iterations);

    // XPBD multipliers, one per constraint, reset at iteration 0 of every substep.
    std::vector<double> distanceLambdas_, bendingLambdas_, attachmentLambdas_;
    // Two per tetrahedron: deviatoric, hydrostatic.
    std::vector<glm::dvec2> tetrahedronLambdas_;

    // Topology, in the model's colour order.
    std::vector<Material> materials_;
    std::vector<Distance> distance_;
    std::vector<Bending> bending_;
    std::vector<Attachment> attachments_;
    std::vector<Tetrahedron> tetrahedra_;
    std::vector<ShapeMatch> shapeMatches_;
    // The cluster order: per constraint of each family, its sweep; empty on
    // the colour order.
    std::vector<ClusterSweep> distanceSweep_, bendingSweep_, attachmentSweep_, tetrahedronSweep_;
    bool clustered_ = false;
    bool workgroupContacts_ = false;
    // The model's colours per family and the sweep's order over them (solvers/pbd/colour_steps.h).
    ColourGroups distanceGroups_, bendingGroups_, attachmentGroups_, tetrahedronGroups_;
    std::vector<ColourStep> steps_;
};

}  // namespace vksim
