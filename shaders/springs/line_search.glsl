// Newton's backtracking line search, first pass (docs/physics.md §9.7): per
// particle of the range, its share of F(x + alpha_c dx) for every candidate
// alpha_c = 2^-c, of F(x), and of the slope grad F(x) . dx, each summed per
// workgroup in a fixed tree order (springs/line_search_choose.comp adds a
// copy's groups and picks its alpha). All candidates in one pass: no
// read-back, one dispatch however many halvings. Each batch copy is a line
// search of its own (a scene's world is one copy): workgroup w sums rows of
// one copy only, the same 64 rows as the group of a world of that copy
// alone, into partials[firstPartial + value * groups of its copy]
// (MsLineSearchGroup, SpringSolver).
// line_search_contacts.comp's F holds the contact energy (springs/objective.glsl).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Inertia { vec4 inertia[]; };
layout(std430, binding = 2) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 3) readonly buffer Step { vec4 dx[]; };  // per row (local index)
layout(std430, binding = 4) writeonly buffer Partials { float partials[]; };
layout(std430, binding = 5) readonly buffer Groups { MsLineSearchGroup lineSearchGroups[]; };

#define MS_TOPOLOGY_BINDING 6
#include "springs/gather.glsl"

// The candidate being evaluated: every particle's position is read at
// x + alpha dx (pinned particles stay, as newton_update.comp keeps them).
float candidateAlpha = 0.0;

vec3 movedPosition(uint j, float alpha) {
    vec4 x = current[j];
    return x.w > 0.0 ? x.xyz + alpha * dx[j - pc.firstParticle].xyz : x.xyz;
}

vec3 elementPosition(uint j) { return movedPosition(j, candidateAlpha); }

#include "springs/objective.glsl"

shared float sums[kLineSearchValues][kWorkgroupSize];

void main() {
    // gl_WorkGroupID counts the whole dispatch, split or not (ComputeKernel).
    MsLineSearchGroup group = lineSearchGroups[gl_WorkGroupID.x];
    uint l = gl_LocalInvocationID.x;
    uint t = group.firstRow + l;
    bool inRange = t < group.rowEnd;
    uint i = pc.firstParticle + t;
    float alpha = 1.0;
    for (uint c = 0; c < kLineSearchCandidates; ++c, alpha *= 0.5) {
        candidateAlpha = alpha;
        sums[c][l] = inRange ? objectiveTerm(t, movedPosition(i, alpha)) : 0.0;
    }
    candidateAlpha = 0.0;
    vec3 xi = inRange ? current[i].xyz : vec3(0.0);
    sums[kLineSearchObjective][l] = inRange ? objectiveTerm(t, xi) : 0.0;
    sums[kLineSearchSlope][l] = inRange && current[i].w > 0.0 ? dot(objectiveGradient(t, xi), dx[t].xyz) : 0.0;
    barrier();
    for (uint stride = kWorkgroupSize / 2; stride > 0; stride /= 2) {
        if (l < stride)
            for (uint v = 0; v < kLineSearchValues; ++v) sums[v][l] += sums[v][l + stride];
        barrier();
    }
    if (l == 0)
        for (uint v = 0; v < kLineSearchValues; ++v) partials[group.firstPartial + v * group.copyGroups] = sums[v][0];
}
