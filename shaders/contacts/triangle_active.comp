#version 460
// Vertex-triangle response by the Jacobi average, pass 1 of each
// iteration, one thread per contact particle: how many of the constraints
// in its incidence list push now (the average's divisor). With
// leftoverOnly, only over those the colouring left out.
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
layout(std430, binding = 9) writeonly buffer Active { uint touchingCounts[]; };
#include "contacts/triangle_response.glsl"

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint start = incidenceStart[k];
    uint touching = 0u;
    for (uint e = start; e < start + incidenceCount[k]; ++e) {
        uint c = incidence[e] / 4u;
        if (pc.leftoverOnly != 0u && colours[c] < kContactColours) continue;
        uvec4 particlesOf = triangleParticles(c);
        if (!triangleInPass(particlesOf, pc.pairs)) continue;
        if (triangleActive(triangleState(c, particlesOf))) ++touching;
    }
    touchingCounts[k] = touching;
}
