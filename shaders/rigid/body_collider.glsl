// A body's collider entry (docs/physics.md §11, "Bodies as colliders for
// particles"): its shape (body frame, origin at the centre of mass) placed
// at the body's pose, with the velocity of its surface: a point x of the
// shape moves at v + omega x (x - c), which is the Collider's
// linearVelocity + angularVelocity x (x - position) with
// linearVelocity = v + omega x (position - c) (rigid_math.glsl's
// bodyShapeFrame, which the CPU reference shares). Needs math/quaternion.glsl
// and rigid/rigid_math.glsl.
#ifndef VKSIM_BODY_COLLIDER_GLSL
#define VKSIM_BODY_COLLIDER_GLSL

Collider bodyCollider(RigidBodyState s, Collider shape) {
    BodyShapeFrame frame = bodyShapeFrame(s.position.xyz, s.rotation, s.linearVelocity.xyz, s.angularVelocity.xyz,
                                          shape.position.xyz);
    Collider c = shape;
    c.position = vec4(frame.origin, shape.position.w);  // w: the shape's bounding radius (sim/collider_bounds.h)
    c.rotation = s.rotation;
    // w = 1: a body's collider, which takes back the particles' pushes (Collider::linearVelocity).
    c.linearVelocity = vec4(frame.velocity, 1.0);
    // w: the body's batch copy (the shape's; 0 in a scene's world): only the
    // particles of that copy meet it (particle/collider_stages.glsl).
    c.angularVelocity = vec4(s.angularVelocity.xyz, shape.angularVelocity.w);
    return c;
}

#endif
