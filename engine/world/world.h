#pragma once
// The world: a loaded scene running on the GPU, and vksim's public face. It
// owns, once each, the particle store and the collider set (through its
// Stepper, with the solvers and the shared particle stages), the GPU timer
// that names every pass of the step plan, the end-of-frame check for NaN and
// Inf with its replay, residual and energy tracking, and picking. Headless
// runs, the viewer and an application that embeds vksim all drive one of
// these; each records one simulation frame per call into the caller's
// command buffer. docs/architecture.md describes the step plan.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include "contacts/contact_stats_readback.h"
#include "diagnostics/frame_finite_check.h"
#include "diagnostics/picker.h"
#include "scene/scene.h"
#include "solvers/model_builder.h"
#include "solvers/sim_model.h"
#include "solvers/stepper.h"
#include "state/interaction.h"
#include "state/saved_state.h"
#include "step/residual_tracker.h"
#include "vk/gpu_timer.h"
#include "world/frame_commands.h"

namespace vksim {

class VulkanContext;

// The simulation went NaN or Inf. what() is the one-line report (frame, pass,
// substep, iteration, particle), without the "vksim: " prefix.
struct NonFiniteError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

class World {
public:
    // frameSlots: frames in flight (one timer query pool each).
    World(const VulkanContext& ctx, const Scene& scene, uint32_t frameSlots);
    ~World();
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    // Records one frame of simulation with its timestamps and its finite
    // check into `cmd` for frame slot `slot`; call collectTimings(slot) after
    // that slot's fence signals, before recording into the slot again.
    // The frame's commands live in the slot's own secondary command buffer,
    // which `cmd` executes (vkCmdExecuteCommands: afterwards no pipeline,
    // descriptor or push constant of `cmd` is bound). They are recorded when
    // something changed since the slot's last frame (the settings in
    // scene().solver, a drag, a live edit, normals, residuals or pass timings wanted) and
    // replayed otherwise (world/frame_commands.h): the same commands, so
    // the same results, bit for bit. `cmd` must come from a pool of the
    // queue family of the context's.
    void recordFrame(VkCommandBuffer cmd, uint32_t slot);
    // Off: every frame records anew (for comparisons; on by default).
    void setCommandReuse(bool on);
    bool commandReuse() const { return commandReuse_; }
    // Whether each pass is timed (a timestamp pair around it; the default)
    // or only the whole frame (timer().report() then has the step time and
    // every pass's runs, without pass times).
    // The pairs are a large share of a per-colour frame on a CPU driver
    // (docs/architecture.md, the GPU timer); a run nobody reads per-pass
    // times from turns them off. Takes effect from the next frame recorded
    // (a change records the slots anew).
    void setPassTimings(bool on) { passTimings_ = on; }
    bool passTimings() const { return passTimings_; }

    // Reads what the GPU reported about the frame last recorded in `slot`:
    // its pass timings and its finite check. No-op for a slot not in use.
    void collectTimings(uint32_t slot);

    // The frame last collected from `slot` (0-based), when its positions or
    // velocities held a NaN or Inf at the end of the frame.
    std::optional<uint64_t> nonFiniteFrame(uint32_t slot) const { return finiteCheck_->nonFiniteFrame(slot); }

    // For frame loops, right after collectTimings(slot): when that frame went
    // non-finite, finds the pass by replaying from the initial state (waits
    // for the GPU; the replay uses the current solver settings and repeats no
    // other live edit) and throws NonFiniteError with the one-line report.
    void throwIfNonFinite(uint32_t slot) const;

