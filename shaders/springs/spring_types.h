// The structs and push constants of the mass-spring solver
// (shaders/springs/*.comp, docs/physics.md §9), shared by GLSL and C++.
// Spring particles use the particle buffers of sim_types.h. Every force,
// gradient and Hessian is gathered per particle over the elements it
// touches, in a fixed order (MsParticle's incidence lists), never with
// atomics: each element is evaluated once per vertex it moves.
#ifndef VKSIM_SPRING_TYPES_H
#define VKSIM_SPRING_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// What the springs of a cloth came from (MsSpring.kind): counted and
// reported per kind.
GPU_CONST(uint, kSpringStretch, 0);  // a mesh edge, or a structural grid edge
GPU_CONST(uint, kSpringShear, 1);    // a grid cell diagonal
GPU_CONST(uint, kSpringBend, 2);     // across an interior edge, or skipping one grid vertex

// How the mass-spring solver advances its range (SpringSettings.integrator).
// The explicit ones are integrator hooks of the shared predict and
// update-velocity stages (kIntegratorForce* in sim_types.h); the implicit
// ones minimise the implicit Euler objective F.
GPU_CONST(uint, kSpringMethodExplicit, 0);
GPU_CONST(uint, kSpringMethodNewton, 1);
GPU_CONST(uint, kSpringMethodVbd, 2);

// A Hooke spring between particles i and j (global indices), with the
// locking remedies (docs/physics.md §9.4): below the slack length
// restLength (1 - slack) it pulls back with stiffness compressionScale k;
// between that and restLength it exerts nothing.
struct MsSpring {
    uint i;
    uint j;
    float restLength;  // L [m]
    float stiffness;   // k [N/m]
    float compressionScale;  // k_c / k in [0, 1]
    float slack;             // fraction of L, in [0, 1)
    uint kind;               // kSpring*
    uint pad0;
};
GPU_CHECK_SIZE(MsSpring, 32);

