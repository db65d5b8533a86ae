#pragma once
// Position based dynamics (docs/physics.md §1-3; Müller et al. 2007, XPBD
// by Macklin et al. 2016) on the world's particles. One substep's solve is
// n_s Gauss-Seidel iterations over the constraints (PbdConstraints), each
// followed by shape matching (§13) and the collision projection (the shared
// collide-project stage). The shared stages run around it (solvers/solver.h).
//
// Three dispatch paths compute it (SolverSettings::pbd.path), each a
// PbdDispatchPath: per colour (PerColourPath), in one workgroup per object
// (WorkgroupPath), and in clusters (ClusterPath). This class owns the
// constraints and the paths, and hands each frame to the path
// choosePbdPath() picks.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/cluster_path.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "solvers/pbd/pbd_model.h"
#include "solvers/pbd/pbd_path_choice.h"
#include "solvers/pbd/workgroup_path.h"
#include "solvers/pbd/workgroup_solve.h"
#include "solvers/solver.h"

namespace vksim {

class ColliderSet;
class ColourSweep;
class PbdIterationStages;
class PbdTearing;
class PerColourPath;
class VulkanContext;

class PbdSolver final : public Solver {
public:
    static constexpr std::string_view kPassPrefix = kPbdPassPrefix;

    // `iterations`: the first frame's n_s, for which the materials'
    // per-iteration stiffness is computed here (beginFrame again when it changes).
    // Of `particles` it writes the triangle indices only where a cloth tears.
    // `contacts`: the stepper's contact model (makeParticleSolvers), null
    // without contacts.
    PbdSolver(const VulkanContext& ctx, const PbdModelView& model, ParticleStore& particles,
              const ColliderSet& colliders, uint32_t iterations, const ContactModel* contacts);
    ~PbdSolver() override;

    std::string_view owner() const override { return "pbd"; }
    std::string_view passPrefix() const override { return kPassPrefix; }
    ParticleRange range() const override { return constraints_->range(); }
    glm::vec3 origin() const override { return constraints_->origin(); }
    // The energy pass: a thread per particle and per constraint.
    uint32_t residualThreads() const override {
        return static_cast<uint32_t>(constraints_->range().count + constraints_->totalCount());
    }
    void declarePasses(StepPlan& plan) override;
    // A path that does not fit or a colouring other than the constraints',
    // then the constraints' live edits.
    void beginFrame(StepRecorder& rec, const FrameInputs& frame) override;
    const GpuBuffer& predictTarget() const override { return particles_.predicted(); }
    std::string_view workingName() const override { return kPbdWorkingName; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;
    bool projectsCollisionsInSolve() const override { return true; }
    // On every path but the workgroup path (PbdDispatchPath::projectsContactsInSolve).
    bool projectsContactsInSolve(const SolverSettings& settings) const override;
    bool recordsWholeFrames(const SolverSettings& settings) const override;
    // Tearing (pbd_tearing.h), where a cloth tears: after the frame's
    // substeps, whichever path ran them.
    void recordFrameEnd(StepRecorder& rec, const FrameInputs& frame) override;
    // The broken flags of a tearing cloth's constraints are its state.
    void reset(const SharedModel& model) override;
    void addStateBuffers(std::vector<GpuBuffer*>& out) override;
    void recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) override;
    // A path the objects do not fit (pathMisfit()).
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;
    // Every other path the objects fit.
    std::vector<SolverSettings> liveVariants(const SolverSettings& settings) const override;
    std::string fewerPassesKeys() const override {
        return "/solver/iterations or \"pbdPath\": \"workgroup\" or \"clusters\" (/solver/pbdPath)";
    }

    // How a frame with `settings` is dispatched ("auto" resolved).
    PbdPath pathFor(const SolverSettings& settings) const;
    // One line for a run's summary: the path a frame with `settings` takes,
    // whether "auto" chose it, and its workgroups or clusters.
    std::string describePath(const SolverSettings& settings) const;
    // Why `path` cannot run this model on this device, or nothing when it
    // can (PbdDispatchPath::misfit).
    const std::optional<std::string>& pathMisfit(PbdPath path) const;

    // Live material edits: recorded into the next frame, no wait
    // (PbdConstraints::setMaterials).
    void setMaterials(const std::vector<gpu::ConstraintMaterial>& materials) { constraints_->setMaterials(materials); }
    void setElasticMaterials(const std::vector<gpu::ElasticMaterialRow>& rows) {
        constraints_->setElasticMaterials(rows);
    }

    // Live tear thresholds, one per material row (PbdModel::tearStrains),
    // recorded into the next frame; only where a cloth tears.
    void setTearStrains(const std::vector<float>& strains);
    // Null unless some cloth tears.
    const PbdTearing* tearing() const { return tearing_.get(); }

    const PbdConstraints& constraints() const { return *constraints_; }
    const WorkgroupPath& workgroupPath() const { return *workgroups_; }
    const ClusterPath& clusterPath() const { return *clusters_; }
    // For the tests that set the cluster path's variants before the first frame.
    ClusterPath& clusterPath() { return *clusters_; }

private:
    // The path `path` names (not PbdPath::Auto).
    PbdDispatchPath& path(PbdPath path) const;

    const ParticleStore& particles_;
    const PbdDeviceShape device_;
    std::unique_ptr<PbdConstraints> constraints_;
    // What the paths share: the workgroup solve's kernel, the colour steps
    // and the passes around each iteration's projections.
    std::unique_ptr<WorkgroupSolve> workgroupSolve_;
    std::unique_ptr<ColourSweep> colours_;
    std::unique_ptr<PbdIterationStages> stages_;
    std::unique_ptr<PerColourPath> perColour_;
    std::unique_ptr<WorkgroupPath> workgroups_;
    std::unique_ptr<ClusterPath> clusters_;
    std::unique_ptr<PbdTearing> tearing_;
    bool passesDeclared_ = false;
};

}  // namespace vksim
