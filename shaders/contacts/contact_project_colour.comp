#version 460
// Contact response, Gauss-Seidel: the constraints of one colour of the
// contact-constraint set (contact_constraint.glsl), one thread each, all
// its particles moved at once: a pair's two, or the four of a
// vertex-triangle or edge-edge constraint (no two constraints of a colour share a
// particle). Colour by colour, each constraint sees the corrections of the
// colours before it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
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
void addContactCorrection(uint i, vec3 d) { p[i].xyz += d; }
#include "contacts/contact_sweep.glsl"

void main() {
    uint colour = pc.round;
    uint first = table.offsets[colour];
    uint pairCount = contactConstraintCount(totals[2], pc.capacity);
    for (uint i = gl_GlobalInvocationID.x; i < table.counts[colour];
         i += dispatches[kFirstColourDispatch + colour].threads)
        projectSweptConstraint(colourLists[first + i], pairCount, pc.pairs);
}
