#version 460
// docs/physics.md §11, "Bodies as colliders": each body's shape at its
// pose, written into the collider buffer after each of the bodies' substeps, so that
// the particle solvers' collision stages (cloth, soft bodies) meet the
// bodies as moving colliders, with the velocity of the body's surface:
// a point x of the shape moves at v + omega x (x - c), which is the
// Collider's linearVelocity + angularVelocity x (x - position) with
// linearVelocity = v + omega x (position - c). One thread per body.
#extension GL_GOOGLE_include_directive : require
#include "shared/kernel.glsl"
#include "rigid/rigid_types.h"
#include "math/quaternion.glsl"

layout(push_constant) uniform Push { RigidPush pc; };
layout(std430, binding = 0) readonly buffer States { RigidBodyState states[]; };
layout(std430, binding = 1) readonly buffer Shapes { Collider shapes[]; };
layout(std430, binding = 2) writeonly buffer Colliders { Collider colliders[]; };

void main() {
    uint b = gl_GlobalInvocationID.x;
    if (b >= pc.bodyCount) return;
    RigidBodyState s = states[b];
    Collider c = shapes[b];
    vec3 origin = s.position.xyz + quatRotate(s.rotation, c.position.xyz);
    c.position = vec4(origin, c.position.w);  // w: the shape's bounding radius (sim/collider_bounds.h)
    c.rotation = s.rotation;
    // w = 1: a body's collider, which takes back the particles' pushes (Collider::linearVelocity).
    c.linearVelocity = vec4(s.linearVelocity.xyz + cross(s.angularVelocity.xyz, origin - s.position.xyz), 1.0);
    c.angularVelocity = vec4(s.angularVelocity.xyz, 0.0);
    colliders[pc.firstBodyCollider + b] = c;
}
