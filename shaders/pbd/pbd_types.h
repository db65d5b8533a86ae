// The position based dynamics solver's structs and constants, shared by
// GLSL and C++ (docs/physics.md §1-3, §13): its constraint families and
// materials, the push constants of its projection passes, shape matching,
// and the workgroup and cluster solves.
#ifndef VKSIM_PBD_TYPES_H
#define VKSIM_PBD_TYPES_H
#include "shaders/shared/sim_types.h"

GPU_NAMESPACE_BEGIN

// How a constraint family turns a violation into a correction (docs/physics.md §1).
GPU_CONST(uint, kModePbd, 0);   // stiffness k in [0,1], corrected to k' = 1-(1-k)^(1/n_s)
GPU_CONST(uint, kModeXpbd, 1);  // compliance alpha [m/N], multipliers reset each substep

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

// Distance (stretch/shear): C = |p0 - p1| - restLength. A torn constraint
// (docs/physics.md §1, "Tearing") holds -restLength, and projects nothing.
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
// constant, so K and scale are computed once from the (flat) rest shape. A
// constraint whose hinge tore holds -scale, and projects nothing.
struct BendingConstraint {
    uvec4 particles;  // p0, p1 (shared edge), p2, p3 (opposite vertices)
    vec4 K;           // cotangent weights of Bergou's discrete Laplacian
    float scale;      // 3 / (rest area of both triangles)
    uint material;
    float pad0;
    float pad1;
};
GPU_CHECK_SIZE(BendingConstraint, 48);

// Attachment of a particle to a fixed point: C = |p - target| - maxDistance.
// maxDistance = 0: a pin (an equality). maxDistance > 0: a tether to a pinned
// particle at target, one-sided (docs/physics.md §1, "Tethers").
struct AttachmentConstraint {
    vec4 target;  // xyz
    uint particle;
    uint material;
    float maxDistance;  // [m]
    float pad1;
};
GPU_CHECK_SIZE(AttachmentConstraint, 32);

// A tetrahedron of an XPBD solid (docs/physics.md §16, "XPBD for solids"; Macklin & Mueller
// 2021): its elastic energy as two XPBD constraints, deviatoric and
// hydrostatic, each with its multiplier, and optionally the PBD volume
// constraint C = 6 (V - V0). F = sum_k x_k g_k^T with g_1..g_3 the rows of
// Dm^-1 and g_0 = -(g_1 + g_2 + g_3) (model/solid_geometry.h, tetRest).
GPU_CONST(uint, kNoVolumeConstraint, 0xFFFFFFFFu);
struct TetrahedronConstraint {
    uvec4 particles;
    vec4 g1;  // xyz; w: the rest volume V0 [m^3]
    vec4 g2;  // xyz
    vec4 g3;  // xyz
    // Its solid's ElasticMaterialRow: in the model, an index into
    // PbdModel::elasticMaterials; on the GPU, the row's 16-byte slot in the
    // tetrahedron buffer (PbdConstraints says how it is laid out).
    uint elasticRow;
    // The ConstraintMaterial row of its PBD volume constraint (stiffness,
    // per-iteration stiffness), or kNoVolumeConstraint.
    uint volumeMaterial;
    // On the GPU: where its two multipliers (deviatoric, hydrostatic) are in
    // the tetrahedron buffer, in floats; 0 in the model.
    uint lambda;
    uint pad0;
};
GPU_CHECK_SIZE(TetrahedronConstraint, 80);

// The specialization constant of the kernels that project PBD constraints:
// bit kXpbdFamily* set where that family may meet an XPBD material
// (pbd/xpbd_families.glsl); all set by default.
GPU_CONST(uint, kXpbdFamiliesConstantId, 9);
GPU_CONST(uint, kXpbdFamilyDistance, 1);
GPU_CONST(uint, kXpbdFamilyBending, 2);
GPU_CONST(uint, kXpbdFamilyAttachment, 4);
// The tetrahedra's elastic constraints are always XPBD (their compliance
// comes from the material); the bit says the family is there.
GPU_CONST(uint, kXpbdFamilyTetrahedron, 8);
// The specialization constant of the CPU cluster sweep
// (pbd/cluster_sweep_cpu.comp): 1 where its pipeline makes each workgroup
// one full subgroup, so that a subgroup barrier orders its phases.
GPU_CONST(uint, kSweepIsOneSubgroupConstantId, 11);

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
GPU_CONST(uint, kPbdFamilyTetrahedron, 3);
GPU_CONST(uint, kPbdFamilyCount, 4);

// Push constants of a colour shared by the families (pbd/project_colour.comp,
// PbdColouring::AcrossFamilies): per family (kPbdFamilyDistance, ...) its
// constraints [first[f], first[f] + count[f]) of the colour, or of the
// overflow groups (serial = 1, one thread walks them in order, family by family).
struct ColourPush {
    uint first[4];
    uint count[4];
    uint iteration;  // 0 resets XPBD multipliers
    uint serial;
    float dt;        // substep length h
    uint pad0;
};
GPU_CHECK_SIZE(ColourPush, 48);

