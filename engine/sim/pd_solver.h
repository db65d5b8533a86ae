#pragma once
// Projective dynamics on the GPU (SPEC.md 5; Bouaziz et al. 2014), the
// second solver beside PbdSolver. It steps the PD particles of a SimModel
// (the range SimModel::pd, after the PBD particles) in the same particle
// buffers, with the same colliders, so the renderer, the finite check and
// the state hash see one set of particles. One substep is implicit Euler as
// local/global alternation:
//
//   predict            s = x + h v + h^2 g (particle/predict.comp on the PD range); q = s
//   collide: generate  contact candidates at s (particle/collide_generate.comp)
//   L times:
//     local passes     one thread per element, each family its own pass:
//                      springs, triangle strain, tet strain, tet volume,
//                      bending, attachments (shaders/pd/local_*.comp), and
//                      collision projections per particle
//     gather rhs       per particle, its element slots in a fixed order
//     J times: jacobi  one Jacobi iteration of (M/h^2 + L) q = b with
//                      Chebyshev acceleration and under-relaxation
//   collide: project   what is left inside a collider onto its surface
//                      (particle/project_collision.comp)
//   update velocity    v = (q - x)/h, x = q (particle/update_velocity.comp)
//   friction/restitution (particle/contact_velocity.comp)
//
// Each row is a dispatch with a barrier after it and timestamps around it.
// The matrix is assembled once per topology on the CPU (pd_system.h); the
// relaxation gamma and the spectral radius rho for Chebyshev are the
// scene's, or derived from the spectrum of the Jacobi iteration matrix,
// estimated on the CPU by Lanczos the first time a time step is used
// (jacobiParameters()).
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include <volk.h>

#include "scene/scene.h"
#include "sim/finite_probe.h"
#include "sim/interaction.h"
#include "sim/pd_system.h"
#include "sim/sim_model.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
class GpuTimer;
class ResidualTracker;

class PdSolver {
public:
    // positions, velocities: the particle buffers of the whole model
    // (PbdSolver owns them), of which this solver reads and writes the PD range.
    PdSolver(const VulkanContext& ctx, const SimModel& model, const GpuBuffer& positions,
             const GpuBuffer& velocities);
    ~PdSolver();
    PdSolver(const PdSolver&) = delete;
    PdSolver& operator=(const PdSolver&) = delete;

    // Timestamped pass runs one frame records (to size the GpuTimer).
    static uint32_t passRunsPerFrame(const SimModel& model, const SolverSettings& settings);

    // Registers the pass names with `timer` (step order); required before recordFrame.
    void registerPasses(GpuTimer& timer);

    // One frame = settings.substeps substeps of h = timeStep / substeps.
    // Starts with the barriers that order it after the previous frame's
    // simulation and drawing; ends with compute writes not yet made visible
    // to anything else. Records nothing for a model without PD particles.
    void recordFrame(VkCommandBuffer cmd, const SolverSettings& settings, GpuTimer& timer);

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

    void uploadColliders(const std::vector<gpu::Collider>& colliders);
    // As PbdSolver::setColliders: recorded into the next recordFrame, no wait.
    void setColliders(const std::vector<gpu::Collider>& colliders);
    // Back to the model's initial state (waits for the queue): the q
    // buffers, contacts and collision targets. The particle buffers are
    // PbdSolver's (PbdSolver::resetState).
    void resetState(const SimModel& model);

    // The dragged PD particle (interaction.h), or none: a closeness term of
    // weight kPdMouseWeight times the particle's row diagonal to the target,
    // added to its right-hand side and diagonal by the gather pass (push
    // constants; nothing else changes, and none restores the step exactly).
    void setMouse(std::optional<MouseAttachment> mouse);
    const std::optional<MouseAttachment>& mouse() const { return mouse_; }

    // Residual tracking (residual_tracker.h): while set and enabled, the last
    // substep records ||b - A q||_2 after the Jacobi iterations of every
    // local/global iteration (series Pd), and the objective g(q^l) of that
    // substep at the shape each iteration starts from, l = 0 .. L, the last
    // after the final global step (series PdEnergy; pd/energy.comp). The
    // value at q^L takes one more local step, run only for the energy: what it
    // writes is rewritten before it is read again, so tracking leaves the
    // simulation bit for bit as it is. The tracker must outlive its use.
    void setResidualTracker(ResidualTracker* tracker);

