#version 460
// Newton with contacts (docs/physics.md §14): each row's touching pairs'
// s depth summed at the iterate x^k (springs/contact_energy.glsl's
// contactNormalTotal), once per Newton iteration before the assembly. The
// assembly's static/kinetic choice divides each pair's push by both ends'
// totals (springs/newton_assemble.glsl's contactPairHoldShare); reading them
// here keeps its cost linear in a row's list instead of summing the other
// end's whole list again for every entry.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };      // x^0 of the step (the store's x)
layout(std430, binding = 1) readonly buffer Current { vec4 current[]; };  // the Newton iterate x^k
layout(std430, binding = 2) writeonly buffer NormalTotals { float normalTotals[]; };

#define MS_CONTACTS_BINDING 3
vec3 contactPartner(uint j) { return current[j].xyz; }
#include "springs/contact_energy.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint r = gl_GlobalInvocationID.x;
    uint i = pc.firstParticle + r;
    normalTotals[r] = contactNormalTotal(i, current[i].xyz);
}
