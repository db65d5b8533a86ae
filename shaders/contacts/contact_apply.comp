#version 460
// Contact response, pass 3 of each iteration: the corrections added to the
// working positions, each particle by its own thread.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer Corrections { vec4 corrections[]; };

void main() {
    uint k = gl_GlobalInvocationID.x;
    if (k >= pc.count) return;
    uint i = particles[k].particle;
    p[i].xyz += corrections[k].xyz;
}
