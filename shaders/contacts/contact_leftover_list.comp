#version 460
// After the leftover flags are scanned (contact_leftover_flags.comp), one
// thread per contact particle: each flagged particle into its slot of the
// list, ascending, and the list's indirect dispatch, which the Jacobi
// passes over the leftovers run by (contact_active.comp,
// contact_project.comp, contact_apply.comp). A particle is flagged where
// its scanned offset is below the next one's (the last: below the total).
// Every constraint the colouring left out has all its particles in the
// list, so the passes see every one of them, and a particle outside it
// would add a zero correction.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Offsets { uint offsets[]; };
layout(std430, binding = 1) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 2) writeonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 3) writeonly buffer List { uint leftoverParticles[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k == 0u) dispatches[kLeftoverParticlesDispatch] = contactDispatch(table.leftoverParticles, pc.round);
    if (k >= pc.count) return;
    uint next = k + 1u < pc.count ? offsets[k + 1u] : table.leftoverParticles;
    if (offsets[k] < next) leftoverParticles[offsets[k]] = k;
}
