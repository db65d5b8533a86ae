#version 460
// docs/physics.md §1, step 5: v = (p - x) / h, x = p.
#include "shared/kernel.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 2) writeonly buffer Velocities { vec4 velocities[]; };

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 x = positions[i];
    vec4 p = predicted[i];
    velocities[i] = vec4((p.xyz - x.xyz) / pc.dt, 0.0);
    positions[i] = vec4(p.xyz, x.w);
}
