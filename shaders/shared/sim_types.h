// Every struct and constant the simulation shaders read or write, shared by
// GLSL and C++. Buffers hold arrays of these; push constants are the *Push
// structs. Particle state is three vec4 arrays (positions, predicted,
// velocities): xyz plus, in positions/predicted, w = inverse mass (0 = pinned).
#ifndef VKSIM_SIM_TYPES_H
#define VKSIM_SIM_TYPES_H
#include "gpu_compat.h"

GPU_NAMESPACE_BEGIN

GPU_CONST(uint, kWorkgroupSize, 64);
GPU_CONST(uint, kMaxColliders, 32);  // collider masks are one uint per particle

// How a constraint family turns a violation into a correction (docs/physics.md §1).
GPU_CONST(uint, kModePbd, 0);   // stiffness k in [0,1], corrected to k' = 1-(1-k)^(1/n_s)
GPU_CONST(uint, kModeXpbd, 1);  // compliance alpha [m/N], multipliers reset each substep

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
GPU_CONST(uint, kIntegratorCount, 6);
// The specialization constant of predict and update velocity: the
// integrator their pipeline is built for (particle/integrator_constant.glsl),
// or kIntegratorFromPush to read ParticlePush::integrator.
GPU_CONST(uint, kIntegratorConstantId, 10);
GPU_CONST(uint, kIntegratorFromPush, 0xFFFFFFFFu);

// One row per (object, constraint family); constraints point at their row so
// stiffness can be edited live without touching the constraint arrays.
struct ConstraintMaterial {
    uint mode;         // kModePbd or kModeXpbd
    float stiffness;   // PBD k in [0,1]
    float compliance;  // XPBD alpha >= 0
    // PBD's k' = 1 - (1 - k)^(1/n_s) for the frame's n_s, which the
    // projections use: written on the GPU by pbd/iteration_stiffness.comp
    // whenever the materials or n_s change (PbdSolver::beginFrame), so no
    // projection evaluates the pow; the host leaves it 0.
    float iterationStiffness;
};
GPU_CHECK_SIZE(ConstraintMaterial, 16);

// Distance (stretch/shear): C = |p0 - p1| - restLength.
struct DistanceConstraint {
    uint p0;
    uint p1;
    float restLength;
    uint material;
};
GPU_CHECK_SIZE(DistanceConstraint, 16);

