#pragma once
// Vertex block descent for tetrahedral solids (docs/physics.md §16; Chen,
// Liu, Yang & Yuksel 2024) on the world's particles: the "method": "vbd"
// solids are the last range of the particle store. Per substep, after the
// shared predict stage wrote y = x + h v + h^2 g:
//
//   vbd: init          the initial guess (the paper's adaptive one, or y):
//                      keeps predict's velocity for the next substep's
//                      (vbd/vbd_init.comp)
//   vbd: collider planes  with colliders: each particle's half-space of its
//                      nearest candidate scene collider at y, and its
//                      friction's anchor and coefficients
//                      (vbd/vbd_collider_planes.comp)
//   iterations times:
//     vbd: contact snapshot  with contacts in the range: the iterate, which
//                      the contact energy reads a same-colour partner from
//     for each vertex colour c:
//     vbd: sweep colour c    each vertex of the colour: one 3x3 Newton step on
//                      G(x) = sum m/(2h^2)|x - y|^2 + sum_e V_e Psi(F_e)
//                      + the collider penalties and their friction
//                      (vbd/vbd_collider.glsl)
//                      (+ the contact energy of its touching pairs within
//                      the range, vbd_colour_contacts.comp) with its
//                      neighbours held (vbd/vbd_colour.glsl)
//   vbd: mouse drag    a dragged particle onto the target
//
// then the shared stages project the colliders (without the scene
// colliders' friction: holdsColliderFriction), the stepper projects the
// contacts between objects after the solve (projectsContactsInSolve false:
// also those whose energy the sweeps saw), and update
// velocity. With tracking on, vbd: energy records G at the initial guess
// and after each sweep (ResidualTracker::Series::VbdObjective).
//
// Each vertex gathers its incident tets in a fixed order: deterministic.
#include <memory>

#include "solvers/solver.h"
#include "solvers/vbd/vbd_model.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class ColliderSet;
class ContactStage;
class VulkanContext;

class VbdSolver final : public Solver {
public:
    VbdSolver(const VulkanContext& ctx, const VbdModelView& model, const ParticleStore& particles,
              const ColliderSet& colliders);
    ~VbdSolver() override;
    VbdSolver(const VbdSolver&) = delete;
    VbdSolver& operator=(const VbdSolver&) = delete;

    std::string_view owner() const override { return "vbd"; }
    std::string_view passPrefix() const override { return "vbd: "; }
    ParticleRange range() const override { return {vbd_.firstParticle, vbd_.particleCount}; }
    glm::vec3 origin() const override { return origin_; }
    // The energy pass: a thread per particle.
    uint32_t residualThreads() const override { return vbd_.particleCount; }
    void declarePasses(StepPlan& plan) override;
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;
    std::string fewerPassesKeys() const override { return "the iterations in /solver/vbd"; }
    const GpuBuffer& predictTarget() const override { return particles_.predicted(); }
    std::string_view workingName() const override { return "vbd x"; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    // The scene colliders' friction is in the sweeps (vbd/vbd_collider.glsl).
    bool holdsColliderFriction() const override { return true; }
    // The velocities vbd: init saw last (the adaptive guess's previous step).
    void reset(const SharedModel& model) override;
    void addStateBuffers(std::vector<GpuBuffer*>& out) override;

    // New material rows (a live edit, vbd_material_edit.h): `vbd` has the
    // same topology. Uploads them (waits for the frames in flight).
    void setMaterials(const VbdModel& vbd);

    const VbdModel& model() const { return vbd_; }
    bool empty() const { return vbd_.empty(); }

private:
    struct PassIds;
    gpu::VbdPush push(const SubstepContext& sub) const;
    // The contact stage whose pairs enter G this substep, or null.
    const ContactStage* energyContacts(const SubstepContext& sub) const;
    // G at `x` into value `index` of the tracker's VbdObjective series.
    void recordObjective(StepRecorder& rec, const SubstepContext& sub, const GpuBuffer& x, uint32_t index);

    const ParticleStore& particles_;
    const ColliderSet& colliders_;
    VbdModel vbd_;
    glm::vec3 origin_;  // Solver::origin (solvers/solver_origin.h)

    GpuBuffer vertices_, incidentTets_, tets_, materials_, vertexOrder_;
    GpuBuffer iterate_;  // x, indexed by global particle
    // Per particle (global), predict's velocity as vbd: init last read it;
    // w = 1 once read, 0 after a build or reset (no previous step).
    GpuBuffer previousVelocities_;
    // Per particle of the range, the substep's collider half-space
    // (vbd/vbd_collider.glsl): written by colliderPlanes_ where the world
    // has colliders, else zero (none) for good.
    GpuBuffer planes_;
    // Beside each plane, its friction's anchor and coefficients
    // (gpu::VbdColliderFriction), written and read with it.
    GpuBuffer frictions_;
    std::unique_ptr<ComputeKernel> init_, colliderPlanes_, colour_, energy_, projectMouse_;
    // With contacts in the range (docs/physics.md §16): the sweep and energy
    // passes whose G holds the contact energy (springs/contact_energy.glsl),
    // the iterate's snapshot before each iteration, and each particle's
    // place in the vertex order (whether a partner is of the sweep's colour).
    std::unique_ptr<ComputeKernel> colourContacts_, energyContacts_;
    GpuBuffer snapshot_, orderOf_;
    std::unique_ptr<PassIds> passIds_;
};

}  // namespace vksim
