#version 460
// Contact response, pass 3 of each iteration: the corrections added to the
// working positions, each particle by its own thread (with leftoverOnly,
// the particles of the leftover list, the only ones pass 2 corrected).
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer Corrections { vec4 corrections[]; };
layout(std430, binding = 3) readonly buffer Dispatches { ContactDispatch dispatches[]; };
layout(std430, binding = 4) readonly buffer ColourTable { ContactColourTable table; };
layout(std430, binding = 5) readonly buffer LeftoverParticles { uint leftoverParticles[]; };

void apply(uint k) { p[particles[k].particle].xyz += corrections[k].xyz; }

void main() {
    if (pc.leftoverOnly == 0u) {
        if (gl_GlobalInvocationID.x < pc.count) apply(gl_GlobalInvocationID.x);
        return;
    }
    for (uint i = gl_GlobalInvocationID.x; i < table.leftoverParticles;
         i += dispatches[kLeftoverParticlesDispatch].threads)
        apply(leftoverParticles[i]);
}
