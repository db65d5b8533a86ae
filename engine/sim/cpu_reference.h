#pragma once
// The PBD/XPBD solver of SPEC.md 1 on the CPU in double precision: the test
// oracle for the GPU path. It runs the same passes in the same order as the
// GPU step (shaders/pbd/*.comp) with the same shared math
// (sim/shared_math.h), sweeping each constraint family serially in the colour
// order of the model; since constraints of one colour share no particle, that
// serial Gauss-Seidel sweep is exactly what the per-colour dispatches compute,
// and GPU and CPU differ only by float rounding.
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "scene/scene.h"
#include "sim/reference_collider.h"
#include "sim/sim_model.h"

namespace vksim {

class CpuReferenceSolver {
public:
    // Copies the model's state and topology (floats widened to double).
    explicit CpuReferenceSolver(const SimModel& model);

    // One frame: settings.substeps substeps of h = timeStep / substeps. The
    // counts are read at every call, so the same state can be stepped with
    // different iteration counts (residual-versus-iterations tests).
    void step(const SolverSettings& settings);

    uint32_t particleCount() const { return static_cast<uint32_t>(positions_.size()); }
    std::span<const glm::dvec3> positions() const { return positions_; }
    std::span<const double> inverseMasses() const { return inverseMasses_; }
    std::span<const glm::dvec3> velocities() const { return velocities_; }

    // Mean |C| = mean ||x0 - x1| - d| over the distance constraints at the
    // current positions (0 when there are none).
    double distanceResidual() const;
    // x~ = x + h v of the next substep (predict.comp: v after gravity and
    // damping), h = timeStep / substeps; the state does not change.
    std::vector<glm::dvec3> predictedPositions(const SolverSettings& settings) const;
    // The XPBD objective at the current positions for predicted positions x~
    // (pbd/energy.comp): sum over free particles m/(2h^2) |x - x~|^2 + sum
    // over constraints C^2 / (2 alpha) [J]; none unless every constraint is
    // XPBD with alpha > 0.
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
    };
    using Collider = ReferenceCollider;
    // The GPU's ParticleContact, per particle and substep.
    struct Contact {
        uint32_t candidates = 0;  // bit c: collider c is within the margin of the predicted position
        uint32_t touching = 0;    // bit c: the projection pushed the particle out of collider c
        double approachSpeed = 0.0;
    };
    // What the per-particle passes read (the GPU's ParticlePush, in double).
    struct SubstepParams {
        double h;
        glm::dvec3 gravity;
        double damping;
        double collisionMargin;
        double stencilStep;
        double restitutionThreshold;
        uint32_t iterations;
    };

    void substep(const SubstepParams& params);
    // The passes, named after their shaders.
    void predict(const SubstepParams& params);
    void generateCollisions(const SubstepParams& params);
    void projectDistance(const SubstepParams& params, uint32_t iteration);
    void projectBending(const SubstepParams& params, uint32_t iteration);
    void projectAttachments(const SubstepParams& params, uint32_t iteration);
    void projectCollisions(const SubstepParams& params);
    void updateVelocities(const SubstepParams& params);
    void applyContactVelocities(const SubstepParams& params);

    double colliderDistance(const Collider& collider, const glm::dvec3& p) const;  // f(p) - thickness
    glm::dvec3 colliderGradient(const Collider& collider, const glm::dvec3& p, double stencilStep) const;

    // State.
    std::vector<glm::dvec3> positions_;
    std::vector<double> inverseMasses_;
    std::vector<glm::dvec3> velocities_;
    std::vector<glm::dvec3> predicted_;
    std::vector<Contact> contacts_;
    // XPBD multipliers, one per constraint, reset at iteration 0 of every substep.
    std::vector<double> distanceLambdas_, bendingLambdas_, attachmentLambdas_;

    // Topology, in the model's colour order.
    std::vector<Material> materials_;
    std::vector<Distance> distance_;
    std::vector<Bending> bending_;
    std::vector<Attachment> attachments_;
    std::vector<Collider> colliders_;
    std::vector<float> meshSdfGrids_;  // the model's mesh collider grids (sdf.glsl reads them)
};

}  // namespace vksim
