#version 460
// The tethers and attachments drawn (engine/render/anchor_lines.h): one
// thread per line, from the particle's position to its anchor (a collider
// row's point at the row's pose as the frame left it). Colour: the
// second contact colour where a tether is taut (the particle at its length,
// to 0.1%) or an attachment pulls (the particle 1 mm or more off its
// point), the first otherwise.
#extension GL_GOOGLE_include_directive : require
#include "render/anchor_line_types.h"
#include "shared/sim_types.h"
#include "math/real_glsl.h"
#include "math/quaternion.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { AnchorLinesPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 x[]; };
layout(std430, binding = 1) readonly buffer Lines { AnchorLine lines[]; };
layout(std430, binding = 2) writeonly buffer Vertices { vec4 vertices[]; };
layout(std430, binding = 3) readonly buffer Colliders { Collider colliders[]; };

void main() {
    uint l = gl_GlobalInvocationID.x;
    if (l >= pc.lineCount) return;
    AnchorLine line = lines[l];
    vec3 p = x[line.particle].xyz;
    vec3 anchor = line.anchor.xyz;
    if (line.collider != kAnchorInWorld) {
        Collider row = colliders[line.collider];
        anchor = row.position.xyz + quatRotate(row.rotation, anchor);
    }
    float d = distance(p, anchor);
    bool pulling = line.anchor.w > 0.0 ? d >= 0.999 * line.anchor.w : d >= 1e-3;
    float colour = pulling ? 1.0 : 0.0;
    vertices[2u * l] = vec4(p, colour);
    vertices[2u * l + 1u] = vec4(anchor, colour);
}
