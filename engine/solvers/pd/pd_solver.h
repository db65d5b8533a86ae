#pragma once
// Projective dynamics (docs/physics.md §5; Bouaziz et al. 2014) on the
// world's particles: the PD objects' particles are one range of the particle
// store, after the PBD particles, with the same colliders, renderer, finite
// check and state hash. One substep is implicit Euler as local/global
// alternation; the shared stages run around it (solvers/solver.h):
//
//   predict            s = x + h v + h^2 g, into p (q^0 of the solve)
//   collide: generate  contact candidates at s
//   L times:
//     local passes     one thread per element, each family its own pass:
//                      springs, triangle strain, tet strain, tet volume,
//                      bending, attachments (shaders/pd/local_*.comp), and
//                      collision projections per particle
//     gather rhs       per particle, its element slots in a fixed order
//     J times: jacobi  one Jacobi iteration of (M/h^2 + L) q = b with
//                      Chebyshev acceleration and under-relaxation, on
//                      one of three paths (pd_jacobi_dispatch_path.h):
//                      per iteration, in one workgroup, tiled
//   collide: project, update velocity, friction/restitution on q^L
//
// The iterates rotate through three buffers: the store's p and two of this
// solver's. The constraints every path reads are PdConstraints. The matrix is assembled once per topology on the CPU
// (pd_system.h); the relaxation gamma and the spectral radius rho for
// Chebyshev are the scene's, or derived from the spectrum of the Jacobi
// iteration matrix, estimated on the CPU by Lanczos the first time a time
// step is used (jacobiParameters()).
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <volk.h>

#include "scene/scene.h"
#include "solvers/pd/pd_constraints.h"
#include "solvers/pd/pd_jacobi_dispatch_path.h"
#include "solvers/pd/pd_jacobi_in_workgroup.h"
#include "solvers/pd/pd_jacobi_per_iteration.h"
#include "solvers/pd/pd_jacobi_tiled.h"
#include "solvers/pd/pd_model.h"
#include "solvers/solver.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;

class PdSolver final : public Solver {
public:
    PdSolver(const VulkanContext& ctx, const PdModelView& model, const ParticleStore& particles,
             const ColliderSet& colliders);
    ~PdSolver() override;
    PdSolver(const PdSolver&) = delete;
    PdSolver& operator=(const PdSolver&) = delete;

    // The tiled path's halo (PdJacobiTiled::halo).
    uint32_t tiledJacobiHalo() const { return tiled_.halo(); }
    // How a frame with `settings` runs its Jacobi iterations ("auto"
    // resolved: choosePdJacobiPath).
    PdJacobiPath jacobiPathFor(const SolverSettings& settings) const;
    // One line for a run's summary: the Jacobi path a frame with `settings`
    // takes, whether "auto" chose it, and what it does.
    std::string describePath(const SolverSettings& settings) const;

    std::string_view owner() const override { return "pd"; }
    std::string_view passPrefix() const override { return "pd: "; }
    ParticleRange range() const override { return {model().firstParticle, model().particleCount}; }
    glm::vec3 origin() const override { return constraints_.origin(); }
    // The energy pass: a thread per particle and per contribution slot.
    uint32_t residualThreads() const override { return model().particleCount + model().slots.total; }
    void declarePasses(StepPlan& plan) override;
    // Computes the Jacobi parameters of the frame (throws as jacobiParameters).
    void beginFrame(StepRecorder& rec, const FrameInputs& frame) override;
    const GpuBuffer& predictTarget() const override { return *q_[0]; }
    std::string_view workingName() const override { return kIterateName; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    void reset(const SharedModel& model) override;
    void addStateBuffers(std::vector<GpuBuffer*>& out) override;

    // What the Jacobi passes use for `settings` (PdConstraints::jacobiParameters;
    // cached per h). Throws std::invalid_argument when gamma mu_max >= 2:
    // the iteration would diverge.
    using JacobiParameters = PdJacobiParameters;
    JacobiParameters jacobiParameters(const SolverSettings& settings) {
        return constraints_.jacobiParameters(settings);
    }

    // New element weights and rows (a live stiffness edit; PdConstraints::setWeights):
    // the next frame estimates the new spectrum.
    void setWeights(const PdModel& pd) { constraints_.setWeights(pd); }

    // The right-hand side the last gather pass wrote (f in xyz, the absolute
    // diagonal in w, per global particle index; waits for the queue).
    std::vector<glm::vec4> readRhs() const { return rhs_.downloadArray<glm::vec4>(); }
    const PdModel& model() const { return constraints_.model(); }
    bool empty() const { return constraints_.empty(); }
    // A relaxation that would make the Jacobi iteration diverge.
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;
    // The scene colliders' friction is in the collision targets of the local
    // step (pd/local_collisions.comp, docs/physics.md §5).
    bool holdsColliderFriction() const override { return true; }
    std::string fewerPassesKeys() const override {
        return "/solver/pd/iterations, /solver/pd/jacobiIterations or \"jacobiPath\": \"workgroup\" "
               "(/solver/pd/jacobiPath)";
    }

private:
    struct PassIds;
    // The local passes on q buffer c, each timed as its own pass, or all as
    // `timedAs` (the energy's extra local step, unprobed).
    std::vector<glm::vec4> relativePositions(const SharedModel& model) const;
    void recordLocalStep(StepRecorder& rec, uint32_t c, const gpu::PdParticlePush& particles, StepPosition at,
                         std::optional<uint32_t> timedAs = std::nullopt);
    // g(q) on q buffer c after its local step, into value `index` of the
    // tracker's PdEnergy series.
    const ComputeKernel& residualKernel();  // built the first time a frame tracks
    void recordEnergy(StepRecorder& rec, ResidualTracker& tracker, uint32_t c, const gpu::PdParticlePush& particles,
                      uint32_t index);

    // The Jacobi path of a frame with `settings`.
    PdJacobiDispatchPath& jacobiPath(const SolverSettings& settings) {
        return const_cast<PdJacobiDispatchPath&>(std::as_const(*this).jacobiPath(settings));
    }
    const PdJacobiDispatchPath& jacobiPath(const SolverSettings& settings) const;
    // How the non-finite replay calls one of the iterates.
    static constexpr std::string_view kIterateName = "pd q";

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    PdConstraints constraints_;

    // Per-step state: q^{k-1}, q^k, q^{k+1} in rotation (indexed by global
    // particle, like every per-particle buffer): q_[0] is the store's p,
    // q_[1] and q_[2] this solver's. Collision targets, the gathered
    // right-hand side and the element contributions.
    const GpuBuffer* q_[3] = {};
    GpuBuffer ownQ_[2];
    GpuBuffer collisionTargets_, rhs_, contributions_;

    std::unique_ptr<ComputeKernel> localSprings_, localTriangles_, localTets_, localBending_, localAttachments_,
        localCollisions_, gather_;
    // What the Jacobi paths read, and the paths in the order their passes are declared.
    PdJacobiBuffers jacobiBuffers_;
    PdJacobiPerIteration perIteration_;
    PdJacobiInWorkgroup inWorkgroup_;
    PdJacobiTiled tiled_;
    std::unique_ptr<ComputeKernel> residual_, energy_;  // built the first time a frame tracks
    std::unique_ptr<PassIds> passIds_;
};

}  // namespace vksim