    // --- Picking and dragging (every deformable object: PBD cloth, PD cloth, PD solids).
    //
    // The particle a ray hits: the vertex closest to the hit point of the
    // nearest rendered triangle the ray crosses, else the particle nearest
    // the ray within `radius` [m], else none. A GPU ray cast over the current
    // positions (diagnostics/picker.h); waits for the queue, so call it on a click,
    // not every frame. Throws std::invalid_argument for a non-finite ray, a
    // zero direction or a bad radius.
    std::optional<PickHit> pick(const Ray& ray, float radius = kDefaultPickRadius) const;
    // From the next recorded frame on, `particle` follows `target` through a
    // mouse attachment (interaction.h: for a PBD particle a stiffness-1
    // attachment to a kinematic mouse at the start of every iteration, for a
    // PD particle a closeness term of kPdMouseWeight times its row diagonal
    // in the global system). Call it every
    // frame the target moves: it only changes push constants. A pinned
    // particle (inverse mass 0) does not move. Throws std::invalid_argument for
    // a particle out of range or a non-finite target.
    void drag(uint32_t particle, glm::vec3 target);
    // The rigid body a ray hits (diagnostics/body_pick.h): the nearest crossing
    // of the surface it is drawn with, at its current pose. Reads the poses
    // back, so it waits for the queue: call it on a click. Throws
    // std::invalid_argument for a non-finite ray or a zero direction.
    std::optional<BodyPickHit> pickBody(const Ray& ray) const;
    // From the next recorded frame on, the point `bodyPoint` of `body` (body
    // frame, as BodyPickHit gives it) is pulled towards `target` (interaction.h,
    // BodyDrag). Ends a particle drag, as drag() ends a body drag. Throws
    // std::invalid_argument for a body out of range or a non-finite point.
    void dragBody(uint32_t body, glm::vec3 bodyPoint, glm::vec3 target);
    // Ends the drag, of a particle or a body: the next frame records exactly
    // what it would have without one.
    void release();
    const std::optional<MouseAttachment>& dragged() const { return dragged_; }
    const std::optional<BodyDrag>& draggedBody() const { return draggedBody_; }

    // --- Residuals per iteration (step/residual_tracker.h). Off by default;
    // when off no pass is recorded. The values of a frame arrive with
    // collectTimings() of its slot (a frame or two later, no stall).
    void setResidualTracking(bool on);
    bool residualTracking() const { return residuals_->enabled(); }
    // PBD: mean |C| [m] of the distance constraints after each iteration of
    // the last substep of the frame last collected (its last value is the
    // frame's final state). Empty when not tracked or no distance constraints.
    std::vector<float> lastResidualPerIteration() const { return residuals_->last(ResidualTracker::Series::Pbd); }
    // Projective dynamics: ||b - A q||_2 [N] of the global system after the
    // Jacobi iterations of each local/global iteration of the last substep.
    std::vector<float> lastPdResidualPerIteration() const { return residuals_->last(ResidualTracker::Series::Pd); }
    // Projective dynamics: the objective g(q) [J] the last substep's
    // local/global iteration minimises (inertia + elements + collision
    // projections, pd_solver.h), at q^0 = s and after each global step:
    // localIterations + 1 values.
    std::vector<float> lastPdEnergyPerIteration() const {
        return residuals_->last(ResidualTracker::Series::PdEnergy);
    }
    // XPBD: the objective g(p) [J] of the last substep after each iteration
    // (inertia + sum of C^2 / (2 alpha)); empty unless every PBD constraint
    // is XPBD with compliance > 0 (PbdConstraints::xpbdEnergyDefined()).
    std::vector<float> lastPbdEnergyPerIteration() const {
        return residuals_->last(ResidualTracker::Series::PbdEnergy);
    }
    // Mass-spring, implicit Euler or vertex block descent: the objective F
    // [J] and ||grad F|| [N] of the last substep at x = y and after each
    // Newton iteration or VBD sweep (spring_solver.h); empty for the
    // explicit integrators.
    std::vector<float> lastSpringObjectivePerIteration() const {
        return residuals_->last(ResidualTracker::Series::SpringsObjective);
    }
    std::vector<float> lastSpringGradientPerIteration() const {
        return residuals_->last(ResidualTracker::Series::SpringsGradient);
    }
    // Vertex block descent solids: the implicit Euler objective G [J] of the
    // last substep at the initial guess and after each sweep (vbd_solver.h);
    // iterations + 1 values.
    std::vector<float> lastVbdObjectivePerIteration() const {
        return residuals_->last(ResidualTracker::Series::VbdObjective);
    }
    // Mass-spring, every integrator: each object's total energy [J]
    // (kinetic + springs + gravity, springs/object_energy.comp) at the start
    // of the last frame collected, one value per MsModel::objects entry.
    std::vector<float> lastSpringObjectEnergies() const {
        return residuals_->last(ResidualTracker::Series::SpringsObjectEnergy);
    }
    // The same per object over the last kEnergyHistoryFrames tracked frames
    // collected, oldest first: the convergence panel's energy curves (how
    // each integrator gains, keeps or loses energy, docs/physics.md §9.2).
    // reset() clears it.
    static constexpr size_t kEnergyHistoryFrames = 600;
    const std::vector<std::vector<float>>& springObjectEnergyHistory() const { return springEnergyHistory_; }

