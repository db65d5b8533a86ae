#version 460
// Contact response, Gauss-Seidel: the pair constraints of one colour, one
// thread each, both particles moved at once (no two constraints of a colour
// share a particle). Colour by colour, each constraint sees the corrections
// of the colours before it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_response.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) buffer Predicted { vec4 p[]; };
layout(std430, binding = 2) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 3) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 4) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 5) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 6) readonly buffer ColourLists { uint colourLists[]; };

void project(uint c) {
    uvec2 pair = constraints[c];
    ContactParticle a = particles[pair.x], b = particles[pair.y];
    if (!contactInPass(a, b, pc.pairs)) return;
    vec4 pk = p[a.particle], pl = p[b.particle];
    vec3 xk = x[a.particle].xyz, xl = x[b.particle].xyz;
    if (!contactActive(pk, pl, xk, xl, a.rest.w + b.rest.w)) return;
    p[a.particle].xyz += contactCorrection(a, b, pair.x, pair.y, pk, pl, xk, xl);
    p[b.particle].xyz += contactCorrection(b, a, pair.y, pair.x, pl, pk, xl, xk);
}

void main() {
    uint colour = pc.round;
    uint first = table.offsets[colour];
    for (uint i = gl_GlobalInvocationID.x; i < table.counts[colour];
         i += dispatches[kFirstColourDispatch + colour].threads)
        project(colourLists[first + i]);
}
