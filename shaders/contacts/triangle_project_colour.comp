#version 460
// Vertex-triangle response, Gauss-Seidel: the constraints of one colour,
// one thread each, its four particles moved at once (no two constraints of
// a colour share a particle). Colour by colour, each constraint sees the
// corrections of the colours before it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 4) readonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 5) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 6) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 7) readonly buffer ColourLists { uint colourLists[]; };
#include "contacts/triangle_response.glsl"

void project(uint c) {
    uvec4 k = triangleParticles(c);
    if (!triangleInPass(k, pc.pairs)) return;
    TriangleState s = triangleState(c, k);
    if (!triangleActive(s)) return;
    TriangleCorrection correction = triangleCorrection(s, k);
    for (uint role = 0u; role < 4u; ++role)
        p[particles[k[role]].particle].xyz += triangleRoleCorrection(correction, s, role);
}

void main() {
    uint colour = pc.round;
    uint first = table.offsets[colour];
    for (uint i = gl_GlobalInvocationID.x; i < table.counts[colour];
         i += dispatches[kFirstColourDispatch + colour].threads)
        project(colourLists[first + i]);
}
