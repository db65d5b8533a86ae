#version 460
// docs/physics.md §15: one thread, once a frame after its substeps: the
// wind's clock (substeps run so far) advances by the frame's substeps. The
// gusts' time lives on the GPU because a frame's commands are recorded once
// and replayed (world/frame_commands.h): a push constant would repeat.
#include "shared/kernel.glsl"
#include "particle/wind_types.h"

layout(push_constant) uniform Push { WindPush pc; };
layout(std430, binding = 0) buffer Clock { uint clock[]; };

void main() {
    if (gl_GlobalInvocationID.x == 0u) clock[0] += pc.substeps;
}