    // --- Live parameters. scene() stays the source of truth: these update it
    // and the GPU buffers (recorded into the next frame, no wait). Solver
    // settings (gravity, damping, substeps, iterations...) are read from
    // scene().solver at every frame: edit them there.
    //
    // A solver's materials, through the solver: `change` is a
    // PbdMaterialEdit (solvers/pbd/pbd_materials.h), a PdMaterialEdit
    // (solvers/pd/pd_material_edit.h) or a SpringParamsEdit
    // (solvers/springs/spring_params_edit.h), each of which says what it
    // changes and what it costs. It edits scene() and model() with the
    // solver's buffers, so that the edited world is, bit for bit, a new
    // World of the edited scene. Throws std::invalid_argument, changing
    // nothing, for an edit the scene cannot take (each says which).
    template <class Edit>
    void edit(const Edit& change) {
        commands_->forget();  // the next frame records anew, whatever the edit wrote
        change.apply(scene_, model_, solver<typename Edit::Solver>());
    }
    // The solver settings become `settings` from the next frame on, after
    // the checks a scene's settings pass when it loads (each solver's, the
    // frame's timed passes within timerCapacity(), the GPU time limit).
    // Throws std::invalid_argument, one line starting with `source` and
    // changing nothing, otherwise. (Editing scene().solver directly skips
    // the checks: a frame it cannot step throws when recorded.)
    void setSettings(const SolverSettings& settings, std::string_view source = "settings");
    // Solid `solid`'s material (scene().solids) becomes `material` from the
    // next frame on, through its solver's edit (PdSolidMaterialEdit,
    // PbdSolidMaterialEdit, VbdMaterialEdit): its model, E and nu; the density cannot change
    // (it is the masses). Throws
    // std::invalid_argument, changing nothing, for a solid without a
    // material or a value the scene could not hold.
    void setSolidMaterial(uint32_t solid, const ElasticMaterial& material);
    // Collider `index` becomes `desc`: position, rotation, size, thickness,
    // friction, restitution. Its shape (and a mesh collider's mesh and scale)
    // cannot change. Throws std::invalid_argument otherwise or for bad values.
    // A kinematic collider keeps its keyframes: the pose and velocity given
    // here last until the next substep's keyframe pass.
    void setCollider(uint32_t index, const ColliderDesc& desc);
    // Back to the initial particle state with the current parameters (waits
    // for the queue): the same state, frame for frame, as a new World
    // of scene(). Ends a drag; framesRecorded() starts again at 0.
    void reset();

