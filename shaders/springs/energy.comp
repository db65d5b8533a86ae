#version 460
// Energy tracking for the implicit mass-spring methods (docs/physics.md
// §9.3): at the iterate x, per particle i of the range, either its share of
//   F(x) = sum_i m_i/(2h^2)|x_i - y_i|^2 + sigma_i/(2h)|x_i - x0_i|^2
//        + sum_springs E_s + 1/2 sum_ij Q_ij x_i . x_j
// (inertia and drag for free particles; half of each incident spring's
// energy; its row of the quadratic form), or |grad_i F|^2 for a free
// particle (pc.measure). Summed per workgroup in a fixed tree order into
// partials[group] (reduce/sum_partials.comp adds the groups).
#include "shared/kernel.glsl"
#include "shared/spring_types.h"

layout(push_constant) uniform Push { MsImplicitPush pc; };
layout(std430, binding = 0) readonly buffer Start { vec4 start[]; };
layout(std430, binding = 1) readonly buffer Inertia { vec4 inertia[]; };
layout(std430, binding = 2) readonly buffer Current { vec4 current[]; };
layout(std430, binding = 3) writeonly buffer Partials { float partials[]; };

#define MS_TOPOLOGY_BINDING 4
#include "springs/gather.glsl"

vec3 elementPosition(uint j) { return current[j].xyz; }

shared float sums[kWorkgroupSize];

float particleTerm(uint r) {
    uint i = pc.firstParticle + r;
    MsParticle particle = msParticles[r];
    vec3 xi = current[i].xyz;
    float inverseMass = start[i].w;
    float h = pc.dt;
    if (pc.measure == kMeasureGradient) {
        if (inverseMass <= 0.0) return 0.0;
        vec3 g = (xi - inertia[i].xyz) / (inverseMass * h * h) + particle.drag / h * (xi - start[i].xyz) -
                 conservativeForce(i, particle, xi);
        return dot(g, g);
    }
    float term = 0.0;
    if (inverseMass > 0.0) {
        vec3 d = xi - inertia[i].xyz;
        vec3 e = xi - start[i].xyz;
        term = 0.5 * dot(d, d) / (inverseMass * h * h) + 0.5 * particle.drag / h * dot(e, e);
    }
    // Half of each incident spring (the other half is its other end's),
    // and this particle's row of 1/2 x^T Q x.
    return term + 0.5 * springSums(i, particle, xi).energy - 0.5 * dot(xi, quadraticForce(i, particle, xi));
}

void main() {
    uint t = gl_GlobalInvocationID.x;
    uint l = gl_LocalInvocationID.x;
    sums[l] = t < pc.particleCount ? particleTerm(t) : 0.0;
    barrier();
    for (uint stride = kWorkgroupSize / 2; stride > 0; stride /= 2) {
        if (l < stride) sums[l] += sums[l + stride];
        barrier();
    }
    if (l == 0) partials[gl_WorkGroupID.x] = sums[0];
}
