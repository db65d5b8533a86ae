#version 460
// Each mass-spring object's total energy (docs/physics.md §9.2, §12), for the
// convergence panel's per-object curves: over its free particles the kinetic
// energy 1/2 m |v|^2 and the gravity potential -m g . x, over every particle
// half of each incident spring's energy and its row of 1/2 x^T Q x (so each
// spring and the quadratic form count once). Dihedral hinges have no energy
// (§9.5). Workgroup g is object g: thread l adds particles l, l + 64, ... in
// order, then a shared-memory tree adds the 64, and thread 0 writes
// results[firstResult + g]. A fixed order and no float atomics: deterministic.
#include "shared/kernel.glsl"
#include "springs/spring_types.h"

layout(push_constant) uniform Push { MsObjectEnergyPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Objects { MsObjectRange objects[]; };
layout(std430, binding = 3) writeonly buffer Results { float results[]; };

#define MS_TOPOLOGY_BINDING 4
#include "springs/gather.glsl"
layout(std430, binding = 8) readonly buffer Gravities { vec4 particleGravities[]; };  // model/shared_model.h
vec4 ownGravity(uint i) { return particleGravities[i]; }
#include "particle/particle_gravity.glsl"

vec3 elementPosition(uint j) { return positions[j].xyz; }

#include "reduce/workgroup_sum.glsl"

float particleEnergy(uint i) {
    MsParticle particle = msParticles[i - pc.firstParticle];
    vec4 x = positions[i];
    float energy = 0.5 * springSums(i, particle, x.xyz).energy - 0.5 * dot(x.xyz, quadraticForce(i, particle, x.xyz));
    if (x.w > 0.0) {
        vec3 v = velocities[i].xyz;
        energy += (0.5 * dot(v, v) - dot(particleGravity(pc.gravity, i), x.xyz)) / x.w;
    }
    return energy;
}

void main() {
    uint g = gl_WorkGroupID.x;
    uint l = gl_LocalInvocationID.x;
    float sum = 0.0;
    if (g < pc.objectCount) {
        MsObjectRange object = objects[g];
        for (uint r = l; r < object.particleCount; r += kWorkgroupSize) sum += particleEnergy(object.firstParticle + r);
    }
    float total = workgroupSum(sum);
    if (l == 0 && g < pc.objectCount) results[pc.firstResult + g] = total;
}
