#version 460
// docs/physics.md §1, step 3: collision constraints for the predicted positions. A
// collider becomes a candidate for a particle when the particle is within
// collisionMargin of its surface (plus thickness); the projection passes then
// enforce f(p) - thickness >= 0 for the candidates only. The approach speed
// v.N towards the nearest candidate is kept for restitution and friction.
#include "shared/kernel.glsl"
#include "particle/contact.glsl"

layout(push_constant) uniform Push { ParticlePush pc; };
layout(std430, binding = 0) readonly buffer Predicted { vec4 predicted[]; };
layout(std430, binding = 1) readonly buffer Velocities { vec4 velocities[]; };
layout(std430, binding = 2) readonly buffer Colliders { Collider colliders[]; };
layout(std430, binding = 3) writeonly buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 4) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/sdf.glsl"

void main() {
    if (gl_GlobalInvocationID.x >= pc.particleCount) return;
    uint i = pc.firstParticle + gl_GlobalInvocationID.x;
    vec4 p = predicted[i];
    ParticleContact contact = ParticleContact(0u, 0u, 0.0, 0.0);
    float nearest = 3.4e38;
    if (p.w > 0.0) {
        for (uint c = 0; c < pc.colliderCount; ++c) {
            Collider col = colliders[c];
            float C = sdfWorld(col.type, col.position.xyz, col.rotation, col.size, p.xyz) - col.thickness;
            if (C >= pc.collisionMargin) continue;
            contact.candidates |= 1u << c;
            if (C < nearest) {
                nearest = C;
                vec3 g = sdfGradientTetra(col.type, col.position.xyz, col.rotation, col.size, p.xyz, pc.stencilStep);
                float gl = length(g);
                // Relative to the surface (v - 0 is v, bit for bit, at rest).
                vec3 vc = colliderPointVelocity(col.linearVelocity.xyz, col.angularVelocity.xyz,
                                                col.position.xyz, p.xyz);
                contact.approachSpeed = gl > 0.0 ? dot(velocities[i].xyz - vc, g / gl) : 0.0;
            }
        }
    }
    contacts[i] = contact;
}
