#include "solvers/pd/pd_jacobi_tiled.h"

#include <algorithm>
#include <string>

#include <glm/glm.hpp>

#include "solvers/pd/pd_jacobi_per_iteration.h"
#include "vk/context.h"

namespace vksim {

PdJacobiTiled::PdJacobiTiled(const VulkanContext& ctx, const PdJacobiBuffers& buffers)
    : ctx_(ctx), buffers_(buffers) {
    if (buffers.constraints->empty()) return;
    // The farthest column from its row, as far as the window (kRows + 2 halo
    // vec4) fits shared memory.
    const uint32_t windowVec4s = ctx.properties().limits.maxComputeSharedMemorySize / sizeof(glm::vec4);
    const uint32_t maxHalo = windowVec4s > kRows ? (windowVec4s - kRows) / 2 : 0;
    halo_ = std::min(pdBandwidth(buffers.constraints->model()), maxHalo);
}

void PdJacobiTiled::declarePasses(StepPlan& plan) {
    pass_ = plan.declare(std::string(kPassName), StageKind::Solve, "pd");
}

void PdJacobiTiled::record(StepRecorder& rec, const PdJacobiStep& step) {
    if (!kernel_) {
        const SpecializationConstant specialization[] = {{0, halo_}};  // kHalo
        kernel_ = std::make_unique<ComputeKernel>(ctx_, "pd/jacobi_tiled.comp", sizeof(gpu::PdParticlePush),
                                                  specialization);
    }
    // Its invocations take kRows / workgroup size rows each.
    const uint32_t rowsPerThread = kRows / kernel_->workgroupSize();
    const uint32_t threads = (step.particles.particleCount + rowsPerThread - 1) / rowsPerThread;
    recordPdJacobiDispatches(rec, pass_, *kernel_, threads, buffers_, step);
}

}  // namespace vksim
