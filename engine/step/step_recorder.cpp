#include "step/step_recorder.h"

#include "vk/barriers.h"
#include "vk/gpu_timer.h"

namespace vksim {

void StepRecorder::barrier() {
    if (!counting()) computeToComputeBarrier(cmd_);
}

void StepRecorder::indirectBarrier() { computeAndIndirectBarrier(cmd_); }

void StepRecorder::probe(uint32_t pass, StepPosition at, ProbedBuffer first, ProbedBuffer second) {
    if (probe_ && first.buffer && !counting()) probe_->check(cmd_, plan_->name(pass), at, first, second);
}

void StepRecorder::timedDispatch(uint32_t pass, const ComputeKernel& kernel,
                                 std::span<const GpuBuffer* const> buffers, uint32_t count, const void* push,
                                 uint32_t pushSize) {
    beginPass(pass);
    kernel.dispatch(cmd_, buffers, count, push, pushSize);
    endPass();
}

void StepRecorder::beginPass(uint32_t pass) { timer_->beginPass(cmd_, pass); }
void StepRecorder::endPass() { timer_->endPass(cmd_); }

}  // namespace vksim
