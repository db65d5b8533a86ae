#include "solvers/pbd/pbd_solver.h"

#include <stdexcept>

#include <fmt/format.h>

#include "solvers/pbd/colour_sweep.h"
#include "solvers/pbd/iteration_stages.h"
#include "solvers/pbd/pbd_tearing.h"
#include "solvers/pbd/per_colour_path.h"

namespace vksim {

PbdSolver::PbdSolver(const VulkanContext& ctx, const PbdModelView& model, ParticleStore& particles,
                     const ColliderSet& colliders, uint32_t iterations, const ContactModel* contacts)
    : particles_(particles), device_(pbdDeviceShape(ctx)) {
    // The constraint arrays go up in the cluster plan's order, which every
    // path reads (each colour is only permuted within itself).
    const ClusterPlan clusterPlan = planPbdClusters(model, device_);
    constraints_ = std::make_unique<PbdConstraints>(ctx, model, clusterPlan, iterations);
    workgroupSolve_ = std::make_unique<WorkgroupSolve>(ctx, device_, particles, colliders, *constraints_);
    colours_ = std::make_unique<ColourSweep>(ctx, particles, *constraints_);
    stages_ = std::make_unique<PbdIterationStages>(ctx, device_, particles, colliders, *constraints_);
    perColour_ = std::make_unique<PerColourPath>(*constraints_, *colours_, *stages_);
    workgroups_ = std::make_unique<WorkgroupPath>(ctx, model, clusterPlan, device_, *constraints_, *workgroupSolve_,
                                                  *stages_, contacts);
    clusters_ = std::make_unique<ClusterPath>(ctx, model, clusterPlan, device_, *constraints_, colliders,
                                              *workgroupSolve_, *colours_, *stages_);
    if (PbdTearing::anyTears(model.pbd))
        tearing_ = std::make_unique<PbdTearing>(ctx, model, *constraints_, particles);
}

PbdSolver::~PbdSolver() = default;

// In the order the plan lists them (docs/architecture.md, "The plan of the
// default scene"): the mouse drag; the cluster sweeps before what they
// leave of the colours; the colour steps, which the per-colour path and the
// cluster path's coloured sweep share; shape matching after them; the
// workgroup path's one pass; the diagnostics.
void PbdSolver::declarePasses(StepPlan& plan) {
    stages_->declareMouse(plan);
    clusters_->declarePasses(plan);
    perColour_->declarePasses(plan);
    colours_->declarePasses(plan);
    stages_->declareShapeMatch(plan);
    workgroups_->declarePasses(plan);
    stages_->declareTracking(plan);
    if (tearing_) tearing_->declarePasses(plan);
    passesDeclared_ = true;
}

void PbdSolver::beginFrame(StepRecorder& rec, const FrameInputs& frame) {
    if (const std::optional<std::string>& misfit = pathMisfit(frame.settings.pbd.path))
        throw std::invalid_argument(
            fmt::format("pbdPath \"{}\": {}", kPbdPathNames[static_cast<size_t>(frame.settings.pbd.path)], *misfit));
    if (frame.settings.pbd.colouring != constraints_->colouring())
        throw std::invalid_argument(fmt::format(
            "pbdColouring \"{}\": the constraints were sorted by the \"{}\" colouring when the world was built, "
            "and it cannot change live (build a new world)",
            kPbdColouringNames[static_cast<size_t>(frame.settings.pbd.colouring)],
            kPbdColouringNames[static_cast<size_t>(constraints_->colouring())]));
    constraints_->recordFrameStart(rec, frame.settings.pbd.iterations);
    if (tearing_) tearing_->recordFrameStart(rec);
}

void PbdSolver::recordFrameEnd(StepRecorder& rec, const FrameInputs& frame) {
    (void)frame;
    if (tearing_) tearing_->recordFrameEnd(rec);
}

void PbdSolver::reset(const SharedModel& model) {
    if (tearing_) tearing_->reset(model);
}

void PbdSolver::addStateBuffers(std::vector<GpuBuffer*>& out) {
    if (tearing_) tearing_->addStateBuffers(out);
}

void PbdSolver::setTearStrains(const std::vector<float>& strains) {
    if (!tearing_) throw std::invalid_argument("no cloth of this world tears (\"tearing\")");
    tearing_->setStrains(strains);
}

const GpuBuffer& PbdSolver::recordSolve(StepRecorder& rec, const SubstepContext& sub) {
    if (!passesDeclared_) throw std::logic_error("PbdSolver::declarePasses must be called before recording");
    return path(pathFor(sub.frame.settings)).recordSolve(rec, sub);
}

bool PbdSolver::recordsWholeFrames(const SolverSettings& settings) const {
    return path(pathFor(settings)).recordsWholeFrames();
}

void PbdSolver::recordFrame(StepRecorder& rec, const FrameInputs& frame, const gpu::ParticlePush& particles) {
    if (!passesDeclared_) throw std::logic_error("PbdSolver::declarePasses must be called before recording");
    path(pathFor(frame.settings)).recordFrame(rec, frame, particles);
}

bool PbdSolver::projectsContactsInSolve(const SolverSettings& settings) const {
    return path(pathFor(settings)).projectsContactsInSolve();
}

PbdDispatchPath& PbdSolver::path(PbdPath path) const {
    switch (path) {
    case PbdPath::PerColour: return *perColour_;
    case PbdPath::Workgroup: return *workgroups_;
    case PbdPath::Clusters: return *clusters_;
    case PbdPath::Auto: break;
    }
    throw std::logic_error("PbdSolver::path: \"auto\" names no path");
}

PbdPath PbdSolver::pathFor(const SolverSettings& settings) const {
    return choosePbdPath(settings.pbd.path, {.cpuDevice = device_.cpuDevice,
                                             .workgroupFits = !workgroups_->misfit(),
                                             .contacts = workgroups_->stepsSubsteps(),
                                             .clustersFit = !clusters_->misfit(),
                                             .clustersSplitAnObject = clusters_->splitsAnObject(),
                                             .largestObjectClusters = clusters_->largestObjectClusters()});
}

std::string PbdSolver::describePath(const SolverSettings& settings) const {
    const PbdPath chosen = pathFor(settings);
    return fmt::format("PBD path: {}{}{}\n", kPbdPathNames[static_cast<size_t>(chosen)],
                       settings.pbd.path == PbdPath::Auto ? " (\"auto\")" : "", path(chosen).describe());
}

const std::optional<std::string>& PbdSolver::pathMisfit(PbdPath requested) const {
    static const std::optional<std::string> fits;
    return requested == PbdPath::Auto ? fits : path(requested).misfit();
}

void PbdSolver::checkSettings(const SolverSettings& settings, const std::string& scenePath) {
    if (settings.pbd.path == PbdPath::Workgroup && workgroups_->misfit())
        throw std::invalid_argument(fmt::format(
            "{}: /solver/pbdPath: \"workgroup\" needs every PBD object to fit one workgroup, but {}; use \"auto\", "
            "\"clusters\" or \"perColour\"",
            scenePath, *workgroups_->misfit()));
    if (settings.pbd.path == PbdPath::Clusters && clusters_->misfit())
        throw std::invalid_argument(fmt::format(
            "{}: /solver/pbdPath: \"clusters\" cannot run this scene here: {}; use \"auto\" or \"perColour\"",
            scenePath, *clusters_->misfit()));
}

std::vector<SolverSettings> PbdSolver::liveVariants(const SolverSettings& settings) const {
    std::vector<SolverSettings> variants;
    for (PbdPath variant : {PbdPath::PerColour, PbdPath::Clusters, PbdPath::Workgroup}) {
        if (pathMisfit(variant)) continue;
        variants.push_back(settings);
        variants.back().pbd.path = variant;
    }
    return variants;
}

}  // namespace vksim
