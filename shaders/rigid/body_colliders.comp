#version 460
// docs/physics.md §11, "Bodies as colliders": each body's shape at its
// pose (rigid/body_collider.glsl), written into the collider buffer after
// each of the bodies' substeps, so that the particle solvers' collision
// stages (cloth, soft bodies) meet the bodies as moving colliders, with the
// velocity of the body's surface. One thread per body.
#extension GL_GOOGLE_include_directive : require
#include "shared/kernel.glsl"
#include "rigid/rigid_types.h"
#include "math/quaternion.glsl"
#include "math/coulomb_friction.glsl"
#include "rigid/rigid_math.glsl"
#include "rigid/body_collider.glsl"

layout(push_constant) uniform Push { RigidPush pc; };
layout(std430, binding = 0) readonly buffer States { RigidBodyState states[]; };
layout(std430, binding = 1) readonly buffer Shapes { Collider shapes[]; };
layout(std430, binding = 2) writeonly buffer Colliders { Collider colliders[]; };

void main() {
    uint b = gl_GlobalInvocationID.x;
    if (b >= pc.bodyCount) return;
    colliders[pc.firstBodyCollider + b] = bodyCollider(states[b], shapes[b]);
}