    // The right-hand side the last gather pass wrote (f in xyz, the absolute
    // diagonal in w, per global particle index; waits for the queue).
    std::vector<glm::vec4> readRhs() const { return rhs_.downloadArray<glm::vec4>(); }
    const PdModel& model() const { return pd_; }

    // As PbdSolver::setFiniteProbe: checks after the passes that write
    // particle state (predict, collisions, each Jacobi iteration, velocity).
    void setFiniteProbe(FiniteProbe* probe) { probe_ = probe; }

    bool empty() const { return pd_.empty(); }
    uint32_t firstParticle() const { return pd_.firstParticle; }
    uint32_t particleCount() const { return pd_.particleCount; }

private:
    struct PassIds;
    void recordSubstep(VkCommandBuffer cmd, const SolverSettings& settings, uint32_t substep, float h,
                       const std::vector<float>& omegas, float gamma, GpuTimer& timer);
    // The local passes on q buffer c, each timed as its own pass, or all as
    // `timedAs` (the energy's extra local step, unprobed).
    void recordLocalStep(VkCommandBuffer cmd, uint32_t c, const gpu::PdParticlePush& particles, GpuTimer& timer,
                         StepPosition at, std::optional<uint32_t> timedAs = std::nullopt);
    // g(q) on q buffer c after its local step, into value `index` of the
    // tracker's PdEnergy series.
    void recordEnergy(VkCommandBuffer cmd, uint32_t c, const gpu::PdParticlePush& particles, uint32_t index,
                      GpuTimer& timer);
    void probePass(VkCommandBuffer cmd, const GpuTimer& timer, uint32_t passId, StepPosition position,
                   ProbedBuffer first, ProbedBuffer second = {});

    const VulkanContext& ctx_;
    PdModel pd_;
    uint32_t colliderCount_ = 0;
    const GpuBuffer& positions_;
    const GpuBuffer& velocities_;

    // Per-step state: q^{k-1}, q^k, q^{k+1} in rotation (indexed by global
    // particle, like every per-particle buffer here), contacts, collision
    // targets, the gathered right-hand side and the element contributions.
    GpuBuffer q_[3];
    GpuBuffer contacts_, collisionTargets_, rhs_, contributions_;
    // Topology, uploaded once.
    GpuBuffer rows_, offDiagonal_, gatherSlots_, springs_, triangles_, tetStrain_, tetVolume_, bending_, attachments_,
        colliders_, meshSdfGrids_;

    std::unique_ptr<ComputeKernel> predict_, collideGenerate_, localSprings_, localTriangles_, localTets_,
        localBending_, localAttachments_, localCollisions_, gather_, jacobi_, projectCollision_, updateVelocity_, contactVelocity_;
    VkDescriptorSet predictSet_{}, collideGenerateSet_{}, gatherSet_{}, contactVelocitySet_{};
    // By the index of the q buffer read.
    VkDescriptorSet springsSets_[3]{}, trianglesSets_[3]{}, tetStrainSets_[3]{}, tetVolumeSets_[3]{},
        bendingSets_[3]{}, attachmentsSets_[3]{}, collisionSets_[3]{}, projectCollisionSets_[3]{},
        updateVelocitySets_[3]{};
    // Jacobi (previous, current, next): [c] = (c, c, c+1) for the first
    // iteration from q^0 in buffer c (q^{-1} = q^0), [3 + c] = (c, c+1, c+2).
    VkDescriptorSet jacobiSets_[6]{};

    std::unique_ptr<ComputeKernel> residual_, energy_;
    VkDescriptorSet residualSets_[3]{}, energySets_[3]{};  // by the q buffer read
    std::optional<MouseAttachment> mouse_;
    ResidualTracker* tracker_ = nullptr;
    std::optional<std::vector<gpu::Collider>> pendingColliders_;

    std::map<float, JacobiSpectrum> spectra_;  // by h
    std::unique_ptr<PassIds> passIds_;
    FiniteProbe* probe_ = nullptr;
};

}  // namespace vksim