    // --- Saving and restoring state (state/saved_state.h; waits for the queue).
    // The bytes of everything the GPU carries from one frame to the next
    // (particles, bodies, solver iterates, contact stats) and
    // framesRecorded(). Parameters (materials, colliders, settings) are not
    // state: they stay the loading world's.
    std::string saveState() const;
    // The most bytes a state of this world holds (its sections, and room
    // for the header, the names and a long scene path): what a state file
    // read for it may hold at most.
    uint64_t stateBytesBound() const { return stepper_->stateBytes() + (1u << 20); }
    // Restores such bytes bit for bit: the frames after it are those the
    // saving world stepped after saving, and framesRecorded() continues from
    // its count. Ends a drag. Throws std::invalid_argument, one line
    // starting with `source` (a file name; "state" for bytes from memory),
    // changing nothing, for bytes that are not a vksim state, are damaged,
    // come from another vksim version or format, or from another model
    // (other objects, particle counts, pins, triangles or bodies).
    void loadState(std::string_view bytes, std::string_view source = "state");

    // --- The buffers a renderer reads (device-local, shared without copies).
    // positions(): x in xyz, inverse mass in w, one vec4 per particle (also a
    // vertex buffer); normals(): one vec4 per particle, xyz a unit normal;
    // triangleIndices(): uint32 triples (also an index buffer). Between
    // recordFrame() and a read by the application, record
    // recordReadBarrier(cmd, stage, access) with the stage and access of that
    // read (for example VK_PIPELINE_STAGE_2_VERTEX_ATTRIBUTE_INPUT_BIT and
    // VK_ACCESS_2_VERTEX_ATTRIBUTE_READ_BIT). recordFrame() itself orders its
    // writes after the vertex-input reads of earlier frames.
    const GpuBuffer& positions() const;
    // Computed at the end of every frame while wanted (the default); a run
    // that neither draws nor exports them turns them off, and the frames
    // after setNormalsWanted(true) compute them again.
    const GpuBuffer& normals() const;
    void setNormalsWanted(bool wanted) { normalsWanted_ = wanted; }
    bool normalsWanted() const { return normalsWanted_; }
    const GpuBuffer& triangleIndices() const;
    uint32_t particleCount() const { return model_.particleCount(); }
    uint32_t triangleCount() const { return model_.triangleCount(); }
    static void recordReadBarrier(VkCommandBuffer cmd, VkPipelineStageFlags2 dstStage, VkAccessFlags2 dstAccess);

