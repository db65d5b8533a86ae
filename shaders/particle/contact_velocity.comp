#version 460
// docs/physics.md §1, step 6 and docs/physics.md §3: friction and restitution for particles the
// collision projection pushed out of a collider this substep. The normal is
// the stencil gradient of the nearest touching collider at the new position.
#include "shared/kernel.glsl"
#include "particle/contact.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Colliders { Collider colliders[]; };
layout(std430, binding = 3) readonly buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/sdf.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    ParticleContact contact = contacts[i];
    if (contact.touching == 0u) return;
    vec3 x = positions[i].xyz;
    uint nearest = 0u;
    float nearestC = 3.4e38;
    for (uint c = 0; c < pc.colliderCount; ++c) {
        if ((contact.touching & (1u << c)) == 0u) continue;
        Collider col = colliders[c];
        float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, x) - col.thickness;
        if (C < nearestC) {
            nearestC = C;
            nearest = c;
        }
    }
    Collider col = colliders[nearest];
    vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, x, pc.stencilStep);
    float gl = length(g);
    if (gl <= 0.0) return;
    vec3 vc = colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz, col.position.xyz, x);
    vec3 v = movingContactVelocity(velocities[i].xyz, vc, g / gl, contact.approachSpeed, col.friction,
                                   col.restitution, pc.restitutionThreshold);
    velocities[i] = vec4(v, 0.0);
}
