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
//                      Chebyshev acceleration and under-relaxation
//   collide: project, update velocity, friction/restitution on q^L
//
// The iterates rotate through three buffers: the store's p and two of this
// solver's. The matrix is assembled once per topology on the CPU
// (pd_system.h); the relaxation gamma and the spectral radius rho for
// Chebyshev are the scene's, or derived from the spectrum of the Jacobi
// iteration matrix, estimated on the CPU by Lanczos the first time a time
// step is used (jacobiParameters()).
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <volk.h>

#include "scene/scene.h"
#include "solvers/pd/pd_system.h"
#include "solvers/sim_model.h"
#include "solvers/solver.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class ColliderSet;

class PdSolver final : public Solver {
public:
    PdSolver(const VulkanContext& ctx, const SimModel& model, const ParticleStore& particles,
             const ColliderSet& colliders);
    ~PdSolver() override;
    PdSolver(const PdSolver&) = delete;
    PdSolver& operator=(const PdSolver&) = delete;

    // The global step in one dispatch (docs/physics.md §5): its pass, the
    // PD particle count up to which "auto" takes it, and the
    // most Jacobi iterations it holds omegas for (the scene format's limit;
    // beyond, a dispatch per iteration).
    static constexpr std::string_view kJacobiInWorkgroupPassName = "pd: jacobi in one workgroup";
    static constexpr uint32_t kOneWorkgroupRows = 256;
    static constexpr uint32_t kMaxOmegas = 1000;
    // The tiled path (pd/jacobi_tiled.comp): rows per workgroup, and the
    // particles copied into shared memory on each side of them (the
    // system's bandwidth, capped by the device's shared memory).
    static constexpr std::string_view kJacobiTiledPassName = "pd: jacobi/chebyshev, tiled";
    static constexpr uint32_t kTiledJacobiRows = 1024;
    uint32_t tiledJacobiHalo() const { return tiledHalo_; }
    // How a frame with `settings` runs its Jacobi iterations ("auto" resolved).
    PdJacobiPath jacobiPathFor(const SolverSettings& settings) const;

    std::string_view owner() const override { return "pd"; }
    std::string_view passPrefix() const override { return "pd: "; }
    ParticleRange range() const override { return {pd_.firstParticle, pd_.particleCount}; }
    // The energy pass: a thread per particle and per contribution slot.
    uint32_t residualThreads() const override { return pd_.particleCount + pd_.slots.total; }
    void declarePasses(StepPlan& plan) override;
    // Computes the Jacobi parameters of the frame (throws as jacobiParameters).
    void beginFrame(StepRecorder& rec, const FrameInputs& frame) override;
    const GpuBuffer& predictTarget() const override { return *q_[0]; }
    std::string_view workingName() const override { return "pd q"; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    void reset(const SimModel& model) override;

    // What the Jacobi passes use for `settings`: the relaxation gamma (the
    // scene's, or 2 / (mu_min + mu_max), which centres the spectrum of
    // I - gamma D^-1 A on zero) and the spectral radius rho (the scene's, or
    // max |1 - gamma mu|), from the spectrum of D^-1 A estimated for the
    // settings' time step (pd_system.h; cached per h). Throws
    // std::invalid_argument when gamma mu_max >= 2: the iteration would
    // diverge.
    struct JacobiParameters {
        double gamma = 1.0;
        double rho = 0.0;
        JacobiSpectrum spectrum;
    };
    JacobiParameters jacobiParameters(const SolverSettings& settings);

    // New element weights and ranges (a live stiffness edit, pd_materials.h):
    // `pd` is the model's PD part with the same elements and the same system
    // pattern, its weights and rows rebuilt (buildPdSystem). Uploads the
    // element and row arrays that changed (each upload waits for the frames
    // in flight) and forgets the spectra: the next frame estimates the new one. Throws
    // std::invalid_argument when the structure differs.
    void setWeights(const PdModel& pd);

    // The right-hand side the last gather pass wrote (f in xyz, the absolute
    // diagonal in w, per global particle index; waits for the queue).
    std::vector<glm::vec4> readRhs() const { return rhs_.downloadArray<glm::vec4>(); }
    const PdModel& model() const { return pd_; }
    bool empty() const { return pd_.empty(); }
    // A relaxation that would make the Jacobi iteration diverge.
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;

private:
    struct PassIds;
    // The local passes on q buffer c, each timed as its own pass, or all as
    // `timedAs` (the energy's extra local step, unprobed).
    void recordLocalStep(StepRecorder& rec, uint32_t c, const gpu::PdParticlePush& particles, StepPosition at,
                         std::optional<uint32_t> timedAs = std::nullopt);
    // g(q) on q buffer c after its local step, into value `index` of the
    // tracker's PdEnergy series.
    const ComputeKernel& residualKernel();  // built the first time a frame tracks
    void recordEnergy(StepRecorder& rec, ResidualTracker& tracker, uint32_t c, const gpu::PdParticlePush& particles,
                      uint32_t index);

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    PdModel pd_;

    // Per-step state: q^{k-1}, q^k, q^{k+1} in rotation (indexed by global
    // particle, like every per-particle buffer): q_[0] is the store's p,
    // q_[1] and q_[2] this solver's. Collision targets, the gathered
    // right-hand side and the element contributions.
    const GpuBuffer* q_[3] = {};
    GpuBuffer ownQ_[2];
    GpuBuffer collisionTargets_, rhs_, contributions_;
    // Topology, uploaded once.
    GpuBuffer rows_, offDiagonal_, gatherSlots_, springs_, triangles_, tetStrain_, tetVolume_, bending_, attachments_;

    std::unique_ptr<ComputeKernel> localSprings_, localTriangles_, localTets_, localBending_, localAttachments_,
        localCollisions_, gather_, jacobi_;
    // The global step in one workgroup, and the omegas it reads (kMaxOmegas
    // of them; the ones uploaded last, so a change is recorded once).
    std::unique_ptr<ComputeKernel> jacobiInWorkgroup_;
    GpuBuffer omegaBuffer_;
    // The tiled path's kernel, built on first use, and its halo.
    std::unique_ptr<ComputeKernel> jacobiTiled_;
    uint32_t tiledHalo_ = 0;
    std::vector<float> uploadedOmegas_;
    std::unique_ptr<ComputeKernel> residual_, energy_;  // built the first time a frame tracks

    // This frame's Jacobi relaxation and Chebyshev weights (beginFrame).
    float gamma_ = 1.0f;
    std::vector<float> omegas_;
    std::map<float, JacobiSpectrum> spectra_;  // by h
    std::unique_ptr<PassIds> passIds_;
};

}  // namespace vksim
