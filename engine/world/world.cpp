#include "world/world.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <fmt/format.h>

#include "diagnostics/body_pick.h"
#include "diagnostics/non_finite_replay.h"
#include "diagnostics/state_hash.h"
#include "geometry/collider_bounds.h"
#include "io/quoted_input.h"
#include "model/collider_builder.h"
#include "solvers/model_builder.h"
#include "solvers/pbd/pbd_materials.h"
#include "solvers/pd/pd_material_edit.h"
#include "solvers/vbd/vbd_material_edit.h"
#include "solvers/rigid/rigid_solver.h"
#include "vk/barriers.h"
#include "vk/context.h"
#include "world/device_limits.h"
#include "world/frame_time_limit.h"

namespace vksim {
namespace {

// `scene`, once it is known to fit the device: a scene too big is refused
// before its model is built, which for a 4096x4096 cloth takes gigabytes.
const Scene& fittingDevice(const VulkanContext& ctx, const Scene& scene) {
    requireFitsDevice(ctx, scene);
    return scene;
}

// The keys that lower a frame's passes, for the solvers that step something.
std::string fewerPassesKeys(const Stepper& stepper) {
    const std::vector<std::string> keys = stepper.fewerPassesKeys();
    if (keys.empty()) return "or the iterations";
    std::string text;
    for (size_t i = 0; i < keys.size(); ++i) text += (i == 0 ? "" : i + 1 == keys.size() ? "; or " : "; ") + keys[i];
    return text;
}

}  // namespace

World::World(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots)
    : ctx_(ctx), scene_(scene), model_(buildModel(fittingDevice(ctx, scene), &diagnostics_)) {
    stepper_ = std::make_unique<Stepper>(ctx, model_, scene_.solver);
    // Settings a solver cannot step its objects with are a scene error: say so now.
    stepper_->checkSettings(scene_.solver, scene_.path);
    finiteCheck_ = std::make_unique<FrameFiniteCheck>(ctx, stepper_->particles(), stepper_->solver<RigidSolver>(), frameSlots);
    finiteCheck_->declarePass(stepper_->plan());
    if (stepper_->contacts())
        contactStats_ = std::make_unique<ContactStatsReadback>(ctx, *stepper_->contacts(), frameSlots);
    residuals_ = std::make_unique<ResidualTracker>(ctx, stepper_->residualThreads(), frameSlots);
    residuals_->declarePasses(stepper_->plan());
    // The most runs a frame records (tracking, a drag, the finite check),
    // with head-room so that live edits of substeps/iterations (up to 4x,
    // within the cap) fit.
    const uint32_t runs = passRunsPerFrame(scene_.solver);
    if (runs > kMaxPassRunsPerFrame)
        throw std::invalid_argument(fmt::format(
            "{}: /solver: a frame of {} substeps records {} GPU passes (every colour, Jacobi step or rigid contact "
            "round of every iteration), at most {}; lower {}",
            scene_.path, scene_.solver.substeps, runs, kMaxPassRunsPerFrame, fewerWorkKeys()));
    // A frame that cannot finish within the GPU time limit on this device.
    refuseFramesPastTimeLimit(ctx, scene_.path, stepper_->frameWork(scene_.solver));
    // Head-room for a live switch of a solver's path too (PBD's per-colour
    // path records a pass per colour where the clusters record two per
    // iteration).
    uint32_t anyPath = runs;
    for (const SolverSettings& other : stepper_->liveVariants(scene_.solver))
        anyPath = std::max(anyPath, passRunsPerFrame(other));
    timerCapacity_ = std::min(4 * anyPath, kMaxPassRunsPerFrame);
    timer_ = std::make_unique<GpuTimer>(ctx, frameSlots, timerCapacity_);
    stepper_->plan().registerPasses(*timer_);
    picker_ = std::make_unique<Picker>(ctx, model_, stepper_->particles().positions(),
                                       stepper_->particles().triangleIndices());
    commands_ = std::make_unique<FrameCommands>(ctx, frameSlots);
}

World::~World() {
    // Its members free what its frames use: none may still be running. After
    // a timeout this waits once more, with a limit, and a GPU that still does
    // not finish is abandoned: the members then leak what they hold (context.h).
    ctx_.waitIdleForTeardown();
}

void World::recordFrame(VkCommandBuffer cmd, uint32_t slot) {
    const auto start = std::chrono::steady_clock::now();
    const FrameKey key{scene_.solver, dragged_, draggedBody_, normalsWanted_, residuals_->enabled(), passTimings_};
    lastFrameReplayed_ = commandReuse_ && commands_->replayable(slot, key);
    if (lastFrameReplayed_) {
        // What recording would have noted on the host: the same passes and
        // sums, and which frame the slot's finite check now belongs to.
        timer_->replayFrame(slot);
        residuals_->replayFrame(slot);
        finiteCheck_->replay(slot, framesRecorded_);
        if (contactStats_) contactStats_->replay(slot);
        ++framesReplayed_;
    } else {
        recordCommands(slot, key);
    }
    const VkCommandBuffer frameCommands = commands_->commands(slot);
    vkCmdExecuteCommands(cmd, 1, &frameCommands);
    ++framesRecorded_;
    lastFrameHostMs_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void World::recordCommands(uint32_t slot, const FrameKey& key) {
    const VkCommandBuffer cmd = commands_->begin(slot);
    timer_->beginFrame(cmd, slot, key.passTimings);
    residuals_->beginFrame(slot);
    StepRecorder rec(cmd, *timer_, stepper_->plan());
    const FrameInputs frame{key.settings, key.residuals ? residuals_.get() : nullptr, key.dragged, key.draggedBody,
                            key.normals};
    stepper_->recordFrame(rec, frame);
    residuals_->endFrame(cmd);
    finiteCheck_->record(rec, slot, framesRecorded_);
    if (contactStats_) contactStats_->record(cmd, slot);
    timer_->endFrame(cmd);
    commands_->end(slot, key, rec.holdsOneTimeWork());
}

void World::setCommandReuse(bool on) {
    commandReuse_ = on;
    commands_->forget();
}

uint32_t World::passRunsPerFrame(const SolverSettings& settings) const {
    return stepper_->maxRunsPerFrame(settings, residuals_.get(),
                                     [this](StepRecorder& rec) { finiteCheck_->record(rec, 0, 0); });
}

void World::collectTimings(uint32_t slot) {
    timer_->collect(slot);
    finiteCheck_->collect(slot);
    if (contactStats_) contactStats_->collect(slot);
    if (residuals_->collect(slot)) appendSpringEnergies();
}

void World::appendSpringEnergies() {
    const std::vector<float>& energies = residuals_->last(ResidualTracker::Series::SpringsObjectEnergy);
    if (energies.empty()) return;
    springEnergyHistory_.resize(energies.size());
    for (size_t k = 0; k < energies.size(); ++k) {
        std::vector<float>& history = springEnergyHistory_[k];
        if (history.size() == kEnergyHistoryFrames) history.erase(history.begin());
        history.push_back(energies[k]);
    }
}

std::string World::fewerWorkKeys() const { return "/solver/substeps, " + fewerPassesKeys(*stepper_); }

std::optional<PickHit> World::pick(const Ray& ray, float radius) const { return picker_->pick(ray, radius); }

void World::drag(uint32_t particle, glm::vec3 target) {
    if (particle >= model_.particleCount())
        throw std::invalid_argument(
            fmt::format("drag: particle {} out of range (the scene has {})", particle, model_.particleCount()));
    if (!std::isfinite(target.x) || !std::isfinite(target.y) || !std::isfinite(target.z))
        throw std::invalid_argument(
            fmt::format("drag: target ({}, {}, {}) is not finite", target.x, target.y, target.z));
    dragged_ = MouseAttachment{particle, target};
    draggedBody_.reset();
}

std::optional<BodyPickHit> World::pickBody(const Ray& ray) const {
    const RigidSolver& rigid = solver<RigidSolver>();
    if (rigid.empty()) return std::nullopt;
    const std::vector<gpu::RigidBodyState> states = rigid.readStates();  // waits for the queue
    return vksim::pickBody(model_.rigid, states, ray);
}

void World::dragBody(uint32_t body, glm::vec3 bodyPoint, glm::vec3 target) {
    if (body >= model_.rigid.bodyCount())
        throw std::invalid_argument(
            fmt::format("dragBody: body {} out of range (the scene has {})", body, model_.rigid.bodyCount()));
    auto finite = [](glm::vec3 v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); };
    if (!finite(bodyPoint) || !finite(target))
        throw std::invalid_argument("dragBody: the point and the target must be finite");
    draggedBody_ = BodyDrag{body, bodyPoint, target};
    dragged_.reset();
}

void World::release() {
    dragged_.reset();
    draggedBody_.reset();
}

void World::setResidualTracking(bool on) {
    residuals_->setEnabled(on);
}

namespace {

bool finiteVec(const glm::vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

}  // namespace

void World::setSolidMaterial(uint32_t solid, const ElasticMaterial& material) {
    if (solid >= scene_.solids.size())
        throw std::invalid_argument(
            fmt::format("solid {} out of range (the scene has {})", solid, scene_.solids.size()));
    const SolidObject& object = scene_.solids[solid];
    if (!object.material)
        throw std::invalid_argument(fmt::format("solid '{}' has no material (its stiffness is projective dynamics' "
                                                "strain and volume)",
                                                clipInput(object.name)));
    switch (object.method) {
        case SolidMethod::Pd: return edit(PdSolidMaterialEdit{solid, material});
        case SolidMethod::Xpbd: return edit(PbdSolidMaterialEdit{solid, material});
        case SolidMethod::Vbd: return edit(VbdMaterialEdit{solid, material});
    }
    throw std::logic_error("World::setSolidMaterial: a solid method without its edit");
}

void World::setCollider(uint32_t index, const ColliderDesc& desc) {
    if (index >= scene_.colliders.size())
        throw std::invalid_argument(
            fmt::format("setCollider: collider {} out of range (the scene has {})", index, scene_.colliders.size()));
    const ColliderDesc& current = scene_.colliders[index];
    const std::string where = fmt::format("setCollider: collider '{}'", clipInput(current.name));
    if (desc.shape != current.shape) throw std::invalid_argument(where + ": its shape cannot change");
    if (desc.shape == ColliderShape::Mesh &&
        (desc.meshSdf != current.meshSdf || desc.meshScale != current.meshScale))
        throw std::invalid_argument(where + ": a mesh collider's mesh and scale cannot change");
    if (!finiteVec(desc.position)) throw std::invalid_argument(where + ": position is not finite");
    if (!finiteVec(desc.linearVelocity) || !finiteVec(desc.angularVelocity))
        throw std::invalid_argument(where + ": velocity or angular velocity is not finite");
    const float norm = glm::length(desc.rotation);
    if (!std::isfinite(norm) || norm < 1e-6f)
        throw std::invalid_argument(where + ": rotation quaternion cannot be normalised");
    if (!(desc.radius > 0.0f) || !std::isfinite(desc.radius) || !(desc.halfLength >= 0.0f) ||
        !std::isfinite(desc.halfLength) || !finiteVec(desc.halfExtents) ||
        !(glm::min(desc.halfExtents.x, glm::min(desc.halfExtents.y, desc.halfExtents.z)) > 0.0f))
        throw std::invalid_argument(where + ": radius, half length and half extents must be finite and positive");
    if (!(desc.thickness >= 0.0f) || !std::isfinite(desc.thickness) || !(desc.friction >= 0.0f) ||
        !std::isfinite(desc.friction) || !(desc.restitution >= 0.0f && desc.restitution <= 1.0f))
        throw std::invalid_argument(
            where + ": thickness and friction must be finite and >= 0, restitution in [0, 1]");
    if (desc.staticFriction && !(*desc.staticFriction >= desc.friction && std::isfinite(*desc.staticFriction)))
        throw std::invalid_argument(where + ": static friction must be finite and at least the friction");
    gpu::Collider collider = toCollider(desc);
    if (desc.shape == ColliderShape::Mesh) collider.size.x = model_.colliders[index].size.x;  // its grid's offset
    collider.position.w = colliderBoundRadius(collider, model_.meshSdfGrids);
    // A kinematic collider keeps its track: its pose and velocity are the
    // keyframes' again from the next substep (docs/physics.md §17).
    ColliderDesc updated = desc;
    updated.rotation = desc.rotation / norm;
    updated.keyframes = scene_.colliders[index].keyframes;
    scene_.colliders[index] = std::move(updated);
    model_.colliders[index] = collider;
    stepper_->colliders().set(model_.colliders);
    commands_->forget();
}

const GpuBuffer& World::positions() const { return stepper_->particles().positions(); }
const GpuBuffer& World::normals() const { return stepper_->particles().normals(); }
const GpuBuffer& World::triangleIndices() const { return stepper_->particles().triangleIndices(); }

void World::recordReadBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess) {
    memoryBarrier(cmd, VK_PIPELINE_STAGE_2_COMPUTE_SHADER_BIT, VK_ACCESS_2_SHADER_STORAGE_WRITE_BIT, dstStage,
                  dstAccess);
}

void World::setSettings(const SolverSettings& settings, std::string_view source) {
    const std::string where(source);
    stepper_->checkSettings(settings, where);
    const uint32_t runs = passRunsPerFrame(settings);
    if (runs > timerCapacity_)
        throw std::invalid_argument(fmt::format(
            "{}: /solver: a frame would record {} timed passes, more than the {} this world's GPU timer holds (4x "
            "the scene's at load); lower {}",
            where, runs, timerCapacity_, fewerWorkKeys()));
    refuseFramesPastTimeLimit(ctx_, where, stepper_->frameWork(settings));
    scene_.solver = settings;
}

void World::reset() {
    stepper_->reset(model_);  // waits for the queue
    restartFrames(0, nullptr);
}

void World::restartFrames(uint64_t frame, std::shared_ptr<const SavedState> start) {
    if (contactStats_) contactStats_->forget();
    release();
    framesRecorded_ = frame;
    framesReplayed_ = 0;
    springEnergyHistory_.clear();
    commands_->forget();
    replayStart_ = std::move(start);
}

void World::throwIfNonFinite(uint32_t slot) const {
    const std::optional<uint64_t> frame = nonFiniteFrame(slot);
    if (!frame) return;
    const std::optional<NonFiniteSite> site =
        findFirstNonFinitePass(ctx_, model_, scene_.solver, *frame, replayStart_.get());
    throw NonFiniteError(site ? describeNonFinite(*site) : describeUnlocatedNonFinite(*frame));
}

uint64_t World::stateHash() const {
    const std::vector<glm::vec4> positions = particles().readPositions();
    const RigidSolver& rigid = solver<RigidSolver>();
    const std::vector<gpu::RigidBodyState> bodies =
        rigid.empty() ? std::vector<gpu::RigidBodyState>{} : rigid.readStates();
    return hashState(positions, bodies);
}

}  // namespace vksim
