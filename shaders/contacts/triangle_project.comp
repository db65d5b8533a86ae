#version 460
// Vertex-triangle response by the Jacobi average, pass 2 of each iteration
// (with leftoverOnly, over the constraints the colouring left out), one
// thread per contact particle: its share of every constraint in its
// incidence list that pushes now, in list order, each constraint weighted
// by 1 / the largest count of its four particles (triangle_active.comp):
// the same weight for all four, so momentum is kept. Every thread that
// evaluates a constraint computes it from the same values, so the four
// shares are those of one projection. contact_apply.comp then adds them.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 4) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 5) readonly buffer IncidenceStart { uint incidenceStart[]; };
layout(std430, binding = 6) readonly buffer IncidenceFill { uint incidenceCount[]; };
layout(std430, binding = 7) readonly buffer Incidence { uint incidence[]; };
layout(std430, binding = 8) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 9) readonly buffer Active { uint touchingCounts[]; };
layout(std430, binding = 10) writeonly buffer Corrections { vec4 corrections[]; };
#include "contacts/triangle_response.glsl"

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint start = incidenceStart[k];
    vec3 sum = vec3(0.0);
    for (uint e = start; e < start + incidenceCount[k]; ++e) {
        uint c = incidence[e] / 4u, role = incidence[e] % 4u;
        if (pc.leftoverOnly != 0u && colours[c] < kContactColours) continue;
        uvec4 q = triangleParticles(c);
        if (!triangleInPass(q, pc.pairs)) continue;
        TriangleState s = triangleState(c, q);
        if (!triangleActive(s)) continue;
        uint most = max(max(touchingCounts[q.x], touchingCounts[q.y]), max(touchingCounts[q.z], touchingCounts[q.w]));
        sum += (1.0 / float(most)) * triangleRoleCorrection(triangleCorrection(s, q), s, role);
    }
    corrections[k] = vec4(sum, 0.0);
}
