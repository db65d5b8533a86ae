#version 460
// docs/physics.md §1, "Tethers": one solver range's tethers after its solve,
// on its solved positions (relative to the range's origin), before the
// collision projection and the velocity update. One invocation per tether;
// a particle has at most one, so no two invocations touch the same one.
#include "shared/kernel.glsl"
#include "particle/tether_types.h"
#include "particle/tether_math.glsl"

layout(push_constant) uniform Push { TetherPush pc; };
layout(std430, binding = 0) buffer Solved { vec4 solved[]; };
layout(std430, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Tethers { SolvedTether tethers[]; };

void main() {
    if (gl_GlobalInvocationID.x >= pc.count) return;
    SolvedTether tether = tethers[pc.first + gl_GlobalInvocationID.x];
    uint i = tether.particle;
    vec3 origin = vec3(pc.particles.originX, pc.particles.originY, pc.particles.originZ);
    vec4 p = solved[i];
    TetherProjection r = projectTether(p.xyz, tether.anchor.xyz - origin, tether.anchor.w);
    if (r.normal == vec3(0.0)) return;
    solved[i] = vec4(r.position, p.w);
    velocities[i] = vec4(tetherVelocity(velocities[i].xyz, r.normal), 0.0);
}
