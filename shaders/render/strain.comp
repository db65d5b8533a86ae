#version 460
// Colour-by-strain display mode: each particle's stretch ratio, that of its
// most deformed stretch constraint (|current / rest - 1| largest), gathered
// per particle from a CSR particle -> stretch constraint adjacency: no
// atomics, deterministic. Reads the solver's positions in place (zero copy)
// and writes one float per particle, bound as a vertex attribute.
#extension GL_GOOGLE_include_directive : require
#include "shared/render_types.h"
layout(local_size_x = 64) in;  // = kWorkgroupSize (checked at pipeline creation)

layout(push_constant) uniform Push { StrainPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Offsets { uint offsets[]; };        // particleCount + 1
layout(std430, binding = 2) readonly buffer Neighbours { uvec2 neighbours[]; };  // (other particle, rest length bits)
layout(std430, binding = 3) writeonly buffer Strain { float strain[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.particleCount) return;
    vec3 p = positions[i].xyz;
    float ratio = 1.0;
    for (uint k = offsets[i]; k < offsets[i + 1]; ++k) {
        uvec2 n = neighbours[k];
        float rest = uintBitsToFloat(n.y);
        float r = rest > 0.0 ? length(positions[n.x].xyz - p) / rest : 1.0;
        if (abs(r - 1.0) > abs(ratio - 1.0)) ratio = r;
    }
    strain[i] = ratio;
}
