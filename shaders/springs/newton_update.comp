#version 460
// docs/physics.md §9.3: x^{k+1} = x^k + alpha dx for every free particle of
// the range (pinned ones keep x^k = x^0); alpha is the push constant's step,
// or with the line search on, what springs/line_search_choose.comp chose
// for the row's batch copy. Reads the current iterate (the
// inertia target y for the first Newton iteration), writes the solver's
// iterate buffer, which may be the same buffer (each thread touches only its
// own particle).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 1) readonly buffer Step { vec4 dx[]; };  // per row (local index)
layout(std430, binding = 2) writeonly buffer Next { vec4 next[]; };
layout(std430, binding = 3) readonly buffer Choice { float choice[]; };  // each copy's alpha at 4 copy
layout(std430, binding = 4) readonly buffer RowCopies { uint rowCopies[]; };  // per row its batch copy

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint r = gl_GlobalInvocationID.x;
    uint i = pc.firstParticle + r;
    vec4 x = current[i];
    float alpha = pc.lineSearch != 0u ? choice[4u * rowCopies[r]] : pc.step;
    if (x.w > 0.0) x.xyz += alpha * dx[r].xyz;
    next[i] = x;
}
