#include "solvers/pbd/colour_sweep.h"

#include <string>

#include "shaders/pbd/pbd_types.h"
#include "solvers/pbd/pbd_constraints.h"
#include "solvers/pbd/pbd_dispatch_path.h"
#include "state/particle_store.h"

namespace vksim {

ColourSweep::ColourSweep(const VulkanContext& ctx, const ParticleStore& particles, const PbdConstraints& constraints)
    : particles_(particles), constraints_(constraints) {
    constexpr const char* shaders[kPbdFamilies] = {"pbd/project_distance.comp", "pbd/project_bending.comp",
                                                   "pbd/project_attachment.comp", "pbd/project_tetrahedron.comp"};
    // The tetrahedron kernel only where there are tetrahedra: a cloth scene
    // builds what it did before them.
    for (uint32_t f = 0; f < kPbdFamilies; ++f)
        if (f != gpu::kPbdFamilyTetrahedron || constraints.count(f) > 0)
            projectFamily_[f] = std::make_unique<ComputeKernel>(ctx, shaders[f], sizeof(gpu::ProjectPush));
    if (constraints.colouring() == PbdColouring::AcrossFamilies)
        projectColour_ = std::make_unique<ComputeKernel>(ctx, "pbd/project_colour.comp", sizeof(gpu::ColourPush));
}

ColourSweep::~ColourSweep() = default;

void ColourSweep::declarePasses(StepPlan& plan) {
    passes_.clear();
    for (const ColourStep& step : constraints_.steps())
        passes_.push_back(plan.declare(std::string(kPbdPassPrefix) + step.name, StageKind::Solve, "pbd"));
}

void ColourSweep::record(StepRecorder& rec, const FamilyGroups& groups, uint32_t iteration, uint32_t iterations,
                         float h, StepPosition at) const {
    const GpuBuffer& p = particles_.predicted();
    const PbdConstraints& c = constraints_;
    const std::vector<ColourStep>& steps = c.steps();
    for (size_t s = 0; s < steps.size(); ++s) {
        const ColourStep& step = steps[s];
        gpu::ColourPush push{};
        uint32_t widest = 0, family = 0;
        for (uint32_t f = 0; f < kPbdFamilies; ++f) {
            const ColourRange range = step.range(*groups[f], f);
            push.first[f] = range.first;
            push.count[f] = range.count;
            if (range.count > widest) {
                widest = range.count;
                family = f;  // per family, the step's only one
            }
        }
        if (widest == 0) continue;
        const uint32_t threads = step.serial ? 1 : widest;
        if (projectColour_) {
            push.iteration = iteration;
            push.serial = step.serial ? 1 : 0;
            push.dt = h;
            rec.run(passes_[s], *projectColour_,
                    {&p, &c.constraints(gpu::kPbdFamilyDistance), &c.constraints(gpu::kPbdFamilyBending),
                     &c.constraints(gpu::kPbdFamilyAttachment), &c.materials(), &c.lambdas(gpu::kPbdFamilyDistance),
                     &c.lambdas(gpu::kPbdFamilyBending), &c.lambdas(gpu::kPbdFamilyAttachment),
                     &c.constraints(gpu::kPbdFamilyTetrahedron), &c.lambdas(gpu::kPbdFamilyTetrahedron)},
                    threads, push, at, {&p, kPbdWorkingName});
            continue;
        }
        const gpu::ProjectPush one{push.first[family], push.count[family], iteration, iterations, h,
                                   step.serial ? 1u : 0u, 0, 0};
        rec.run(passes_[s], *projectFamily_[family], {&p, &c.constraints(family), &c.materials(), &c.lambdas(family)},
                threads, one, at, {&p, kPbdWorkingName});
    }
}

}  // namespace vksim
