#version 460
// Copies a range's particles from one vec4 buffer to another: the inertia
// target y (predict's p) into the iterate that vertex block descent updates
// in place (docs/physics.md §9.6), and a solver's solved positions into the
// store's p before the contacts after the solves (§14).
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Source { vec4 source[]; };
layout(std430, binding = 1) writeonly buffer Target { vec4 target[]; };

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    target[i] = source[i];
}
