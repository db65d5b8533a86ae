#version 460
// Contact response by the Jacobi average, pass 2 of each iteration (with
// leftoverOnly, over the constraints the colouring left out, for the
// particles of the leftover list), one thread per contact particle: its
// correction, summed in list order over the constraints of its incidence
// list that push now (its pairs, then its four-particle constraints, its
// share of each), each weighted by one over the largest touching count of
// the constraint's particles
// (contact_active.comp): the same weight on every particle of a
// constraint, so momentum is kept, and no particle moves by more than the
// average of its corrections (Macklin et al. 2014, §4.2, averaged per
// constraint). Every thread that evaluates a constraint computes it from
// the same values, so its shares are those of one projection.
// contact_apply.comp then adds them.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 4) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 5) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 6) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 7) readonly buffer IncidenceCount { uint incidenceCount[]; };
layout(std430, binding = 8) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 9) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 10) readonly buffer Active { uint touchingCounts[]; };
layout(std430, binding = 11) writeonly buffer Corrections { vec4 corrections[]; };
layout(std430, binding = 12) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 13) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 14) readonly buffer LeftoverParticles { uint leftoverParticles[]; };
#include "contacts/triangle_response.glsl"

void correct(uint k) {
    ContactParticle a = particles[k];
    vec4 pk = p[a.particle];
    vec3 xk = x[a.particle].xyz;
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    uint start = incidenceStart[k];
    vec3 sum = vec3(0.0);
    if (pk.w > 0.0)
        for (uint e = start; e < start + incidenceCount[k]; ++e) {
            uint c = incidence[e] / 4u, role = incidence[e] % 4u;
            if (pc.leftoverOnly != 0u && colours[c] < kContactColours) continue;
            if (c < pairCount) {
                uvec2 pair = constraints[c];
                uint l = pair.x == k ? pair.y : pair.x;
                ContactParticle b = particles[l];
                if (!contactInPass(a, b, pc.pairs)) continue;
                vec4 pl = p[b.particle];
                vec3 xl = x[b.particle].xyz;
                if (!contactActive(pk, pl, xk, xl, a.rest.w + b.rest.w)) continue;
                float weight = 1.0 / float(max(touchingCounts[k], touchingCounts[l]));
                sum += weight * contactCorrection(a, b, k, l, pk, pl, xk, xl);
            } else {
                uint t = c - pairCount;
                uvec4 q = triangleParticles(t);
                if (!triangleInPass(q, pc.pairs)) continue;
                TriangleState s = triangleState(t, q);
                if (!triangleActive(s)) continue;
                uint most = max(max(touchingCounts[q.x], touchingCounts[q.y]),
                                max(touchingCounts[q.z], touchingCounts[q.w]));
                sum += (1.0 / float(most)) * triangleRoleCorrection(triangleCorrection(s, q), s, role);
            }
        }
    corrections[k] = vec4(sum, 0.0);
}

void main() {
    if (pc.leftoverOnly == 0u) {
        if (gl_GlobalInvocationID.x < pc.count) correct(gl_GlobalInvocationID.x);
        return;
    }
    for (uint i = gl_GlobalInvocationID.x; i < table.leftoverParticles;
         i += dispatches[kLeftoverParticlesDispatch].threads)
        correct(leftoverParticles[i]);
}
