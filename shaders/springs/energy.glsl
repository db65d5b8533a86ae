// Energy tracking for the implicit mass-spring methods (docs/physics.md
// §9.3): at the iterate x, per particle i of the range, either its share of
// F(x) or |grad_i F|^2 (pc.measure; springs/objective.glsl). Summed per
// workgroup in a fixed tree order into partials[group]
// (reduce/sum_partials.comp adds the groups). energy_contacts.comp's F
// holds the contact energy (springs/objective.glsl).
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Inertia { vec4 inertia[]; };
layout(std430, binding = 2) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 3) writeonly buffer Partials { float partials[]; };

#define MS_TOPOLOGY_BINDING 4
#include "springs/gather.glsl"

vec3 elementPosition(uint j) { return current[j].xyz; }

#include "springs/objective.glsl"

#include "reduce/workgroup_sum.glsl"

float particleTerm(uint r) {
    vec3 xi = current[pc.firstParticle + r].xyz;
    if (pc.measure == kMeasureGradient) {
        vec3 g = objectiveGradient(r, xi);
        return dot(g, g);
    }
    return objectiveTerm(r, xi);
}

void main() {
    uint t = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    float total = workgroupSum(t < pc.particleCount ? particleTerm(t) : 0.0);
    if (l == 0) partials[gl_WorkGroupID.x] = total;
}
