#version 460
// The implicit mass-spring methods' first iterate, x = y, relative to the
// solver's origin (springs/relative.glsl), with w the inverse mass: where
// Newton's method and vertex block descent start (docs/physics.md §9.3, §9.6).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) writeonly buffer Iterate { vec4 iterate[]; };

#include "springs/relative.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    iterate[i] = vec4(relativeInertiaTarget(i), start[i].w);
}
