#include "step/tether_stage.h"

#include <algorithm>
#include <string>

#include "vk/compute_kernel.h"
#include "vk/context.h"

namespace vksim {

TetherStage::TetherStage(const VulkanContext& ctx, const SharedModel& model)
    : tethers_(makeStorageBuffer<gpu::SolvedTether>(ctx, model.solvedTethers, "solved tethers")),
      kernel_(std::make_unique<ComputeKernel>(ctx, "particle/project_tethers.comp", sizeof(gpu::TetherPush))) {
    for (const gpu::SolvedTether& t : model.solvedTethers) particles_.push_back(t.particle);
}

TetherStage::~TetherStage() = default;

uint32_t TetherStage::declare(StepPlan& plan, std::string_view prefix, std::string_view owner) {
    return plan.declare(std::string(prefix) + "tethers", StageKind::Solve, std::string(owner));
}

void TetherStage::record(StepRecorder& rec, uint32_t pass, const gpu::ParticlePush& push, Slice slice,
                         const GpuBuffer& solved, const GpuBuffer& velocities, std::string_view solvedName,
                         uint32_t substep) const {
    const gpu::TetherPush tetherPush{push, slice.first, slice.count, 0, 0};
    rec.run(pass, *kernel_, {&solved, &velocities, &tethers_}, slice.count, tetherPush, {substep},
            {&solved, solvedName});
}

}  // namespace vksim
