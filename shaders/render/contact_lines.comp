#version 460
// The contacts drawn (engine/render/contact_lines.h): one thread per
// constraint of the last detection, its two particles' current positions
// as a line's ends, w the constraint's colour (-1: none); thread 0 writes
// the draw's vertex count. pc.capacity is twice the lines drawn.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Totals { uint totals[]; };
layout(std430, binding = 1) readonly buffer Constraints { uvec2 constraints[]; };
layout(std430, binding = 2) readonly buffer Colours { uint colours[]; };
layout(std430, binding = 3) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 4) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 5) writeonly buffer Vertices { vec4 vertices[]; };
// VkDrawIndirectCommand: vertexCount, instanceCount, firstVertex, firstInstance.
layout(std430, binding = 6) writeonly buffer Draw { uvec4 draw; };

void main() {
    uint count = contactConstraintCount(totals[2], pc.capacity);
    uint c = gl_GlobalInvocationID.x;
    if (c == 0u) draw = uvec4(2u * count, 1u, 0u, 0u);
    if (c >= count) return;
    uvec2 pair = constraints[c];
    float colour = colours[c] < kContactColours ? float(colours[c]) : -1.0;
    vertices[2u * c] = vec4(x[particles[pair.x].particle].xyz, colour);
    vertices[2u * c + 1u] = vec4(x[particles[pair.y].particle].xyz, colour);
}