    const Scene& scene() const { return scene_; }
    Scene& scene() { return scene_; }  // live edits of solver settings
    // The scene keys that give a frame less work ("/solver/substeps, the
    // iterations in /solver/pd; or ..."), for messages about slow frames.
    std::string fewerWorkKeys() const;
    // The model as built from the scene (initial particle state), with the
    // live materials and colliders.
    const SimModel& model() const { return model_; }
    // What building the model left out or found amiss, for the model summary.
    const ModelDiagnostics& diagnostics() const { return diagnostics_; }
    // The particle state (read-back: particles().readPositions()).
    const ParticleStore& particles() const { return stepper_->particles(); }
    // New particle positions or velocities between frames, particleCount()
    // of them (ParticleStore::writePositions; waits for the queue).
    void setPositions(std::span<const glm::vec3> x) { stepper_->particles().writePositions(x); }
    void setVelocities(std::span<const glm::vec3> v) { stepper_->particles().writeVelocities(v); }
    // A solver by its type (PbdSolver, PdSolver, SpringSolver, RigidSolver,
    // from solvers/<name>/): every one exists, empty of particles (or bodies)
    // when the scene has no object of its method. solver<RigidSolver>()
    // .states() holds the bodies' transforms on the GPU, .readStates() reads
    // them back.
    template <class S>
    S& solver() {
        return stepper_->solver<S>();
    }
    template <class S>
    const S& solver() const {
        return std::as_const(*stepper_).solver<S>();
    }
    // The contacts between objects (contacts/contact_stage.h): null when no
    // object has a "contacts" block. contacts()->readStats() reads what the
    // detection found since the world was built or reset (waits for the queue).
    const ContactStage* contacts() const { return stepper_->contacts(); }
    // The wind's passes and buffers; null when no object has "aero".
    const WindStage* wind() const { return stepper_->wind(); }
    // The collider set's buffer (gpu::Collider rows: the scene's colliders,
    // then the bodies'), where the kinematic colliders' poses are written
    // every substep (step/keyframe_stage.h).
    const GpuBuffer& colliderRows() const { return stepper_->colliders().colliders(); }
    // The kinematic colliders' keyframes; null when no collider has any.
    const KeyframeStage* keyframes() const { return stepper_->keyframes(); }
    // The same stats as of the frame last collected (collectTimings(), no
    // stall); nullopt without contacts or before the first collect.
    std::optional<gpu::ContactStats> lastContactStats() const {
        return contactStats_ ? contactStats_->last() : std::nullopt;
    }
    // diagnostics/state_hash.h's fingerprint of the particle positions and the body
    // poses (reads back: waits for the queue).
    uint64_t stateHash() const;
    // Every pass a frame can record, in step order.
    const StepPlan& plan() const { return stepper_->plan(); }
    GpuTimer& timer() { return *timer_; }
    // Timed pass runs one frame with `settings` records at most (residual
    // tracking on, a drag in the costliest solver, the finite check), counted
    // by recording such a frame without a command buffer; settings whose count exceeds timerCapacity() cannot be
    // stepped by this World (live edits check it first).
    uint32_t passRunsPerFrame(const SolverSettings& settings) const;
    uint32_t timerCapacity() const { return timerCapacity_; }
    // A scene whose frame records more timed passes is refused when it
    // loads: each costs about 3.5 kB of host memory per frame in flight in
    // the recorded commands (lavapipe; 0.7 GB at the cap with two in
    // flight), and 1000 substeps x 1000 iterations on the per-colour path
    // (26 million) ran out of memory.
    static constexpr uint32_t kMaxPassRunsPerFrame = 100000;
    uint64_t framesRecorded() const { return framesRecorded_; }
    // Of those, the frames that replayed their slot's commands.
    uint64_t framesReplayed() const { return framesReplayed_; }
    // Host time the last recordFrame() took [ms], and whether it replayed
    // (the bench reports both).
    double lastFrameHostMs() const { return lastFrameHostMs_; }
    bool lastFrameReplayed() const { return lastFrameReplayed_; }

private:
    // collectTimings: the collected frame's object energies onto the history.
    void appendSpringEnergies();
    // After reset() or loadState(): the world's own record of frames begins
    // again at `frame` (no drag, no reused commands or stats, no energy
    // history), and the non-finite replay starts from `start` (null: the model).
    void restartFrames(uint64_t frame, std::shared_ptr<const SavedState> start);
    const VulkanContext& ctx_;
    Scene scene_;
    ModelDiagnostics diagnostics_;  // before model_, which fills it
    SimModel model_;                // the initial state, for replays
    std::unique_ptr<Stepper> stepper_;
    std::unique_ptr<GpuTimer> timer_;
    std::unique_ptr<FrameFiniteCheck> finiteCheck_;
    std::unique_ptr<ContactStatsReadback> contactStats_;  // null without contacts
    std::unique_ptr<Picker> picker_;
    std::unique_ptr<ResidualTracker> residuals_;
    std::vector<std::vector<float>> springEnergyHistory_;  // per spring object, oldest first
    std::optional<MouseAttachment> dragged_;
    // The state last loaded: the non-finite replay starts from it.
    std::shared_ptr<const SavedState> replayStart_;
    std::optional<BodyDrag> draggedBody_;
    uint32_t timerCapacity_ = 0;
    uint64_t framesRecorded_ = 0;
    uint64_t framesReplayed_ = 0;
    double lastFrameHostMs_ = 0.0;
    bool lastFrameReplayed_ = false;
    bool normalsWanted_ = true;
    bool commandReuse_ = true;
    bool passTimings_ = true;
    std::unique_ptr<FrameCommands> commands_;

    // Records the frame's commands for `key` into the slot's command buffer.
    void recordCommands(uint32_t slot, const FrameKey& key);
};

}  // namespace vksim
