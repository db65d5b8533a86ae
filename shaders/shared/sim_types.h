// The structs and constants every solver's shaders share, shared by GLSL and
// C++: the particle stages, the colliders and the integrators; each
// solver's own are in its shader folder (pbd/pbd_types.h, pd/pd_types.h,
// springs/spring_types.h, rigid/rigid_types.h). Buffers hold arrays of
// these; push constants are the *Push structs. Particle state is three vec4
// arrays (positions, predicted, velocities): xyz plus, in
// positions/predicted, w = inverse mass (0 = pinned).
#ifndef VKSIM_SIM_TYPES_H
#define VKSIM_SIM_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

GPU_CONST(uint, kWorkgroupSize, 64);
GPU_CONST(uint, kMaxColliders, 32);  // collider masks are one uint per particle

// How the shared predict stage integrates a solver's particles
// (ParticlePush::integrator; Solver::integrator() chooses). Symplectic
// Euler: v += h g (damped), p = x + h v; PBD's and PD's prediction.
GPU_CONST(uint, kIntegratorSymplecticEuler, 0);
// The explicit integrators of forces (the mass-spring solver, docs/physics.md
// §9.2): the solver's force pass writes each particle's acceleration a,
// predict and update velocity apply the rule, keeping what the update needs
// in the particle store's integrator stage buffer.
GPU_CONST(uint, kIntegratorExplicitEuler, 1);      // p = x + h v;  v += h a(x)
GPU_CONST(uint, kIntegratorForceSymplecticEuler, 2);  // v += h a(x); p = x + h v
GPU_CONST(uint, kIntegratorVelocityVerlet, 3);     // v += h/2 a(x); p = x + h v; v += h/2 a(p)
GPU_CONST(uint, kIntegratorMidpoint, 4);           // v^1 = v + h a(x + h/2 v, v + h/2 a(x)); p = x + h (v + h/2 a(x))
GPU_CONST(uint, kIntegratorPositionVerlet, 5);     // p = 2x - x^{n-1} + h^2 a(x); v = (p - x^{n-1}) / 2h
// Each particle's own kIntegrator* (1 to 5), from the particle store's
// per-particle integrator buffer, which the range's solver writes: mass-spring
// objects that integrate differently, side by side in one range and one
// dispatch (docs/physics.md §9.2).
GPU_CONST(uint, kIntegratorPerParticle, 6);
GPU_CONST(uint, kIntegratorCount, 7);
// The specialization constant of predict and update velocity: the
// integrator their pipeline is built for (particle/integrator_constant.glsl),
// or kIntegratorFromPush to read ParticlePush::integrator.
GPU_CONST(uint, kIntegratorConstantId, 10);
GPU_CONST(uint, kIntegratorFromPush, 0xFFFFFFFFu);

// Collider shapes; the SDF is evaluated in the collider's local frame.
GPU_CONST(uint, kColliderPlane, 0);    // local +Y is the normal, through the origin
GPU_CONST(uint, kColliderSphere, 1);   // size.x = radius
GPU_CONST(uint, kColliderBox, 2);      // size.xyz = half extents
GPU_CONST(uint, kColliderCapsule, 3);  // size.x = radius, size.y = half length of the axis (local Y)
// size.x = offset of the collider's signed distance grid in the mesh SDF
// buffer (a float holding an integer, exact below 2^24), size.y = uniform
// scale from mesh units to the local frame (sdf.glsl meshSdfLocal).
GPU_CONST(uint, kColliderMesh, 4);
// A grid in the mesh SDF buffer: samples x, y, z, spacing, origin x, y, z, 0,
// then the samples, x fastest (engine/geometry/signed_distance_grid.h).
GPU_CONST(uint, kMeshSdfHeaderFloats, 8);
// The specialization constant (constant_id) of the kernels that evaluate
// SDFs: bit t set where a collider or body of the world has shape t
// (math/sdf.glsl, world/collider_set.h).
GPU_CONST(uint, kColliderShapesConstantId, 8);

