#version 460
// The wind field drawn (engine/render/wind_lines.h): one thread per
// particle, a line from its position along the air's velocity there,
// pc.seconds of flight long, in contact colour 0; a particle whose object
// feels no wind gets a line of no length.
#extension GL_GOOGLE_include_directive : require
#include "particle/wind_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { WindLinesPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Aero { vec4 aero[]; };
layout(std430, binding = 2) readonly buffer Air { vec4 air[]; };
layout(std430, binding = 3) writeonly buffer Vertices { vec4 vertices[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    vec3 p = x[i].xyz;
    bool feels = aero[i].x > 0.0 || aero[i].y > 0.0;
    vertices[2u * i] = vec4(p, 0.0);
    vertices[2u * i + 1u] = vec4(feels ? p + pc.seconds * air[i].xyz : p, 0.0);
}
