#version 460
// Copies the range's particles from one vec4 buffer to another: the inertia
// target y (predict's p) into the iterate that vertex block descent updates
// in place (docs/physics.md §9.6).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Source { vec4 source[]; };
layout(std430, binding = 1) writeonly buffer Target { vec4 target[]; };

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    target[i] = source[i];
}