// Tearing (pbd/tear.comp; docs/physics.md §1, "Tearing"): once per frame,
// a run over the stretch constraints (family kPbdFamilyDistance), then one
// over the bending constraints and the tearing cloths' triangles
// (kPbdFamilyBending).
GPU_CONST(uint, kNoHinge, 0xFFFFFFFFu);  // an edge with no stretch constraint (that tears)
// In a tearing triangle's index (PbdTearing::triangleEdges, x): a triangle
// of a cloth that splits vertices, which leaves the surface when two of its
// edges are broken rather than one (its one whole edge cannot hold its third
// corner, which its split leaves to this triangle alone).
GPU_CONST(uint, kTearSplitTriangle, 0x80000000u);
struct TearPush {
    uint family;        // kPbdFamilyDistance or kPbdFamilyBending
    uint count;         // threads: the stretch constraints, or the bending constraints and then the triangles
    uint bendingCount;  // the bending run: its threads [0, bendingCount) are the bending constraints
    uint pad0;
};
GPU_CHECK_SIZE(TearPush, 16);

// Splitting torn vertices (pbd/split.comp, pbd/split_reindex.comp;
// docs/physics.md §1, "Tearing"): once per frame after the tear pass, where a
// cloth reserves spare particles ("capacity"). A particle's kept triangles
// (three distinct indices) fall into fans joined through unbroken edges;
// every fan but the one holding the lowest-indexed triangle moves to a spare
// particle, allocated by a prefix sum over the cloth's particles in order.
// At most kSplitMaxFan kept triangles around a particle (checked at load).
GPU_CONST(uint, kSplitMaxFan, 16u);
GPU_CONST(uint, kSplitNone, 0xFFFFFFFFu);  // no spare particle for this particle; no slot to follow
GPU_CONST(uint, kSplitDrop, 0xFFFFFFFEu);  // a triangle corner whose triangle leaves the surface
// The runs of pbd/split.comp and pbd/split_reindex.comp (SplitPush::stage).
GPU_CONST(uint, kSplitCount, 0u);    // per particle: its fans less one
GPU_CONST(uint, kSplitApply, 1u);    // per particle: the new particles, the corners' new indices
GPU_CONST(uint, kSplitReindex, 2u);  // per triangle and per stretch and bending constraint: the new indices

// One cloth that splits vertices: its particles [firstParticle,
// firstParticle + vertexCount + spareCount), the spare ones last, and its
// triangles; firstThread and firstTriangleThread place it in the runs'
// thread ranges (the splitting cloths one after another).
struct SplitCloth {
    uint firstParticle;
    uint vertexCount;
    uint spareCount;
    uint firstTriangle;
    uint triangleCount;
    uint firstThread;
    uint firstTriangleThread;
    uint pad0;
};
GPU_CHECK_SIZE(SplitCloth, 32);

struct SplitPush {
    uint stage;           // kSplitCount, kSplitApply or kSplitReindex
    uint clothCount;
    uint particleThreads; // the splitting cloths' particles, together
    uint triangleThreads; // their triangles, together
    uint distanceCount;   // the reindex run: then a thread per stretch constraint,
    uint bendingCount;    // then per bending constraint
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(SplitPush, 32);

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
    // The workgroup path's: where the object's region of contact lists
    // starts (pbd/workgroup_contacts.glsl), or kNoContactList.
    uint contactListFirst;
    // The whole-frame solve's prediction: the object's air drag sigma
    // [kg/s] (ObjectRange::drag; the cluster sweeps, whose prediction is the
    // shared stage's, leave it 0).
    float drag;
    // The whole-frame solve's gravity and 2|g| where the push flags
    // kGravityPerParticle: the object's own (ObjectRange::gravity, a batch
    // copy's; particle/particle_gravity.glsl). Else unused.
    float gravityX, gravityY, gravityZ;
    float twiceGravity;
    uint pad1;
};
GPU_CHECK_SIZE(WorkgroupObject, 48);
// WorkgroupObject::contactListFirst of an object without contact lists.
GPU_CONST(uint, kNoContactList, 0xFFFFFFFFu);

// One step of an iteration (sim/colour_steps.h), restricted to the object's
// constraints: per family (kPbdFamilyDistance, ...), constraints
// [first[f], first[f] + count[f]) of its array. serial = 0: one colour, of
// one family or shared by the families (docs/physics.md §1), no two of its
// constraints sharing a particle: one invocation per constraint, a barrier
// after. serial = 1: the object's share of the overflow groups, walked in
// order by one invocation, family by family.
struct WorkgroupPhase {
    uint first[4];
    uint count[4];
    uint serial;
    uint pad0;
    uint pad1;
    uint pad2;
};
GPU_CHECK_SIZE(WorkgroupPhase, 48);

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
    // The contacts' neighbour-list entries (ContactModel::capacity), which
    // bound the set's pairs, where the workgroup path projects the contacts
    // within its objects in its iterations (contacts by colours); 0: none.
    uint contactCapacity;
};
GPU_CHECK_SIZE(WorkgroupSolvePush, 128);

GPU_NAMESPACE_END

#endif
