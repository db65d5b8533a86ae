#include "solvers/pd/pd_jacobi_per_iteration.h"

#include <string>

namespace vksim {

void recordPdJacobiDispatches(StepRecorder& rec, uint32_t pass, const ComputeKernel& kernel, uint32_t threads,
                              const PdJacobiBuffers& buffers, const PdJacobiStep& step) {
    gpu::PdParticlePush push = step.particles;
    const PdConstraints& constraints = *buffers.constraints;
    const uint32_t c = step.first;
    for (uint32_t k = 0; k < step.iterations; ++k) {
        push.iteration = k;
        // (previous, current, next): the first iteration from q^0 has q^{-1} = q^0.
        const uint32_t d = k == 0 ? c : (c + k - 1) % 3;
        const GpuBuffer* previous = buffers.q[d];
        const GpuBuffer* current = k == 0 ? buffers.q[c] : buffers.q[(d + 1) % 3];
        const GpuBuffer* next = k == 0 ? buffers.q[(c + 1) % 3] : buffers.q[(d + 2) % 3];
        rec.run(pass, kernel,
                {buffers.positions, buffers.velocities, &constraints.rows(), &constraints.offDiagonal(), buffers.rhs,
                 previous, current, next, &constraints.rowCopies(), &constraints.jacobiWeights()},
                threads, push, step.at, {next, buffers.workingName});
    }
}

PdJacobiPerIteration::PdJacobiPerIteration(const VulkanContext& ctx, const PdJacobiBuffers& buffers)
    : buffers_(buffers) {
    if (!buffers.constraints->empty())
        kernel_ = std::make_unique<ComputeKernel>(ctx, "pd/jacobi.comp", sizeof(gpu::PdParticlePush));
}

void PdJacobiPerIteration::declarePasses(StepPlan& plan) {
    pass_ = plan.declare(std::string(kPassName), StageKind::Solve, "pd");
}

void PdJacobiPerIteration::record(StepRecorder& rec, const PdJacobiStep& step) {
    recordPdJacobiDispatches(rec, pass_, *kernel_, step.particles.particleCount, buffers_, step);
}

}  // namespace vksim
