// The structs and push constants of the rigid-body passes (docs/physics.md
// §11), shared by GLSL and C++ (gpu_compat.h).
#ifndef VKSIM_RIGID_TYPES_H
#define VKSIM_RIGID_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// The body-frame constants of one body, uploaded once. The body frame has
// its origin at the centre of mass.
struct RigidBody {
    // Columns of I_ref and of its inverse, the inertia tensor about the
    // centre of mass in the body frame [kg m^2] (xyz; w unused).
    vec4 inertia0;
    vec4 inertia1;
    vec4 inertia2;
    vec4 inverseInertia0;
    vec4 inverseInertia1;
    vec4 inverseInertia2;
    float inverseMass;  // 1/m [1/kg]
    uint firstPoint;    // its contact points: [firstPoint, firstPoint + pointCount) of the point buffer
    uint pointCount;
    float friction;     // kinetic Coulomb coefficient mu_k, combined with a collider's as sqrt(mu_a mu_b)
    float restitution;  // mu_N in [0,1], combined with a collider's as max(mu_a, mu_b)
    float boundingRadius;  // [m] about the centre of mass: the broad phase of body pairs
    float staticFriction;  // static Coulomb coefficient mu_s >= friction, combined as friction is
    float pad2;
};
GPU_CHECK_SIZE(RigidBody, 128);

// The state of one body, stepped every substep; the renderer reads it as
// the body's transform.
struct RigidBodyState {
    vec4 position;         // centre of mass c [m] (xyz)
    vec4 rotation;         // unit quaternion q = (x, y, z, w), body -> world
    vec4 linearVelocity;   // v [m/s] (xyz)
    vec4 angularVelocity;  // omega [rad/s] (xyz), in the world frame
    // v and omega at the start of the current substep, before its velocity
    // update and contacts (xyz): the contacts bounce with them, and the
    // mid-point rule moves the body with their mean with the end ones.
    vec4 startLinearVelocity;
    vec4 startAngularVelocity;
};
GPU_CHECK_SIZE(RigidBodyState, 96);

// What one dispatch of rigid/step_bodies.comp does (RigidPush::phase).
GPU_CONST(uint, kRigidPhaseItems, 0);      // items of the frame's sequence, in one workgroup (rigid_frame_items.h)
GPU_CONST(uint, kRigidPhaseContacts, 1);   // one substep's velocity update (when `integrate`) and collider contacts
GPU_CONST(uint, kRigidPhasePositions, 2);  // one substep's position update and push-out

// RigidPush::integration, bits: the gyroscopic step of omega (else a
// torque-free body keeps omega); the mid-point rule (else symplectic Euler).
GPU_CONST(uint, kRigidGyroscopic, 1);
GPU_CONST(uint, kRigidMidpoint, 2);

// How bodies meet the colliders (RigidPush::contactModel, docs/physics.md §11).
GPU_CONST(uint, kRigidContactImpulse, 0);    // averaged contact, normal and friction impulses, push-out
GPU_CONST(uint, kRigidContactQuadratic, 1);  // penalty force k (buffer - phi) n per point inside the buffer zone
GPU_CONST(uint, kRigidContactBarrier, 2);    // penalty force rho (1/phi - 1/buffer) n per point inside the buffer zone

// Push constants of the rigid-body passes (step_bodies.comp, body_pairs.comp).
struct RigidPush {
    vec4 gravity;          // xyz [m/s^2]
    float dt;              // substep length h [s]
    uint itemCount;        // kRigidPhaseItems: the dispatch runs items [first, first + itemCount)
    uint bodyCount;
    uint colliderCount;
    float linearDamping;   // [1/s]: v *= max(0, 1 - linearDamping h) each substep
    float angularDamping;  // [1/s]: omega *= max(0, 1 - angularDamping h)
    float restingSpeed;    // [m/s]: approach speeds below this do not bounce (restitution fades above it)
    float stencilStep;     // h of the tetrahedral SDF gradient stencil
    uint integration;      // kRigidGyroscopic | kRigidMidpoint
    float penetrationSlop;  // [m]: depth a body may stay inside a collider; deeper is moved out
    uint phase;            // kRigidPhase*
    uint iterations;       // kRigidPhaseItems: contact passes per substep
    uint integrate;        // kRigidPhaseContacts: 1 on a substep's first iteration (update the velocities first)
    uint first;            // body_pairs.comp: the round's pairs [first, first + pairCount); kRigidPhaseItems: the first item
    uint pairCount;        // kRigidPhaseItems: every pair
    uint firstBodyCollider;  // body_colliders.comp: body b is collider firstBodyCollider + b
    uint contactModel;       // kRigidContact*: against the colliders (body pairs always use impulses)
    float penaltyStiffness;  // kRigidContactQuadratic: k [N/m] per contact point
    float barrierStrength;   // kRigidContactBarrier: rho [N m] per contact point
    float penaltyBuffer;     // [m]: the zone above the surface where a penalty acts
    // The dragged body (interaction.h, BodyDrag): xyz the grabbed point in
    // its body frame, w the time constant [s] in which it closes on the target.
    vec4 dragPoint;
    // xyz the target; w the dragged body's index as a float (exact: bodies
    // are far fewer than 2^24), negative when none is dragged (a push block
    // of 128 bytes, the least every device offers, has no room for a uint).
    vec4 dragTarget;
};
GPU_CHECK_SIZE(RigidPush, 128);

// Push constants of the two-way coupling passes (rigid/particle_impulses.comp,
// particle/follow_bodies.comp; docs/physics.md §11, "Two-way coupling").
GPU_CONST(uint, kCouplingVelocities, 0);  // what the substep's velocity passes did: v of bodies and particles
GPU_CONST(uint, kCouplingPositions, 1);   // what a PBD iteration's projections did: poses and p
struct CouplingPush {
    uint firstParticle;  // the particles [firstParticle, firstParticle + particleCount)
    uint particleCount;
    uint bodyCount;
    uint firstBodyCollider;  // body b is collider firstBodyCollider + b
    float dt;                // substep length h [s]
    uint mode;               // kCouplingVelocities or kCouplingPositions
    // kCouplingPositions: the range's origin, which its predicted positions are relative to (ParticlePush).
    float originX, originY, originZ;
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(CouplingPush, 48);

// Per body, what the coupling changed in one pass: the particles that
// touched it take the same rigid change about `centre`, at their point.
struct BodyChange {
    vec4 linear;   // xyz: dV [m/s] (velocities) or dX [m] (positions)
    vec4 angular;  // xyz: dw [rad/s] or the rotation vector [rad]
    vec4 centre;   // xyz: the body's centre of mass before the change [m]
};
GPU_CHECK_SIZE(BodyChange, 48);

GPU_NAMESPACE_END

#endif
