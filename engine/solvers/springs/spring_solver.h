#pragma once
// Mass-spring cloth (docs/physics.md §9) on the world's particles: the
// "method": "springs" objects are the last range of the particle store.
// One solver, three ways to advance it (SpringSettings::integrator, live):
//
//   explicit (Euler, symplectic Euler, position and velocity Verlet,
//   midpoint): the integrator hook of the shared stages (§9.2)
//     springs: forces      a(x), before predict
//     predict              the integrator's rule (particle_math.glsl)
//     springs: forces      a(p) (velocity Verlet) or a(x + h/2 v) (midpoint)
//     update velocity      the integrator's rule
//   An object may name its own explicit integrator (SpringClothParams::
//   integrator). When the objects' integrators differ, the range's hook is
//   kIntegratorPerParticle: the solver writes each particle's integrator into
//   the particle store (beginFrame, only when they change), and the same four
//   dispatches apply each particle's own rule, the second force pass where
//   each particle's integrator evaluates it (kForcesAtEachIntegrator).
//
//   implicit Euler by Newton (§9.3): y = predict's p; from x = y,
//   newtonIterations times
//     springs: newton contact totals   with contacts: each row's pairs' s depth summed
//     springs: newton assemble   -grad F and M/h^2 + sigma/h + H, per block row
//     springs: jacobi/chebyshev  jacobiIterations block-Jacobi iterations (linear/)
//     springs: line search       with lineSearch: F(x + alpha dx) for 8 alphas
//     springs: line search choose    the largest alpha that decreases F enough
//     springs: newton update     x += alpha dx
//   Each batch copy (a scene's world is one) is a Newton solve of its own:
//   its Jacobi weights come from its own rows' spectrum, its line search sums
//   its own rows and picks its own alpha, each as a world of the copy alone.
//
//   vertex block descent (§9.6): x = y (springs: vbd init), then
//   vbdIterations sweeps of one pass per vertex colour (springs: vbd colour c).
//
// A dragged particle is put on the mouse target after the solve (springs:
// mouse drag, the PBD grab's kernel): its springs pull the rest along from
// the next substep on. With tracking on, springs: object energy sums each
// object's energy at the start of the frame (one workgroup per object).
//
// Forces, gradients and Hessians are gathered per particle in a fixed order
// (shaders/springs/gather.glsl): the results are deterministic.
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "linear/block_jacobi.h"
#include "linear/jacobi_spectrum.h"
#include "solvers/copy_jacobi_weights.h"
#include "solvers/solver.h"
#include "solvers/springs/spring_model.h"
#include "vk/buffer.h"
#include "vk/compute_kernel.h"

namespace vksim {

class VulkanContext;
struct ContactModel;

class SpringSolver final : public Solver {
public:
    // `contacts`: the stepper's contact model (makeParticleSolvers), null
    // without contacts; its list's capacity sizes Newton's contact couplings.
    SpringSolver(const VulkanContext& ctx, const SpringModelView& model, const ParticleStore& particles,
                 const ContactModel* contacts);
    ~SpringSolver() override;
    SpringSolver(const SpringSolver&) = delete;
    SpringSolver& operator=(const SpringSolver&) = delete;

    std::string_view owner() const override { return "springs"; }
    std::string_view passPrefix() const override { return "springs: "; }
    ParticleRange range() const override { return {ms_.firstParticle, ms_.particleCount}; }
    glm::vec3 origin() const override { return origin_; }
    // The objective and gradient passes: a thread per particle.
    uint32_t residualThreads() const override { return ms_.particleCount; }
    void declarePasses(StepPlan& plan) override;
    // Checks the settings, the Jacobi parameters of an implicit frame, and
    // forgets position Verlet's x^{n-1} when switching to it.
    void beginFrame(StepRecorder& rec, const FrameInputs& frame) override;
    uint32_t integrator(const SolverSettings& settings) const override;
    void stateLoaded() override;
    void recordBeforePredict(StepRecorder& rec, const SubstepContext& sub) override;
    const GpuBuffer& predictTarget() const override { return particles_.predicted(); }
    std::string_view workingName() const override { return "springs x"; }
    const GpuBuffer& recordSolve(StepRecorder& rec, const SubstepContext& sub) override;

    // Throws std::invalid_argument when `settings` cannot step this model
    // (zero iterations, dihedral bending with an implicit method, an object's
    // own integrator with an implicit solver-wide one).
    void checkSettings(const SolverSettings& settings) const;
    // The same as the seam's check: naming `scenePath` and /solver/springs.
    void checkSettings(const SolverSettings& settings, const std::string& scenePath) override;
    // The integrator of each object (MsModel::objects): its own, else the
    // solver's; one, the solver's, for a model built without objects.
    std::vector<SpringIntegrator> objectIntegrators(const SolverSettings& settings) const;
    std::string fewerPassesKeys() const override { return "the iterations in /solver/springs"; }

    // New stiffnesses, drags and locking parameters (a live edit,
    // spring_materials.h): `ms` has the same topology. Uploads the element
    // arrays (waits for the frames in flight) and forgets the spectra.
    void setMaterials(const MsModel& ms);

