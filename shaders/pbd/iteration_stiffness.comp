#version 460
// PBD's per-iteration stiffness k' = 1 - (1 - k)^(1/n_s) of each constraint
// material (docs/physics.md §1), written into the material for the
// projections to read. One pow per material when the materials or n_s
// change (PbdSolver::beginFrame), instead of one per projection: on
// lavapipe that pow was a measurable share of a cluster sweep
// (docs/benchmarks-history.md). The same function on the same device as the
// projections evaluated before, so the same bits.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"
#include "pbd/pbd_constraints.glsl"

layout(push_constant) uniform Push { ProjectPush pc; };  // count: the materials; iterations: n_s
layout(std430, binding = 0) buffer Materials { ConstraintMaterial materials[]; };

void main() {
    uint m = gl_GlobalInvocationID.x;
    if (m >= pc.count) return;
    materials[m].iterationStiffness = pbdIterationStiffness(materials[m].stiffness, pc.iterations);
}
