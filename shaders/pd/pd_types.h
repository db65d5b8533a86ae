// The structs and push constants of the projective dynamics passes
// (shaders/pd/*.comp, docs/physics.md §5), shared by GLSL and C++. PD particles use the
// particle buffers of sim_types.h (positions xyz + inverse mass, velocities);
// these are the PD elements, the rows of the global system and the pushes.
//
// Every element writes its weighted projection w_i S_i^T A_i^T B_i p_i as one
// vec4 per (element, local vertex) into a "contribution slot"; the gather
// pass sums a particle's slots in a fixed order (no atomics), so the
// right-hand side is deterministic. Element e of a family with `arity`
// vertices owns slots [slotBase + arity e, slotBase + arity (e + 1)).
// The w of its first slot holds its energy at the shape it projected,
// w_i/2 |A_i S_i q - B_i p_i|^2 (0 in the other slots): the gather pass
// ignores it; the energy pass (pd/energy.comp) sums it.
#ifndef VKSIM_PD_TYPES_H
#define VKSIM_PD_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// What the tetrahedron pass projects onto (PdElementPush.mode).
GPU_CONST(uint, kPdTetStrain, 0);
GPU_CONST(uint, kPdTetVolume, 1);

// Edge spring: A S q = q0 - q1, p = restLength (q0 - q1)/|q0 - q1|.
// Slots: +w p for p0, -w p for p1.
struct PdSpring {
    uint p0;
    uint p1;
    float restLength;
    float weight;  // w = stiffness [N/m]
};
GPU_CHECK_SIZE(PdSpring, 16);

// Triangle strain: F = sum_k q_k g_k^T (3x2) with g_1, g_2 the rows of the
// inverse rest edge matrix (in a 2D frame of the rest triangle) and
// g_0 = -(g_1 + g_2); p = T = U clamp(S, sigmaMin, sigmaMax) V^T.
// Slots: w T g_k for k = 0, 1, 2.
struct PdTriangle {
    uvec4 particles;  // xyz; w unused
    vec4 gradients;   // (g_1.x, g_1.y, g_2.x, g_2.y)
    float weight;     // w = stiffness * rest area
    float sigmaMin;
    float sigmaMax;
    float pad0;
};
GPU_CHECK_SIZE(PdTriangle, 48);

// Tetrahedron strain or volume: F = sum_k q_k g_k^T (3x3) with g_1..g_3 the
// rows of the inverse rest edge matrix and g_0 = -(g_1 + g_2 + g_3).
// Strain: T = U clamp(S, rangeMin, rangeMax) V^T (smallest singular value
// negative when det F < 0). Volume: T = U (S + D) V^T with prod(S + D)
// clamped to [rangeMin, rangeMax]. Slots: w T g_k for k = 0..3.
struct PdTetrahedron {
    uvec4 particles;
    vec4 g1;  // xyz
    vec4 g2;
    vec4 g3;
    float weight;  // w = stiffness * rest volume
    float rangeMin;
    float rangeMax;
    float pad0;
};
GPU_CHECK_SIZE(PdTetrahedron, 80);

// Bending across an edge: A S q = e = sum_k K_k q_k (the isometric bending
// stencil, K from isometric_bending.h), p = e |e_rest| / |e|.
// Slots: w K_k p for k = 0..3.
struct PdBending {
    uvec4 particles;
    vec4 K;
    float weight;    // w = stiffness * 3 / (A0 + A1)
    float restNorm;  // |e| in the rest shape (0 for flat cloth)
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(PdBending, 48);

// Closeness to a fixed point (soft pin): A S q = q, p = target. Slot: w target.
struct PdAttachment {
    vec4 target;  // xyz
    uint particle;
    float weight;  // [N/m]
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(PdAttachment, 32);

// One row of the global system for a PD particle (global index
// firstParticle + r). L splits into a translation-invariant part (springs,
// strain, volume, bending: rows sum to zero) and the attachments' diagonal.
// The diagonal of the first is not stored as such: it is minus the sum of
// the row's off-diagonal entries, and the Jacobi pass evaluates L q in
// difference form, sum_j L_ij (q_j - q_i) + attachmentDiagonal q_i, so a
// rigid translation is exactly in L's null space whatever the rounding of
// the entries (otherwise float-rounded row sums act as forces proportional
// to the distance from the origin, amplified by the stiffness). graphDiagonal
// (= -sum_j L_ij) only scales the Jacobi update.
// mass 0 marks a pinned particle, which the solve leaves where it is.
struct PdRow {
    uint offDiagonalFirst;  // into the PdOffDiagonal array
    uint offDiagonalCount;
    uint gatherFirst;  // into the contribution slot list
    uint gatherCount;
    float graphDiagonal;       // -sum_j L_ij over the row's off-diagonal entries
    float attachmentDiagonal;  // sum of the weights of the particle's attachments
    float mass;                // [kg], 0 = pinned
    float pad0;
};
GPU_CHECK_SIZE(PdRow, 32);

struct PdOffDiagonal {
    uint column;  // global particle index
    float value;
};
GPU_CHECK_SIZE(PdOffDiagonal, 8);

// Push constants of the element (local step) passes.
struct PdElementPush {
    uint count;     // elements of this family
    uint slotBase;  // first contribution slot of the family
    uint mode;      // tetrahedra: kPdTetStrain or kPdTetVolume
    uint pad0;
};
GPU_CHECK_SIZE(PdElementPush, 16);

// Push constants of the per-particle PD passes (local collisions, gather,
// Jacobi): the PD particles are [firstParticle, firstParticle + particleCount).
struct PdParticlePush {
    uint firstParticle;
    uint particleCount;
    uint colliderCount;
    float stencilStep;       // tetrahedral SDF gradient step (docs/physics.md §2)
    float dt;                // substep length h
    float collisionWeight;   // weight of a collision projection, in units of m_i/h^2
    uint pad0, pad1;         // (the Jacobi weights are each copy's: pd/jacobi_row.glsl)
    // The range's origin (Solver::origin): q and p are relative to it
    // (docs/physics.md §9.2, "Far from the origin").
    float originX, originY, originZ;
    uint iteration;  // k of this Jacobi iteration (on the paths of one dispatch per iteration)
};
GPU_CHECK_SIZE(PdParticlePush, 48);


// Push constants of the global step in one workgroup
// (pd/jacobi_in_workgroup.glsl): its particles' push (iteration unused:
// the kernel runs every iteration), the iteration count and which of
// the three iterate buffers holds q^0.
struct PdJacobiRunPush {
    PdParticlePush particles;
    uint iterations;
    uint firstBuffer;
    uint pad0, pad1;
};
GPU_CHECK_SIZE(PdJacobiRunPush, 64);

// Push constants of the energy pass (pd/energy.comp): threads
// [0, particleCount) add the PD particles' inertia and collision terms,
// threads [particleCount, particleCount + slotCount) the slots' energies.
struct PdEnergyPush {
    uint firstParticle;
    uint particleCount;
    uint slotCount;
    float dt;               // substep length h
    float collisionWeight;  // as PdParticlePush
    float originX, originY, originZ;  // as PdParticlePush
};
GPU_CHECK_SIZE(PdEnergyPush, 32);

GPU_NAMESPACE_END

#endif
