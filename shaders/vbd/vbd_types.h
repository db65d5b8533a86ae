// The vertex block descent solver of tetrahedral solids (docs/physics.md §16,
// "Vertex block descent"), shared by GLSL and C++: its topology buffers and
// its push constants.
#ifndef VKSIM_VBD_TYPES_H
#define VKSIM_VBD_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// One tetrahedron: its particles (global), g_1..g_3 the rows of its inverse
// rest edge matrix Dm^-1 (F = sum_k x_k g_k^T, g_0 = -(g_1 + g_2 + g_3)),
// its rest volume and its solid's ElasticMaterialRow.
struct VbdTet {
    uvec4 particles;
    vec4 g1;  // xyz; w unused
    vec4 g2;
    vec4 g3;
    uint material;  // index into the material rows
    float volume;   // rest volume [m^3]
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(VbdTet, 80);

// A particle's incident tetrahedra: incidentTets[firstTet .. firstTet +
// tetCount), each tet * 4 + role (the particle's place 0..3 in the tet), in
// tet order: the fixed order every gather sums them in.
struct VbdVertex {
    uint firstTet;
    uint tetCount;
};
GPU_CHECK_SIZE(VbdVertex, 8);

struct VbdPush {
    uint firstParticle;  // the range
    uint particleCount;
    uint first;  // one colour: its first entry in the vertex order
    uint count;  // and its vertices
    float dt;    // h
    // The range's origin (Solver::origin): the iterate and y are relative to it.
    float originX, originY, originZ;
    // vbd: init (vbd_init.comp): predict's gravity and damping rate, and
    // kVbdGuess*; gravityFlags: ParticlePush::gravity.w's kGravity* flags
    // (kGravityPerParticle: each particle's own gravity).
    float gravityX, gravityY, gravityZ;
    float damping;
    uint initialGuess;
    uint gravityFlags;
    // With the contact energy (vbd_colour_contacts.comp,
    // springs/contact_energy.glsl): the entries of the contact neighbour list.
    uint contactCapacity;
    uint pad2;
};
GPU_CHECK_SIZE(VbdPush, 64);

// VbdPush::initialGuess (VbdSettings::initialGuess; docs/physics.md §16).
GPU_CONST(uint, kVbdGuessAdaptive, 0u);
GPU_CONST(uint, kVbdGuessInertial, 1u);

// The stiffness of a vertex's collider penalty in the sweeps, in units of
// its m/h^2 (vbd/vbd_collider.glsl; docs/physics.md §16, "Colliders in the
// sweeps"). Stiff enough that a vertex pressed into a collider stays inside
// by a hundredth of what its inertia and the elastic forces push it (it
// only enters the vertex's own 3x3 block, so it costs the sweeps no
// convergence); not stiffer, so that what it leaves inside (h^2 g / 100 at
// rest, 1.7e-6 m at h = 1/240 s) stays well above float's resolution of
// positions near 1 m (6e-8 m): the projection after the solve must still
// find the particle inside to mark it touching, for its friction.
GPU_CONST(float, kVbdColliderWeight, 100.0f);

// A vertex's friction against its collider half-space in the sweeps
// (vbd/vbd_collider.glsl; docs/physics.md §16, "Friction in the sweeps"),
// per particle of the range beside its plane: where the vertex would end
// the substep had it stuck to the collider's surface, x + h w (w the
// surface's velocity at the prediction; relative to the range's origin),
// and the collider's Coulomb coefficients.
struct VbdColliderFriction {
    vec4 anchor;      // xyz; w unused
    float muStatic;   // the collider's staticFriction (Collider::size.w)
    float muKinetic;  // its friction
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(VbdColliderFriction, 32);

// IPC's eps_v [m/s] (Li et al. 2020) for that friction: it is a spring
// while the vertex slips less than eps_v h over the substep, the full
// mu lambda beyond, so a vertex held by static friction creeps at below
// eps_v. Smaller would creep less but come closer to float's resolution of
// positions near 1 m (6e-8 m against eps_v h = 4.2e-6 m at h = 1/240 s).
GPU_CONST(float, kVbdFrictionStickSpeed, 1e-3f);

GPU_NAMESPACE_END

#endif