// A dihedral hinge (Bridson et al. 2003): the edge (v0, v1) shared by the
// triangles (v0, v1, v2) and (v1, v0, v3), with its rest angle and
// stiffness. Explicit integrators only: the force has no energy.
struct MsHinge {
    uint v0;
    uint v1;
    uint v2;
    uint v3;
    float restAngle;  // theta_0 [rad], signed as dihedralAngle() measures it
    float stiffness;  // k [N m]... scaled by |E|^2 / (|N1| + |N2|) in the force
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(MsHinge, 32);

// One particle's incident spring, with where its Hessian block goes:
// `block` is the index of the block (row = this particle, column = the
// other end) in the solver's block-sparse matrix.
struct MsIncidentSpring {
    uint spring;
    uint block;
};
GPU_CHECK_SIZE(MsIncidentSpring, 8);

// A touching contact pair in Newton's system (docs/physics.md §14), per
// contact list entry, as the iteration's assembly takes it at the iterate:
// the unit normal n (from this entry's particle's side) and the penalty's
// stiffness s, the lagged friction's load mu lambda and its curvature
// c = mu lambda f1(|u|)/|u|, and the row (local index) of the entry's other
// particle. The coupling block is -(s n n^T + c (I - n n^T)); the line
// search reads n and the load back for the friction's energy. All zero
// where the pair does not touch.
struct MsContactCoupling {
    float nx, ny, nz;
    float stiffness;          // s [N/m]
    float frictionLoad;       // mu lambda [N]
    float frictionCurvature;  // c [N/m]
    uint row;
    uint pad0;
};
GPU_CHECK_SIZE(MsContactCoupling, 32);

// One entry of the quadratic bending matrix (Bergou et al. 2006) in a
// particle's row: Q_ij times the object's bending stiffness, and the block
// of column j in the solver's matrix. The force on i is -sum_j Q_ij x_j.
struct MsQuadraticEntry {
    uint column;  // j, global particle index
    float value;  // k Q_ij [N/m]
    uint block;
    uint pad0;
};
GPU_CHECK_SIZE(MsQuadraticEntry, 16);

// Per particle of the solver's range: where its incidence lists are, and
// its air drag.
struct MsParticle {
    uint firstSpring;  // into the MsIncidentSpring list
    uint springCount;
    uint firstHinge;  // into the hinge incidence list (hinge * 4 + role)
    uint hingeCount;
    uint firstQuadratic;  // into the MsQuadraticEntry list
    uint quadraticCount;
    uint diagonalBlock;  // index of this particle's own block in the matrix
    float drag;          // sigma [kg/s]: f = -sigma v
};
GPU_CHECK_SIZE(MsParticle, 32);

// Push constants of the force pass (springs/forces.comp).
GPU_CONST(uint, kForcesAtPositions, 0);  // y = x
GPU_CONST(uint, kForcesAtPredicted, 1);  // y = p
GPU_CONST(uint, kForcesAtMidpoint, 2);   // y = x + h/2 s (s = the stage velocity saved by predict)
// The second stage of each particle's own integrator (objects side by side
// on different ones, kIntegratorPerParticle): p for velocity Verlet, the
// midpoint for the midpoint rule; the other integrators' a is left as the
// first force pass wrote it. Springs join particles of one object only, so
// every element is evaluated where its object's integrator evaluates it.
GPU_CONST(uint, kForcesAtEachIntegrator, 3);
struct MsForcePush {
    vec4 gravity;  // xyz; w: the kGravity* flags (ParticlePush::gravity)
    uint firstParticle;
    uint particleCount;
    uint evaluateAt;  // kForcesAt*
    float dt;         // h
};
GPU_CHECK_SIZE(MsForcePush, 32);

// What springs/energy.comp sums over the range (MsImplicitPush.measure).
GPU_CONST(uint, kMeasureObjective, 0);  // F(x) [J]
GPU_CONST(uint, kMeasureGradient, 1);   // |grad F(x)|^2 over the free particles [N^2]

// Newton's backtracking line search on the GPU (docs/physics.md §9.7): F at
// x + alpha dx for alpha = 1, 1/2, ..., 2^-(kLineSearchCandidates - 1), all
// in one pass, then F(x) and the slope grad F . dx: kLineSearchValues sums.
GPU_CONST(uint, kLineSearchCandidates, 8);
GPU_CONST(uint, kLineSearchObjective, 8);  // value index of F(x)
GPU_CONST(uint, kLineSearchSlope, 9);      // value index of grad F(x) . dx
GPU_CONST(uint, kLineSearchValues, 10);
// The largest candidate alpha with F(x + alpha dx) <= F(x) + c alpha slope +
// tol |F(x)| is taken (Armijo, c = 1e-4); tol absorbs the float rounding of
// the sums (a few ulps of F), without which the GPU would reject full steps
// near the minimum on noise alone. None: alpha = 0 (the step is refused).
GPU_CONST(float, kLineSearchArmijo, 1e-4f);
GPU_CONST(float, kLineSearchTolerance, 1e-6f);
// Each batch copy's line search is its own (a scene's world is one copy):
// a copy's rows are cut into groups of kWorkgroupSize from its first row,
// as a world of the copy alone cuts its range, and workgroup w of the
// first pass (springs/line_search.glsl) sums group w's rows
// [firstRow, min(firstRow + kWorkgroupSize, rowEnd)) (local to the range)
// into partials[firstPartial + value * copyGroups].
struct MsLineSearchGroup {
    uint firstRow;
    uint rowEnd;        // the end of its copy's rows
    uint firstPartial;  // its copy's first partial + its group within the copy
    uint copyGroups;    // groups of its copy: the stride between values
};
GPU_CHECK_SIZE(MsLineSearchGroup, 16);
// Copy g's partials for the second pass (springs/line_search_choose.comp,
// workgroup g): value v of its group k at firstPartial + v * groupCount + k.
struct MsLineSearchCopy {
    uint firstPartial;
    uint groupCount;
    uint pad0, pad1;
};
GPU_CHECK_SIZE(MsLineSearchCopy, 16);

// Push constants of the line search's choose pass: one workgroup per batch
// copy, each over its copy's partials (MsLineSearchCopy).
struct MsLineSearchChoosePush {
    uint copyCount;  // the workgroups: a scene's world has one copy
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(MsLineSearchChoosePush, 16);

// One mass-spring object's particles (MsModel::objects), for the
// per-object energy pass (springs/object_energy.comp).
struct MsObjectRange {
    uint firstParticle;  // global index
    uint particleCount;
};
GPU_CHECK_SIZE(MsObjectRange, 8);

// Push constants of the per-object energy pass: workgroup g sums object g's
// energy into results[firstResult + g].
struct MsObjectEnergyPush {
    vec4 gravity;        // xyz; w: kGravityPerParticle or 0 (ParticlePush::gravity)
    uint firstParticle;  // the solver's range, which msParticles[] is indexed by
    uint objectCount;
    uint firstResult;
    uint pad0;
};
GPU_CHECK_SIZE(MsObjectEnergyPush, 32);

// Push constants of the implicit passes (Newton assembly, update, energy;
// vertex block descent).
struct MsImplicitPush {
    uint firstParticle;
    uint particleCount;
    float dt;         // h
    float step;       // Newton: the step length alpha of x += alpha dx
    uint first;       // VBD: first entry of this colour's vertex list
    uint count;       // VBD: vertices in this colour
    uint measure;     // energy pass: kMeasureObjective or kMeasureGradient
    uint lineSearch;  // Newton update: 1 = alpha from the line search's choice, 0 = step
    // The range's origin (Solver::origin): the iterate and p are relative to it.
    float originX, originY, originZ;
    uint contactCapacity;  // with the contact energy: the entries of the contact neighbour list
};
GPU_CHECK_SIZE(MsImplicitPush, 48);

GPU_NAMESPACE_END

#endif
