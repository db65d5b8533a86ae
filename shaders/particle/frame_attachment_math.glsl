// An attachment to a point of a collider row's frame (docs/physics.md §1,
// "Attachments to bodies and colliders"): the point at the row's current
// pose, and the particle moved towards it. With a radius r > 0 it is a
// motion constraint, one-sided: C = |p - t| - r >= 0 is projected only when
// violated. Needs math/quaternion.glsl. Shared math: see math/real_glsl.h.
#ifndef VKSIM_FRAME_ATTACHMENT_MATH_GLSL
#define VKSIM_FRAME_ATTACHMENT_MATH_GLSL

// The attached point t in the world (or relative to an origin the row's
// position was moved by) for a row at `position` with unit quaternion `rotation`.
real3 frameAttachmentTarget(real3 position, real4 rotation, real3 local) {
    return position + quatRotate(rotation, local);
}

// The move of a particle at p towards its target t that removes `stiffness`
// of C = |p - t| - radius where C > 0 (radius 0: all of p - t); zero where
// the particle is within the radius. The particle takes all of it: the body
// takes its share afterwards, through the two-way coupling's aggregate.
real3 frameAttachmentMove(real3 p, real3 target, real radius, real stiffness) {
    real3 d = p - target;
    if (radius <= real(0)) return -stiffness * d;
    real distance = length(d);
    if (distance <= radius) return real3(0);
    return (-stiffness * (distance - radius) / distance) * d;
}

#endif
