#version 460
// docs/physics.md §5, the element part of the global step's right-hand side, one
// thread per PD particle: f_i = the sum of the particle's contribution slots
// (+ w_c p for an active collision projection, w_c = collisionWeight m_i/h^2)
// in the fixed slot order of its list (no atomics: deterministic), and in w
// the diagonal weight of the absolute (not translation-invariant) terms:
// attachments and the collision. The inertia term m_i/h^2 s_i is added by
// the Jacobi pass, in difference form. The mouse attachment (dragging a
// particle) is one more absolute term, a closeness constraint to the mouse
// target of weight pc.mouseWeight (m_i/h^2 + graphDiagonal_i) on particle
// pc.mouseParticle; kNoParticle (the default) adds nothing.
#include "shared/kernel.glsl"
#include "shared/interaction_types.h"

layout(push_constant) uniform Push { PdGatherPush push; };
#define pc push.particles
layout(std430, binding = 0) readonly buffer Rows { PdRow rows[]; };
layout(std430, binding = 1) readonly buffer GatherSlots { uint gatherSlots[]; };
layout(std430, binding = 2) readonly buffer Contributions { vec4 contributions[]; };
layout(std430, binding = 3) readonly buffer CollisionTargets { vec4 collisionTargets[]; };
layout(std430, binding = 4) writeonly buffer Rhs { vec4 rhs[]; };

void main() {
    uint r = gl_GlobalInvocationID.x;
    if (r >= pc.particleCount) return;
    uint i = pc.firstParticle + r;
    PdRow row = rows[r];
    if (row.mass == 0.0) {  // pinned: the solve leaves it alone
        rhs[i] = vec4(0.0);
        return;
    }
    vec3 f = vec3(0.0);
    for (uint k = row.gatherFirst; k < row.gatherFirst + row.gatherCount; ++k) f += contributions[gatherSlots[k]].xyz;
    float absolute = row.attachmentDiagonal;
    vec4 target = collisionTargets[i];
    if (target.w > 0.0) {
        float weight = pc.collisionWeight * row.mass / (pc.dt * pc.dt);
        f += weight * target.xyz;
        absolute += weight;
    }
    if (i == push.mouseParticle) {
        float weight = push.mouseWeight * (row.mass / (pc.dt * pc.dt) + row.graphDiagonal);
        f += weight * push.mouseTarget.xyz;
        absolute += weight;
    }
    rhs[i] = vec4(f, absolute);
}