// Isometric bending (Bergou et al. 2006, Bender et al. 2014) over the two
// triangles (p0,p2,p1) and (p0,p1,p3) sharing edge p0-p1:
// C = 1/2 * scale * |sum_i K_i p_i|^2 with scale = 3/(A0+A1). Its Hessian is
// constant, so K and scale are computed once from the (flat) rest shape.
struct BendingConstraint {
    uvec4 particles;  // p0, p1 (shared edge), p2, p3 (opposite vertices)
    vec4 K;           // cotangent weights of Bergou's discrete Laplacian
    float scale;      // 3 / (rest area of both triangles)
    uint material;
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(BendingConstraint, 48);

// Attachment of a particle to a fixed point: C = |p - target|.
struct AttachmentConstraint {
    vec4 target;  // xyz
    uint particle;
    uint material;
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(AttachmentConstraint, 32);

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
// The specialization constant of the kernels that project PBD constraints:
// bit kXpbdFamily* set where that family may meet an XPBD material
// (pbd/xpbd_families.glsl); all set by default.
GPU_CONST(uint, kXpbdFamiliesConstantId, 9);
GPU_CONST(uint, kXpbdFamilyDistance, 1);
GPU_CONST(uint, kXpbdFamilyBending, 2);
GPU_CONST(uint, kXpbdFamilyAttachment, 4);
// The specialization constant of the CPU cluster sweep
// (pbd/cluster_sweep_cpu.comp): 1 where its pipeline makes each workgroup
// one full subgroup, so that a subgroup barrier orders its phases.
GPU_CONST(uint, kSweepIsOneSubgroupConstantId, 11);

struct Collider {
    // xyz: world position of the local origin; w: the radius of a sphere
    // about it outside which the SDF is at least the distance to the sphere,
    // or negative for none (collision generation culls by it: sim/collider_bounds.h)
    vec4 position;
    vec4 rotation;  // unit quaternion (x, y, z, w), local -> world
    vec4 size;      // shape parameters, see kCollider*
    uint type;
    float thickness;    // particles stay this far outside the surface
    float friction;     // Coulomb coefficient mu_T
    float restitution;  // mu_N in [0,1]
    // The velocity of the collider's frame: a surface point x moves at
    // linearVelocity + angularVelocity x (x - position). Whatever moves the
    // collider (a live edit, later a rigid body) writes it with the new
    // transform; a static collider with a velocity is a conveyor.
    vec4 linearVelocity;   // xyz [m/s]
    vec4 angularVelocity;  // xyz [rad/s], about position
};
GPU_CHECK_SIZE(Collider, 96);

// Per particle, written by collision generation, read by projection and the
// contact velocity pass.
struct ParticleContact {
    uint candidates;      // bit c: collider c is near the predicted position
    uint touching;        // bit c: the projection pushed this particle out of collider c
    float approachSpeed;  // v.N before projection for the nearest collider (< 0 when approaching)
    float pad0;
};
GPU_CHECK_SIZE(ParticleContact, 16);

// Push constants of per-particle passes (predict, collide, update velocity,
// contacts, collision projection). Thread t handles particle firstParticle + t.
struct ParticlePush {
    vec4 gravity;  // xyz
    float dt;      // substep length h
    float damping;  // velocity damping rate [1/s]: v *= max(0, 1 - damping*h)
    float collisionMargin;  // extra distance at which a collider becomes a candidate
    float restitutionThreshold;  // approach speeds below this do not bounce
    uint particleCount;  // particles [firstParticle, firstParticle + particleCount) take part
    uint colliderCount;
    float stencilStep;  // h of the tetrahedral SDF gradient stencil (docs/physics.md §2)
    uint firstParticle;  // PBD: 0; projective dynamics reuses these passes for its own range
    uint integrator;     // kIntegrator*: how predict advances the range
    uint pad0, pad1, pad2;
};
GPU_CHECK_SIZE(ParticlePush, 64);

// Push constants of constraint projection passes: one dispatch per colour,
// and one for the overflow group (pbd/project_range.glsl).
struct ProjectPush {
    uint first;       // first constraint of this colour
    uint count;       // constraints in this colour
    uint iteration;   // 0 resets XPBD multipliers
    uint iterations;  // n_s, for the per-iteration stiffness (pbd/iteration_stiffness.comp, shape matching)
    float dt;         // substep length h (XPBD alpha~ = alpha/h^2)
    uint serial;      // 1: the overflow group, one thread projects [first, first + count) in order
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(ProjectPush, 32);

// The PBD constraint families, in the order a sweep takes them (sim/colour_steps.h).
GPU_CONST(uint, kPbdFamilyDistance, 0);
GPU_CONST(uint, kPbdFamilyBending, 1);
GPU_CONST(uint, kPbdFamilyAttachment, 2);
GPU_CONST(uint, kPbdFamilyCount, 3);

// Push constants of a colour shared by the families (pbd/project_colour.comp,
// PbdColouring::AcrossFamilies): per family (kPbdFamilyDistance, ...) its
// constraints [first[f], first[f] + count[f]) of the colour, or of the
// overflow groups (serial = 1, one thread walks them in order, family by family).
struct ColourPush {
    uint first[3];
    uint count[3];
    uint iteration;  // 0 resets XPBD multipliers
    uint serial;
    float dt;        // substep length h
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(ColourPush, 48);

// Push constants of the normals pass.
struct NormalsPush {
    uint vertexCount;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(NormalsPush, 16);

// The PBD workgroup solve (pbd/solve_in_workgroup.glsl; docs/physics.md §1,
// "Small objects in one workgroup"): one workgroup per small object runs
// whole substeps, the shared particle stages included, with the object's
// positions in shared memory.
// WorkgroupSolvePush::stages bits.
// Shape matching (docs/physics.md §13; Mueller et al. 2005): one group per
// PBD object that has it, projected once per Gauss-Seidel iteration after
// the object's constraint families. Its particles are the object's,
// [firstParticle, firstParticle + particleCount); their rest offsets from
// the rest centre of mass (xyz) and masses (w) are the entries
// [firstRest, firstRest + particleCount) of the rest array.
GPU_CONST(uint, kShapeMatchRigid, 0);   // goal g_i = c + R r_i, R from the polar decomposition of Apq
GPU_CONST(uint, kShapeMatchLinear, 1);  // goal g_i = c + (beta A~ + (1 - beta) R) r_i, A~ = Apq Aqq^-1 / det^(1/3)
GPU_CONST(uint, kNoShapeMatch, 0xFFFFFFFFu);
struct ShapeMatchGroup {
    vec4 restInverse0;  // columns of Aqq^-1 = (sum m_i r_i r_i^T)^-1 (xyz); zero for a rigid group
    vec4 restInverse1;
    vec4 restInverse2;
    uint firstParticle;
    uint particleCount;
    uint firstRest;
    uint mode;          // kShapeMatchRigid or kShapeMatchLinear
    float stiffness;    // [0, 1]: the fraction of the way to the goals per substep (PBD convention)
    float beta;         // linear mode's blend
    float inverseMass;  // 1 / sum m_i
    uint pad0;
};
GPU_CHECK_SIZE(ShapeMatchGroup, 80);
// On the GPU the groups and the rest offsets share one buffer (a stage may
// bind 16 storage buffers), which the shaders read as both arrays: the
// groups first, then the offsets, which firstRest indexes in vec4s.

GPU_CONST(uint, kStagePredictFirst, 1);  // the first substep starts with predict and contact generation
GPU_CONST(uint, kStageFinishLast, 2);    // the last substep ends with the velocity update and contacts
// Instead of substeps: one sweep of the cluster path (pbd_clusters.h), the
// constraint phases of iteration firstIteration in each cluster, positions
// read from and written back to the predicted positions.
GPU_CONST(uint, kStageClusterSweep, 4);
// With kStageClusterSweep: after its phases, each cluster projects the
// collision constraints of its particles (the second sweep, where
// ClusterPlan::secondSweepCoversEveryParticle allows it).
GPU_CONST(uint, kStageClusterCollide, 8);

// One small object (or cluster): its particles and the phases of one
// iteration, [firstPhase, firstPhase + phaseCount) of the phase array.
struct WorkgroupObject {
    uint firstParticle;
    uint particleCount;
    uint firstPhase;
    uint phaseCount;
    uint shapeMatchGroup;  // the object's shape-matching group, or kNoShapeMatch
    // The CPU cluster sweep's: where this cluster's contact lists start in
    // their buffer (pbd/solve_in_workgroup.glsl, projectListedContacts).
    uint contactListFirst;
    // The whole-frame solve's prediction: the object's air drag sigma
    // [kg/s] (ObjectRange::drag; the cluster sweeps, whose prediction is the
    // shared stage's, leave it 0).
    float drag;
    uint pad1;
    uint pad2;
    uint pad3;
    uint pad4;
    uint pad5;
};
GPU_CHECK_SIZE(WorkgroupObject, 48);

// One step of an iteration (sim/colour_steps.h), restricted to the object's
// constraints: per family (kPbdFamilyDistance, ...), constraints
// [first[f], first[f] + count[f]) of its array. serial = 0: one colour, of
// one family or shared by the families (docs/physics.md §1), no two of its
// constraints sharing a particle: one invocation per constraint, a barrier
// after. serial = 1: the object's share of the overflow groups, walked in
// order by one invocation, family by family.
struct WorkgroupPhase {
    uint first[3];
    uint count[3];
    uint serial;
    uint pad0;
};
GPU_CHECK_SIZE(WorkgroupPhase, 32);

struct WorkgroupSolvePush {
    // What the shared stages get (gravity, h, damping, the collision
    // settings); its particle range and integrator are unused (the objects
    // buffer holds the ranges, the solve is symplectic Euler).
    ParticlePush particles;
    vec4 mouseTarget;       // xyz: where the dragged particle is held
    uint iterations;        // n_s
    uint mouseParticle;     // the dragged particle, or kNoParticle (interaction_types.h)
    uint substeps;          // substeps this dispatch runs
    uint firstIteration;    // where its first substep's iterations start
    uint lastIterationEnd;  // where its last substep's iterations stop
    uint stages;            // kStagePredictFirst | kStageFinishLast, or kStageClusterSweep [| kStageClusterCollide]
    uint firstObject;       // workgroup g runs objects[firstObject + g]
    uint pad0;
};
GPU_CHECK_SIZE(WorkgroupSolvePush, 112);

GPU_NAMESPACE_END

#endif