    // Per batch copy, the block-Jacobi parameters of Newton's linear solves
    // for time step h: mu_min of D^-1 A from Lanczos on the copy's system at
    // the rest shape (no geometric stiffness), once per h; mu_max the bound
    // that holds at every state, the copy's largest stencil (2 with springs
    // alone, 4 with quadratic bending; springCopySpectra, docs/physics.md
    // §9.7). A scene's world has one copy.
    struct JacobiParameters {
        double gamma = 1.0;
        double rho = 0.0;
        linear::JacobiSpectrum spectrum;
    };
    std::vector<JacobiParameters> copyJacobiParameters(float h);

    const MsModel& model() const { return ms_; }
    bool empty() const { return ms_.empty(); }

private:
    struct PassIds;
    // The range and h; Newton's full step alpha = 1.
    gpu::MsImplicitPush implicitPush(const SubstepContext& sub) const;
    gpu::MsForcePush forcePush(const SubstepContext& sub, uint32_t evaluateAt) const;
    void recordForces(StepRecorder& rec, uint32_t pass, const SubstepContext& sub, uint32_t evaluateAt);
    // Writes each object's stage integrator into the particle store where it
    // changed, and clears position Verlet's x^{n-1} of an object that
    // switches to it.
    void recordIntegratorChanges(StepRecorder& rec, const std::vector<SpringIntegrator>& integrators);
    // Each object's energy into the tracker's SpringsObjectEnergy series.
    void recordObjectEnergies(StepRecorder& rec, const SubstepContext& sub);
    // Object k's particles (objectIntegrators' k: the whole range without objects).
    ParticleRange objectRange(size_t k) const;
    // The contact stage whose pairs enter F this substep, or null.
    const ContactStage* energyContacts(const SubstepContext& sub) const;
    const GpuBuffer& recordNewton(StepRecorder& rec, const SubstepContext& sub);
    const GpuBuffer& recordVbd(StepRecorder& rec, const SubstepContext& sub);
    bool usesDihedralBending() const;
    // The line search's tables for copyRows_ (MsLineSearchGroup, MsLineSearchCopy).
    void buildLineSearchGroups(const VulkanContext& ctx);
    // F and ||grad F|| at `x` into value `index` of the tracker's series.
    void recordObjective(StepRecorder& rec, const SubstepContext& sub, const GpuBuffer& x, uint32_t index);

    const VulkanContext& ctx_;
    const ParticleStore& particles_;
    MsModel ms_;
    std::vector<glm::vec4> restPositions_;  // the model's positions, for the spectrum
    glm::vec3 origin_;                      // Solver::origin (solvers/solver_origin.h)

    // Topology, uploaded once (stiffnesses rewritten by setMaterials).
    GpuBuffer particleRecords_, springs_, incidentSprings_, hinges_, incidentHinges_, quadratic_, vertexOrder_;
    GpuBuffer objectRanges_;  // gpu::MsObjectRange per object, for the energy pass
    // The implicit methods' iterate x (indexed by global particle).
    GpuBuffer iterate_;
    GpuBuffer snapshot_;  // with contacts: the iterate before each VBD iteration
    GpuBuffer orderOf_;   // with contacts: each particle's place in the vertex order
    std::unique_ptr<linear::BlockJacobi> newtonSystem_;
    // The batch copies: each one's rows (local, consecutive), each row's
    // copy, and each copy's Jacobi weights (written by beginFrame).
    std::vector<ParticleRange> copyRows_;
    GpuBuffer rowCopies_;
    CopyJacobiWeights jacobiWeights_;
    // Newton's line search, per copy: each workgroup's rows, each copy's
    // groups, their per-workgroup sums of the candidates, and the alpha each
    // copy chose (springs/line_search*.comp).
    GpuBuffer lineSearchGroups_, lineSearchCopies_, lineSearchPartials_, lineSearchChoice_;
    uint32_t lineSearchGroupCount_ = 0;
    std::unique_ptr<ComputeKernel> forces_, newtonAssemble_, newtonJacobi_, newtonUpdate_, vbd_, energy_,
        projectMouse_;
    std::unique_ptr<ComputeKernel> lineSearch_, lineSearchChoose_, objectEnergy_;
    // With contacts in the range: the passes whose objective F holds the
    // contact energy (springs/contact_energy.glsl), which bind the contact
    // buffers after their own, and Newton's Jacobi pass with the pairs'
    // coupling blocks.
    struct ContactKernels {
        std::unique_ptr<ComputeKernel> vbd, newtonContactTotals, newtonAssemble, lineSearch, energy, newtonJacobi;
    };
    std::optional<ContactKernels> contactKernels_;
    // Newton with contacts: each row's contact list entries, and each
    // entry's coupling block (gpu::MsContactCoupling), beside the matrix;
    // each row's touching pairs' normal total at the iterate.
    GpuBuffer rowContacts_, contactCouplings_, contactNormalTotals_;

    std::map<float, std::vector<linear::JacobiSpectrum>> spectra_;  // by h, per copy
    // Each object's integrator in the last frame recorded (empty before the
    // first): what the particle store's integrators and stages hold.
    // nullopt after a loaded state (stateLoaded) whose stage is not
    // Position Verlet's: written again by the next frame.
    std::vector<std::optional<SpringIntegrator>> lastIntegrators_;
    std::unique_ptr<PassIds> passIds_;
};

}  // namespace vksim
