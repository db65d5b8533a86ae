#version 460
// Contact response, Gauss-Seidel: the constraints of one colour of the
// contact-constraint set (contact_constraint.glsl), one thread each, all
// its particles moved at once: a pair's two, or the four of a
// vertex-triangle or edge-edge constraint (no two constraints of a colour share a
// particle). Colour by colour, each constraint sees the corrections of the
// colours before it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 4) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 5) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 6) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 7) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 8) readonly buffer ColourLists { uint colourLists[]; };
#include "contacts/triangle_response.glsl"

void projectPair(uint c) {
    uvec2 pair = constraints[c];
    ContactParticle a = particles[pair.x], b = particles[pair.y];
    if (!contactInPass(a, b, pc.pairs)) return;
    vec4 pk = p[a.particle], pl = p[b.particle];
    vec3 xk = x[a.particle].xyz, xl = x[b.particle].xyz;
    if (!contactActive(pk, pl, xk, xl, a.rest.w + b.rest.w)) return;
    p[a.particle].xyz += contactCorrection(a, b, pair.x, pair.y, pk, pl, xk, xl);
    p[b.particle].xyz += contactCorrection(b, a, pair.y, pair.x, pl, pk, xl, xk);
}

// Four-particle constraint t (triangleContacts[t]).
void projectTriangle(uint t) {
    uvec4 k = triangleParticles(t);
    if (!triangleInPass(k, pc.pairs)) return;
    TriangleState s = triangleState(t, k);
    if (!triangleActive(s)) return;
    TriangleCorrection correction = triangleCorrection(s, k);
    for (uint role = 0u; role < 4u; ++role)
        p[particles[k[role]].particle].xyz += triangleRoleCorrection(correction, s, role);
}

void main() {
    uint colour = pc.round;
    uint first = table.offsets[colour];
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    for (uint i = gl_GlobalInvocationID.x; i < table.counts[colour];
         i += dispatches[kFirstColourDispatch + colour].threads) {
        uint c = colourLists[first + i];
        if (c < pairCount)
            projectPair(c);
        else
            projectTriangle(c - pairCount);
    }
}
