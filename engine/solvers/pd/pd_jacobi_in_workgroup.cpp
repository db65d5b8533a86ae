#include "solvers/pd/pd_jacobi_in_workgroup.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "vk/barriers.h"
#include "vk/context.h"

namespace vksim {

PdJacobiInWorkgroup::PdJacobiInWorkgroup(const VulkanContext& ctx, const PdJacobiBuffers& buffers)
    : buffers_(buffers) {
    if (buffers.constraints->empty()) return;
    // 16 invocations on a CPU driver, 256 on a GPU, as the PBD workgroup solve.
    const bool cpuDevice = ctx.properties().deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
    kernel_ = std::make_unique<ComputeKernel>(
        ctx, cpuDevice ? "pd/jacobi_in_workgroup_16.comp" : "pd/jacobi_in_workgroup_256.comp",
        sizeof(gpu::PdJacobiRunPush));
}

void PdJacobiInWorkgroup::declarePasses(StepPlan& plan) {
    pass_ = plan.declare(std::string(kPassName), StageKind::Solve, "pd");
}

std::optional<std::string> PdJacobiInWorkgroup::misfit(const SolverSettings& settings) const {
    if (settings.pd.jacobiIterations <= kMaxOmegas) return std::nullopt;
    return fmt::format("{} Jacobi iterations, more than the {} it holds weights for", settings.pd.jacobiIterations,
                       kMaxOmegas);
}

void PdJacobiInWorkgroup::record(StepRecorder& rec, const PdJacobiStep& step) {
    gpu::PdJacobiRunPush run{};
    run.particles = step.particles;
    run.iterations = step.iterations;
    run.firstBuffer = step.first;
    const GpuBuffer* last = buffers_.q[(step.first + step.iterations) % 3];
    const PdConstraints& constraints = *buffers_.constraints;
    rec.run(pass_, *kernel_,
            {buffers_.positions, buffers_.velocities, &constraints.rows(), &constraints.offDiagonal(), buffers_.rhs,
             buffers_.q[0], buffers_.q[1], buffers_.q[2], &constraints.rowCopies(), &constraints.jacobiWeights()},
            kernel_->workgroupSize(), run, step.at, {last, buffers_.workingName});
    rec.countWork({.pdWorkgroupRows = double(step.iterations) * step.particles.particleCount});
}

}  // namespace vksim
