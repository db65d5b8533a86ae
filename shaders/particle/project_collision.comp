#version 460
// docs/physics.md §1: projection of the SDF collision constraints C = f(p) - thickness >= 0
// of each particle's candidate colliders. One thread per particle, so no two
// threads touch the same particle.
#include "shared/kernel.glsl"
#include "particle/particle_math.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Colliders { Collider colliders[]; };
layout(std430, binding = 2) buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 3) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/sdf.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    uint candidates = contacts[i].candidates;
    if (candidates == 0u) return;
    vec4 p = predicted[i];
    uint touching = contacts[i].touching;
    for (uint c = 0; c < pc.colliderCount; ++c) {
        if ((candidates & (1u << c)) == 0u) continue;
        Collider col = colliders[c];
        float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, p.xyz) - col.thickness;
        if (C >= 0.0) continue;
        vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, p.xyz, pc.stencilStep);
        p.xyz += solveCollision(C, g);
        touching |= 1u << c;
    }
    predicted[i] = p;
    contacts[i].touching = touching;
}
