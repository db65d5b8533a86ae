#version 460
// docs/physics.md §11: one round of body pairs per dispatch (no body is in
// two pairs of a round, rigid_model.h), one workgroup per pair
// (rigid/pair_stage.glsl).
#extension GL_GOOGLE_include_directive : require
layout(local_size_x = 64) in;
#include "rigid/rigid_bindings.glsl"
#include "rigid/pair_stage.glsl"

void main() {
    if (gl_WorkGroupID.x >= pc.pairCount) return;  // whole workgroups only: barriers stay uniform
    solvePair(pc.first + gl_WorkGroupID.x);
}
