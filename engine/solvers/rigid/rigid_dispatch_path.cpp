#include "solvers/rigid/rigid_dispatch_path.h"

#include "solvers/rigid/rigid_body_buffers.h"
#include "state/collider_set.h"

namespace vksim {

void RigidPathInputs::stepBodies(StepRecorder& rec, uint32_t pass, uint32_t threads, const gpu::RigidPush& push,
                                 StepPosition at) const {
    rec.run(pass, *stepKernel,
            {&bodies->bodies(), &bodies->states(), &bodies->points(), &colliders->meshSdfGrids(), &bodies->shapes(),
             &bodies->pairs(), &colliders->colliders()},
            threads, push, at, probedStates());
}

ProbedBuffer RigidPathInputs::probedStates() const {
    return ProbedBuffer{&bodies->states(), "state", ProbedElements::Bodies};
}

}  // namespace vksim
