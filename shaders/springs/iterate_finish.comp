#version 460
// The end of an implicit mass-spring solve (docs/physics.md §9.3, §9.6): the
// step's velocity u = (x - x^0)/h, from the iterate relative to the solver's
// origin (springs/relative.glsl), and p = x^0 + h u, the drift the shared
// velocity update recomputes bit for bit (particle/particle_math.glsl,
// positionBasedVelocity): where nothing moves p after the solve the update
// keeps u exactly, and the world position's rounding never reaches it.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"
#include "particle/particle_math.glsl"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Iterate { vec4 iterate[]; };
layout(std430, binding = 2) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 3) writeonly buffer Predicted { vec4 predicted[]; };

#include "springs/relative.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 x0 = start[i];
    vec3 u = x0.w > 0.0 ? (iterate[i].xyz - relativeStart(i)) / pc.dt : vec3(0.0);
    velocities[i] = vec4(u, 0.0);
    predicted[i] = vec4(driftedPosition(x0.xyz, u, pc.dt), x0.w);
}
