// The structs and push constants of the interaction and diagnostics passes,
// shared by GLSL and C++: picking a particle with a ray (shaders/interact),
// the mouse attachment that drags it (pbd/project_mouse.comp, and the mouse
// term of pd/gather_rhs.comp), and the per-iteration residual reductions
// (pbd/residual_distance.comp, pd/residual.comp, reduce/sum_partials.comp).
#ifndef VKSIM_INTERACTION_TYPES_H
#define VKSIM_INTERACTION_TYPES_H
#include "gpu_compat.h"
#include "shaders/pd/pd_types.h"

GPU_NAMESPACE_BEGIN

// No particle (the mouse term is off; a pick found nothing).
GPU_CONST(uint, kNoParticle, 0xFFFFFFFFu);
// A candidate key that loses every comparison (positive float bits order as uints).
GPU_CONST(uint, kNoKey, 0xFFFFFFFFu);

// What a pick found (PickResult.kind).
GPU_CONST(uint, kPickNone, 0);
GPU_CONST(uint, kPickTriangle, 1);  // the ray hit a triangle; particle = its vertex closest to the hit point
GPU_CONST(uint, kPickParticle, 2);  // no triangle hit; particle = the one nearest the ray within the radius

// Push constants of both pick passes. The candidate pass runs one thread per
// max(triangleCount, particleCount); the reduce pass one workgroup over
// partialCount per-workgroup minima.
struct PickPush {
    vec4 origin;     // xyz: ray origin
    vec4 direction;  // xyz: unit ray direction
    uint triangleCount;
    uint particleCount;
    float radius;  // [m] particles this close to the ray are candidates
    uint partialCount;
};
GPU_CHECK_SIZE(PickPush, 48);

// A workgroup's nearest candidates, as (key, index) pairs ordered
// lexicographically: key = the float bits of the ray parameter t (triangles)
// or of the distance to the ray (particles), kNoKey for none. A minimum over
// such pairs does not depend on the order it is taken in: deterministic.
struct PickCandidates {
    uint triangleKey;
    uint triangle;
    uint particleKey;
    uint particle;
};
GPU_CHECK_SIZE(PickCandidates, 16);

struct PickResult {
    uint kind;  // kPick*
    uint particle;
    uint triangle;  // the hit triangle (kPickTriangle), else kNoParticle
    float distance;  // ray parameter t of the hit, or the particle's distance to the ray [m]
    vec4 point;      // xyz: the hit point on the triangle, or the particle's position
};
GPU_CHECK_SIZE(PickResult, 32);

// The PBD mouse attachment C = |p - target| at stiffness 1, the particle
// kinematic while dragged; one thread, at the start of every iteration
// (pbd/project_mouse.comp).
struct MousePush {
    vec4 target;  // xyz
    uint particle;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(MousePush, 32);

// The gather pass: the PD particle push plus the mouse closeness term
// w_m/2 |q_i - target|^2 for particle mouseParticle (kNoParticle: none),
// w_m = mouseWeight * (m_i/h^2 + graphDiagonal_i), added to the particle's
// absolute diagonal and right-hand side.
struct PdGatherPush {
    PdParticlePush particles;
    vec4 mouseTarget;  // xyz
    uint mouseParticle;
    float mouseWeight;  // in units of the row's own diagonal m_i/h^2 + graphDiagonal_i
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(PdGatherPush, 80);

// The first pass of a residual: one thread per constraint (PBD) or particle
// (PD) writes its term; each workgroup sums its terms in a fixed tree order
// into partials[group].
struct ResidualPush {
    uint first;  // first constraint, or the first PD particle
    uint count;
    float dt;    // PD: substep length h
    float originX, originY, originZ;  // PD: the range's origin, q is relative to it (PdParticlePush)
    uint pad0, pad1;
};
GPU_CHECK_SIZE(ResidualPush, 32);

// The XPBD energy pass (pbd/energy.comp): threads [0, particleCount) add the
// PBD particles' inertia, then one thread per distance, bending and
// attachment constraint and tetrahedron in that order.
struct PbdEnergyPush {
    uint particleCount;
    uint distanceCount;
    uint bendingCount;
    uint attachmentCount;
    float dt;  // substep length h
    float originX, originY, originZ;  // the range's origin: p is relative to it (ParticlePush::origin*)
    uint tetrahedronCount;            // after the attachments: V Psi(F) each (docs/physics.md §16, "XPBD for solids")
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(PbdEnergyPush, 48);

// The second pass: one workgroup sums partials[0, partialCount) in a fixed
// order and writes results[resultIndex] = scale * sum, or scale * sqrt(sum)
// when takeSqrt != 0.
struct SumPartialsPush {
    uint partialCount;
    uint resultIndex;
    float scale;
    uint takeSqrt;
};
GPU_CHECK_SIZE(SumPartialsPush, 16);

GPU_NAMESPACE_END

#endif
