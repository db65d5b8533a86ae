// A body's collider entry (docs/physics.md §11, "Bodies as colliders for
// particles"): its shape (body frame, origin at the centre of mass) placed
// at the body's pose, with the velocity of its surface: a point x of the
// shape moves at v + omega x (x - c), which is the Collider's
// linearVelocity + angularVelocity x (x - position) with
// linearVelocity = v + omega x (position - c). Needs math/quaternion.glsl.
#ifndef VKSIM_BODY_COLLIDER_GLSL
#define VKSIM_BODY_COLLIDER_GLSL

Collider bodyCollider(RigidBodyState s, Collider shape) {
    vec3 origin = s.position.xyz + quatRotate(s.rotation, shape.position.xyz);
    Collider c = shape;
    c.position = vec4(origin, shape.position.w);  // w: the shape's bounding radius (sim/collider_bounds.h)
    c.rotation = s.rotation;
    // w = 1: a body's collider, which takes back the particles' pushes (Collider::linearVelocity).
    c.linearVelocity = vec4(s.linearVelocity.xyz + cross(s.angularVelocity.xyz, origin - s.position.xyz), 1.0);
    c.angularVelocity = vec4(s.angularVelocity.xyz, 0.0);
    return c;
}

#endif