struct Collider {
    // xyz: world position of the local origin; w: the radius of a sphere
    // about it outside which the SDF is at least the distance to the sphere,
    // or negative for none (collision generation culls by it: sim/collider_bounds.h)
    vec4 position;
    vec4 rotation;  // unit quaternion (x, y, z, w), local -> world
    // xyz: shape parameters, see kCollider*; w (no shape uses it): the
    // static Coulomb coefficient mu_s >= friction (math/coulomb_friction.glsl)
    vec4 size;
    uint type;
    float thickness;    // particles stay this far outside the surface
    float friction;     // kinetic Coulomb coefficient mu_k (mu_s: size.w)
    float restitution;  // mu_N in [0,1]
    // The velocity of the collider's frame: a surface point x moves at
    // linearVelocity + angularVelocity x (x - position). Whatever moves the
    // collider (a live edit, later a rigid body) writes it with the new
    // transform; a static collider with a velocity is a conveyor.
    // w: 1 where the collider is a rigid body's shape (rigid/body_colliders.comp), which takes back what
    // it gives the particles (docs/physics.md §11, "Two-way coupling"); 0 for a scene collider.
    vec4 linearVelocity;   // xyz [m/s]
    vec4 angularVelocity;  // xyz [rad/s], about position; w: a body's batch copy (0 for a scene collider)
};
GPU_CHECK_SIZE(Collider, 96);

// Per particle, written by collision generation, read by projection and the
// contact velocity pass.
struct ParticleContact {
    uint candidates;      // bit c: collider c is near the predicted position
    uint touching;        // bit c: the projection pushed this particle out of collider c
    float approachSpeed;  // v.N before projection for the nearest collider (< 0 when approaching)
    // The normal distance the collision stages pushed the particle out over
    // this substep, summed over the projections (docs/physics.md §3,
    // "The normal push"): its normal impulse from the colliders times h/m,
    // the normal of its kinetic friction.
    float pushedOut;
};
GPU_CHECK_SIZE(ParticleContact, 16);

// Per particle and substep, what the rigid bodies did to it (docs/physics.md
// §11, "Two-way coupling"): the sum of the collision corrections a body's
// collider made to its predicted position, plus h times the change its
// friction and restitution made to its velocity, so that its momentum
// changed by m push / h. Reset by collision generation, summed by the
// projections and the contact velocity pass, gathered per body in a fixed
// order by rigid/particle_impulses.comp. One body per particle and substep:
// the first that pushes it.
GPU_CONST(uint, kNoBodyPush, 0xffffffffu);
struct BodyPush {
    float pushX, pushY, pushZ;  // [m]
    uint collider;              // the body's collider entry, or kNoBodyPush
};
GPU_CHECK_SIZE(BodyPush, 16);

// ParticlePush::gravity.w, a sum of these flags held as a float: the wind
// blows (predict adds each particle's wind acceleration to its gravity);
// each particle has its own gravity, from the particle store's per-particle
// gravities (particle/particle_gravity.glsl): the copies of a batch that
// vary /solver/gravity (docs/python.md).
GPU_CONST(uint, kGravityWind, 1u);
GPU_CONST(uint, kGravityPerParticle, 2u);

// Push constants of per-particle passes (predict, collide, update velocity,
// contacts, collision projection). Thread t handles particle firstParticle + t.
struct ParticlePush {
    vec4 gravity;  // xyz; w: the kGravity* flags (wind, per-particle gravity)
    float dt;      // substep length h
    float damping;  // velocity damping rate [1/s]: v *= max(0, 1 - damping*h)
    float collisionMargin;  // extra distance at which a collider becomes a candidate
    float restitutionThreshold;  // approach speeds below this do not bounce (per particle: particle_gravity.glsl)
    uint particleCount;  // particles [firstParticle, firstParticle + particleCount) take part
    uint colliderCount;
    float stencilStep;  // h of the tetrahedral SDF gradient stencil (docs/physics.md §2)
    uint firstParticle;  // PBD: 0; projective dynamics reuses these passes for its own range
    uint integrator;     // kIntegrator*: how predict advances the range
    // The range's origin O (Solver::origin): its predicted positions are
    // p - O, so that far from the world origin they keep their precision
    // (docs/physics.md §9.2, "Far from the origin"). Zero near the origin.
    float originX, originY, originZ;
    // 1 where the range's solver holds the scene colliders' friction in its
    // own solve (Solver::holdsColliderFriction: the VBD solids' sweeps,
    // docs/physics.md §16, "Friction in the sweeps", and projective
    // dynamics' collision targets, §5): the projection's
    // static and the contact velocity's kinetic friction then leave the
    // scene's colliders out (counted twice, a sliding solid would feel 2 mu);
    // the bodies' colliders keep theirs. 0 for every other solver.
    uint colliderFrictionInSolve;
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(ParticlePush, 80);

// Push constants of the normals pass.
struct NormalsPush {
    uint vertexCount;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(NormalsPush, 16);

GPU_NAMESPACE_END

#endif
