#include "solvers/vbd/vbd_solver.h"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>

#include "contacts/contact_stage.h"
#include "shaders/shared/interaction_types.h"
#include "solvers/solver_origin.h"
#include "state/collider_set.h"
#include "step/residual_tracker.h"
#include "vk/context.h"

namespace vksim {
namespace {

// The model's velocities with w = 0: no substep seen yet, so the first
// init takes the inertial guess (a_prev = g).
std::vector<glm::vec4> unseenVelocities(const SharedModel& model) {
    std::vector<glm::vec4> v = model.velocities;
    for (glm::vec4& u : v) u.w = 0.0f;
    return v;
}

}  // namespace

struct VbdSolver::PassIds {
    uint32_t init = 0, planes = 0, energy = 0, mouse = 0, snapshot = 0;
    std::vector<uint32_t> colours;
};

VbdSolver::VbdSolver(const VulkanContext& ctx, const VbdModelView& model, const ParticleStore& particles,
                     const ColliderSet& colliders)
    : particles_(particles),
      colliders_(colliders),
      vbd_(model.vbd),
      origin_(solverOrigin(model.shared, {model.vbd.firstParticle, model.vbd.particleCount})) {
    if (vbd_.empty()) return;
    vertices_ = makeStorageBuffer<gpu::VbdVertex>(ctx, vbd_.vertices, "vbd vertices");
    incidentTets_ = makeStorageBuffer<uint32_t>(ctx, vbd_.incidentTets, "vbd tet incidence");
    tets_ = makeStorageBuffer<gpu::VbdTet>(ctx, vbd_.tets, "vbd tets");
    materials_ = makeStorageBuffer<gpu::ElasticMaterialRow>(ctx, vbd_.materials, "vbd materials");
    vertexOrder_ = makeStorageBuffer<uint32_t>(ctx, vbd_.vertexOrder, "vbd vertex colours");
    iterate_ = makeStorageBuffer<glm::vec4>(ctx, model.shared.positions, "vbd iterate");
    previousVelocities_ = makeStorageBuffer<glm::vec4>(ctx, unseenVelocities(model.shared), "vbd previous velocities");
    planes_ = makeStorageBuffer<glm::vec4>(ctx, std::vector<glm::vec4>(vbd_.particleCount, glm::vec4(0.0f)),
                                           "vbd collider planes");
    frictions_ = makeStorageBuffer<gpu::VbdColliderFriction>(
        ctx, std::vector<gpu::VbdColliderFriction>(vbd_.particleCount, gpu::VbdColliderFriction{}),
        "vbd collider frictions");
    init_ = std::make_unique<ComputeKernel>(ctx, "vbd/vbd_init.comp", sizeof(gpu::VbdPush));
    if (colliders.count() > 0) {
        colliderPlanes_ = std::make_unique<ComputeKernel>(ctx, "vbd/vbd_collider_planes.comp", sizeof(gpu::ParticlePush),
                                                          colliders.particleSpecialization());
    }
    colour_ = std::make_unique<ComputeKernel>(ctx, "vbd/vbd_colour.comp", sizeof(gpu::VbdPush));
    energy_ = std::make_unique<ComputeKernel>(ctx, "vbd/energy.comp", sizeof(gpu::VbdPush));
    projectMouse_ = std::make_unique<ComputeKernel>(ctx, "pbd/project_mouse.comp", sizeof(gpu::MousePush));
    if (hasContacts(model.shared, range())) {
        colourContacts_ = std::make_unique<ComputeKernel>(ctx, "vbd/vbd_colour_contacts.comp", sizeof(gpu::VbdPush));
        energyContacts_ = std::make_unique<ComputeKernel>(ctx, "vbd/energy_contacts.comp", sizeof(gpu::VbdPush));
        snapshot_ = makeStorageBuffer<glm::vec4>(ctx, model.shared.positions, "vbd contact snapshot");
        std::vector<uint32_t> orderOf(vbd_.particleCount);
        for (uint32_t at = 0; at < vbd_.vertexOrder.size(); ++at)
            orderOf[vbd_.vertexOrder[at] - vbd_.firstParticle] = at;
        orderOf_ = makeStorageBuffer<uint32_t>(ctx, orderOf, "vbd vertex order of each particle");
    }
}

VbdSolver::~VbdSolver() = default;

void VbdSolver::reset(const SharedModel& model) {
    if (empty()) return;
    previousVelocities_.uploadArray<glm::vec4>(unseenVelocities(model));
}

void VbdSolver::addStateBuffers(std::vector<GpuBuffer*>& out) {
    if (empty()) return;
    out.push_back(&previousVelocities_);
}

void VbdSolver::declarePasses(StepPlan& plan) {
    passIds_ = std::make_unique<PassIds>();
    PassIds& ids = *passIds_;
    ids.init = plan.declare("vbd: init", StageKind::Solve, "vbd");
    if (colliderPlanes_) ids.planes = plan.declare("vbd: collider planes", StageKind::Solve, "vbd");
    ids.energy = plan.declare("vbd: energy", StageKind::Diagnostic, "vbd");
    ids.mouse = plan.declare("vbd: mouse drag", StageKind::Diagnostic, "vbd");
    if (colourContacts_) ids.snapshot = plan.declare("vbd: contact snapshot", StageKind::Solve, "vbd");
    for (size_t c = 0; c < vbd_.vertexColours.size(); ++c)
        ids.colours.push_back(plan.declare(fmt::format("vbd: sweep colour {}", c), StageKind::Solve, "vbd"));
}

void VbdSolver::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    // The loader reads at least one; a scene built in code might not.
    if (!empty() && settings.vbd.iterations == 0)
        throw std::invalid_argument(
            fmt::format("{}: /solver/vbd/iterations: vertex block descent needs at least one iteration", scenePath));
}

gpu::VbdPush VbdSolver::push(const SubstepContext& sub) const {
    gpu::VbdPush push{};
    push.firstParticle = vbd_.firstParticle;
    push.particleCount = vbd_.particleCount;
    push.dt = sub.h;
    push.originX = origin_.x;
    push.originY = origin_.y;
    push.originZ = origin_.z;
    push.gravityX = sub.particles.gravity.x;
    push.gravityY = sub.particles.gravity.y;
    push.gravityZ = sub.particles.gravity.z;
    push.damping = sub.particles.damping;
    push.gravityFlags = uint32_t(sub.particles.gravity.w) & gpu::kGravityPerParticle;
    push.initialGuess = sub.frame.settings.vbd.initialGuess == VbdInitialGuess::Inertial ? gpu::kVbdGuessInertial
                                                                                         : gpu::kVbdGuessAdaptive;
    if (const ContactStage* contacts = energyContacts(sub)) push.contactCapacity = contacts->model().capacity;
    return push;
}

const ContactStage* VbdSolver::energyContacts(const SubstepContext& sub) const {
    return colourContacts_ ? sub.contacts : nullptr;
}

void VbdSolver::recordObjective(StepRecorder& rec, const SubstepContext& sub, const GpuBuffer& x, uint32_t index) {
    ResidualTracker& tracker = *sub.frame.tracker;
    std::vector<const GpuBuffer*> buffers = {&particles_.predicted(), &x,     &tracker.partials(), &vertices_,
                                             &incidentTets_,          &tets_, &materials_};
    const ContactStage* contacts = energyContacts(sub);
    if (contacts) buffers.insert(buffers.end(), {&particles_.positions(), &contacts->particles(),
                                                 &contacts->detection().counts(), &contacts->detection().offsets(),
                                                 &contacts->detection().neighbours(), &contacts->contactOf()});
    buffers.push_back(&planes_);
    rec.run(passIds_->energy, contacts ? *energyContacts_ : *energy_, buffers, vbd_.particleCount, push(sub));
    tracker.recordSum(rec, ResidualTracker::Series::VbdObjective, index,
                      ResidualTracker::groupsFor(vbd_.particleCount), 1.0f, false);
    rec.barrier();
}

// The initial guess, then every colour of every iteration in place.
const GpuBuffer& VbdSolver::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    if (!passIds_) throw std::logic_error("VbdSolver::declarePasses must be called before recording");
    const PassIds& ids = *passIds_;
    gpu::VbdPush colourPush = push(sub);
    rec.run(ids.init, *init_,
            {&particles_.predicted(), &particles_.velocities(), &iterate_, &previousVelocities_, &particles_.drags(),
             &particles_.gravities()},
            vbd_.particleCount, colourPush, {sub.substep}, {&iterate_, workingName()});
    if (colliderPlanes_)
        rec.run(ids.planes, *colliderPlanes_,
                {&particles_.predicted(), &colliders_.colliders(), &particles_.contacts(), &colliders_.meshSdfGrids(),
                 &planes_, &particles_.positions(), &frictions_},
                vbd_.particleCount, sub.particles, {sub.substep});
    if (sub.tracking) recordObjective(rec, sub, iterate_, 0);
    const ContactStage* contacts = energyContacts(sub);
    for (uint32_t k = 0; k < sub.frame.settings.vbd.iterations; ++k) {
        if (contacts)
            sub.stages.copyRange(rec, ids.snapshot, sub.particles, iterate_, snapshot_, "vbd contact snapshot",
                                 sub.substep);
        for (size_t c = 0; c < vbd_.vertexColours.size(); ++c) {
            colourPush.first = vbd_.vertexColours[c].first;
            colourPush.count = vbd_.vertexColours[c].count;
            if (contacts) {
                const ContactDetection& d = contacts->detection();
                rec.run(ids.colours[c], *colourContacts_,
                        {&particles_.predicted(), &iterate_, &vertexOrder_, &vertices_, &incidentTets_, &tets_,
                         &materials_, &particles_.positions(), &contacts->particles(), &d.counts(), &d.offsets(),
                         &d.neighbours(), &contacts->contactOf(), &snapshot_, &orderOf_, &planes_, &frictions_},
                        colourPush.count, colourPush, {sub.substep, k}, {&iterate_, workingName()});
                continue;
            }
            rec.run(ids.colours[c], *colour_,
                    {&particles_.predicted(), &iterate_, &vertexOrder_, &vertices_, &incidentTets_, &tets_,
                     &materials_, &planes_, &frictions_},
                    colourPush.count, colourPush, {sub.substep, k}, {&iterate_, workingName()});
        }
        if (sub.tracking) recordObjective(rec, sub, iterate_, k + 1);
    }
    const std::optional<MouseAttachment>& mouse = sub.frame.mouse;
    if (mouse && range().contains(mouse->particle)) {
        gpu::MousePush mousePush{};
        mousePush.target = glm::vec4(mouse->target - origin_, 1.0f);  // x is relative to the origin
        mousePush.particle = mouse->particle;
        rec.run(ids.mouse, *projectMouse_, {&particles_.positions(), &iterate_}, 1, mousePush, {sub.substep},
                {&iterate_, workingName()});
    }
    return iterate_;
}

void VbdSolver::setMaterials(const VbdModel& vbd) {
    if (vbd.particleCount != vbd_.particleCount || vbd.tets.size() != vbd_.tets.size() ||
        vbd.materials.size() != vbd_.materials.size())
        throw std::invalid_argument("VbdSolver::setMaterials: the topology changed");
    if (vbd_.empty()) return;
    vbd_ = vbd;
    materials_.uploadArray<gpu::ElasticMaterialRow>(vbd_.materials);
}

}  // namespace vksim
