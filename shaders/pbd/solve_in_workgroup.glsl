// docs/physics.md §1, "Small objects in one workgroup": the PBD substeps of
// small objects, one workgroup per object. The object's positions live in shared memory (12 bytes a particle)
// from the first stage to the last, so a whole frame (every substep: predict,
// contact generation, n_s Gauss-Seidel iterations over the object's colours
// and overflow group, the collision projection, the velocity update and
// friction/restitution) is one dispatch (with contacts between objects, one
// substep's iterations: pbd/workgroup_contacts.glsl), with a workgroup barrier between
// colours instead of a dispatch and a pipeline barrier. The per-particle and
// per-constraint math is the same functions the per-colour kernels call
// (particle/*.glsl, pbd/project_*.glsl), in the same order, so both paths
// compute the same thing.
//
// The cluster path (docs/physics.md §1, "Large objects in clusters") runs
// the same kernel with kStageClusterSweep: a workgroup per cluster, a
// contiguous range of a larger object, that projects one iteration's phases
// of its constraints. On a GPU it loads the cluster's positions into shared
// memory and writes them back; on a CPU driver, whose shared memory is
// ordinary memory, the copy is pure cost (measured in docs/physics.md §1,
// "Large objects in clusters"), so it works on the predicted positions in
// place. Both compute the same bits.
//
// What a dispatch cannot take is compiled out, not branched around (a CPU
// driver runs both sides of every `if`, see math/sdf.glsl): the
// device-memory cluster sweep is a shader of its own
// (pbd/cluster_sweep_cpu.comp, which defines VKSIM_CLUSTER_SWEEP_CPU), and
// reads its records and positions as texels (that file says why).
//
// Ownership, which keeps every access race-free without atomics: particle i
// of the object belongs to invocation (i - first) % kSize for
// its velocity, contact and global position; a colour's constraint k to
// invocation k % kSize (no two of a colour share a particle);
// the overflow group to invocation 0. Shared positions are only touched
// between barriers by their owner of the moment.
//
// The includer (solve_in_workgroup_<size>.comp) sets the workgroup size
// first: 256 for GPUs; 16 for CPU drivers, which run a workgroup on one core
// and pay per SIMD vector of invocations at every barrier.
#extension GL_GOOGLE_include_directive : require
#ifdef VKSIM_CLUSTER_SWEEP_CPU
#extension GL_KHR_shader_subgroup_basic : require
#endif
#include "shared/sim_types.h"
#include "pbd/pbd_types.h"
#include "shared/elastic_types.h"
#include "shared/interaction_types.h"
#include "math/real_glsl.h"
const uint kSize = gl_WorkGroupSize.x;
// Floats of shared memory for positions: the device's
// maxComputeSharedMemorySize / 4, set at pipeline creation.
layout(constant_id = 0) const uint kSharedFloats = 4096;
// true: this is the cluster sweep of a CPU driver, on the predicted
// positions in device memory, and nothing else. false: everything else (the
// whole-frame solve, and the cluster sweep in shared memory on GPUs).
#ifdef VKSIM_CLUSTER_SWEEP_CPU
const bool inDeviceMemory = true;
#else
const bool inDeviceMemory = false;
#endif

layout(push_constant) uniform Push { WorkgroupSolvePush pc; };
layout(std430, binding = 0) buffer Positions { vec4 positions[]; };
layout(std430, binding = 1) buffer Velocities { vec4 velocities[]; };
#ifdef VKSIM_CLUSTER_SWEEP_CPU
// 1: the pipeline makes the workgroup one full subgroup
// (pbd/cluster_sweep_cpu.comp says why that matters).
layout(constant_id = kSweepIsOneSubgroupConstantId) const uint kSweepIsOneSubgroup = 0u;
// The predicted positions twice: read as texels, written through a storage
// buffer (pbd/cluster_sweep_cpu.comp says why and what keeps it ordered).
layout(binding = 2, rgba32f) uniform coherent readonly imageBuffer predictedTexels;
struct PredictedStore {
    vec3 position;
    float inverseMass;  // never written here (setPredicted)
};
layout(std430, binding = 16) coherent writeonly buffer PredictedStores { PredictedStore predictedStores[]; };
#else
layout(std430, binding = 2) buffer Predicted { vec4 predicted[]; };
#endif
layout(binding = 3) uniform usamplerBuffer colliderTexels;  // particle/collider_texels.glsl
#include "particle/collider_texels.glsl"
layout(std430, binding = 4) buffer Contacts { ParticleContact contacts[]; };
layout(std430, binding = 5) readonly buffer MeshSdfGrids { float meshSdfGrids[]; };
#ifdef VKSIM_CLUSTER_SWEEP_CPU
// The records of pbd/pbd_types.h, 16 bytes a texel, in their field order
// (solvers/pbd/workgroup_plan.cpp asserts that order on the C++ side).
layout(binding = 6) uniform usamplerBuffer materialTexels;
layout(binding = 7) uniform usamplerBuffer distanceTexels;    // 1 texel a constraint
layout(binding = 8) uniform usamplerBuffer bendingTexels;     // 3
layout(binding = 9) uniform usamplerBuffer attachmentTexels;  // 2
ConstraintMaterial material(uint m) {
    uvec4 t = texelFetch(materialTexels, int(m));
    return ConstraintMaterial(t.x, uintBitsToFloat(t.y), uintBitsToFloat(t.z), uintBitsToFloat(t.w));
}
DistanceConstraint distanceConstraint(uint j) {
    uvec4 t = texelFetch(distanceTexels, int(j));
    return DistanceConstraint(t.x, t.y, uintBitsToFloat(t.z), t.w);
}
BendingConstraint bendingConstraint(uint j) {
    int k = 3 * int(j);
    uvec4 rest = texelFetch(bendingTexels, k + 2);
    return BendingConstraint(texelFetch(bendingTexels, k), uintBitsToFloat(texelFetch(bendingTexels, k + 1)),
                             uintBitsToFloat(rest.x), rest.y, uintBitsToFloat(rest.z), uintBitsToFloat(rest.w));
}
AttachmentConstraint attachmentConstraint(uint j) {
    int k = 2 * int(j);
    uvec4 rest = texelFetch(attachmentTexels, k + 1);
    return AttachmentConstraint(uintBitsToFloat(texelFetch(attachmentTexels, k)), rest.x, rest.y,
                                uintBitsToFloat(rest.z), uintBitsToFloat(rest.w));
}
// The tetrahedron buffer (solvers/pbd/pbd_constraints.h) as texels:
// 5 a record, then the elastic rows, 1 each (their multipliers are written,
// so they are read through binding 14, a storage buffer on the same memory).
layout(binding = 19) uniform usamplerBuffer tetrahedronTexels;
TetrahedronConstraint tetrahedronConstraint(uint j) {
    int k = 5 * int(j);
    uvec4 rest = texelFetch(tetrahedronTexels, k + 4);
    return TetrahedronConstraint(texelFetch(tetrahedronTexels, k),
                                 uintBitsToFloat(texelFetch(tetrahedronTexels, k + 1)),
                                 uintBitsToFloat(texelFetch(tetrahedronTexels, k + 2)),
                                 uintBitsToFloat(texelFetch(tetrahedronTexels, k + 3)), rest.x, rest.y, rest.z, 0u);
}
ElasticMaterialRow elasticMaterialRow(uint slot) {
    uvec4 t = texelFetch(tetrahedronTexels, int(slot));
    return ElasticMaterialRow(t.x, uintBitsToFloat(t.y), uintBitsToFloat(t.z), 0.0);
}
vec4 predictedAt(uint i) { return imageLoad(predictedTexels, int(i)); }
// The sweep never changes an inverse mass: every store it makes passes back
// the w it loaded (storeParticle's callers, the collision projection; the
// w-changing storePredicted is the shared-memory path's), so only xyz is
// written, a quarter fewer stores where lavapipe stores one component of
// one lane at a time.
void setPredicted(uint i, vec4 p) { predictedStores[i].position = p.xyz; }
#else
layout(std430, binding = 6) readonly buffer Materials { ConstraintMaterial materials[]; };
layout(std430, binding = 7) readonly buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 8) readonly buffer Bending { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 9) readonly buffer Attachments { AttachmentConstraint attachments[]; };
ConstraintMaterial material(uint m) { return materials[m]; }
DistanceConstraint distanceConstraint(uint j) { return distanceConstraints[j]; }
BendingConstraint bendingConstraint(uint j) { return bendingConstraints[j]; }
AttachmentConstraint attachmentConstraint(uint j) { return attachments[j]; }
vec4 predictedAt(uint i) { return predicted[i]; }
void setPredicted(uint i, vec4 p) { predicted[i] = p; }
// The tetrahedron buffer (solvers/pbd/pbd_constraints.h): records, elastic
// rows and multipliers in one binding, read as each.
layout(std430, binding = 14) readonly buffer Tetrahedra { TetrahedronConstraint tetrahedra[]; };
layout(std430, binding = 14) readonly buffer ElasticRows { ElasticMaterialRow elasticRows[]; };
TetrahedronConstraint tetrahedronConstraint(uint j) { return tetrahedra[j]; }
ElasticMaterialRow elasticMaterialRow(uint slot) { return elasticRows[slot]; }
#endif
layout(std430, binding = 10) buffer DistanceLambdas { float distanceLambdas[]; };
layout(std430, binding = 11) buffer BendingLambdas { float bendingLambdas[]; };
layout(std430, binding = 12) buffer AttachmentLambdas { float attachmentLambdas[]; };
// The plan: the objects (or clusters), then their phases, in one buffer (a
// stage may bind 16 storage buffers), read as both; firstPhase counts from
// the buffer's start (both records are 48 bytes).
layout(std430, binding = 13) readonly buffer Objects { WorkgroupObject objects[]; };
layout(std430, binding = 13) readonly buffer Phases { WorkgroupPhase phases[]; };
layout(std430, binding = 14) buffer TetLambdas { float tetLambdas[]; };
float tetLambda(uint k) { return tetLambdas[k]; }
void setTetLambda(uint k, float value) { tetLambdas[k] = value; }
// Shape matching's groups and rest offsets in one buffer (a stage may have
// 16), read as both.
layout(std430, binding = 15) readonly buffer ShapeMatchGroups { ShapeMatchGroup shapeMatchGroups[]; };
layout(std430, binding = 15) readonly buffer ShapeMatchRest { vec4 shapeMatchRest[]; };
#ifdef VKSIM_CLUSTER_SWEEP_CPU
// Per cluster and invocation t, from slot object.contactListFirst + t, kSize
// apart: how many of t's particles have a collider candidate this substep,
// then their indices in the cluster (projectListedContacts).
layout(std430, binding = 17) buffer ContactLists { uint contactLists[]; };
#endif
// What the bodies' colliders did to each particle (particle/collider_stages.glsl, recordBodyPush).
layout(std430, binding = 18) buffer BodyPushes { BodyPush bodyPushes[]; };
layout(std430, binding = 20) readonly buffer Copies { uvec2 copies[]; };  // each particle's batch copy, its index in it

float meshSdfGridValue(uint index) { return meshSdfGrids[index]; }  // for sdf.glsl's mesh colliders
#include "math/quaternion.glsl"
#include "math/sdf.glsl"
#include "particle/collider_stages.glsl"
#include "pbd/pbd_constraints.glsl"

shared float sharedPositions[kSharedFloats];
uint objectFirst;  // the object's first particle (the same in every invocation)
// Its own gravity and 2|g| (WorkgroupObject::gravity*), where the push flags
// kGravityPerParticle: a batch copy's (particle/particle_gravity.glsl).
vec4 objectGravity;
vec4 ownGravity(uint i) { return objectGravity; }
#include "particle/particle_gravity.glsl"
vec3 origin;       // the range's origin: predicted positions are relative to it (ParticlePush::origin*)
// Where shape matching's kSize vec4 of scratch start in the shared array:
// after the object's positions (the workgroup plan checks that they fit).
uint scratchFirst;

// The inverse mass the constraints see: the mouse holds its particle as a
// kinematic body (as pbd/project_mouse.comp does), a pinned particle stays pinned.
float constraintInverseMass(uint i) { return i == pc.mouseParticle ? 0.0 : positions[i].w; }

vec3 sharedPosition(uint local) {
    return vec3(sharedPositions[3u * local], sharedPositions[3u * local + 1u], sharedPositions[3u * local + 2u]);
}
void setSharedPosition(uint local, vec3 p) {
    sharedPositions[3u * local] = p.x;
    sharedPositions[3u * local + 1u] = p.y;
    sharedPositions[3u * local + 2u] = p.z;
}
vec4 loadParticle(uint i) {
    if (inDeviceMemory) return predictedAt(i);
    return vec4(sharedPosition(i - objectFirst), constraintInverseMass(i));
}
void storeParticle(uint i, vec4 p) {
    if (inDeviceMemory)
        setPredicted(i, p);
    else
        setSharedPosition(i - objectFirst, p.xyz);
}
#include "pbd/project_distance.glsl"
#include "pbd/project_bending.glsl"
#include "pbd/project_attachment.glsl"
#include "pbd/project_tetrahedron.glsl"
vec4 shapeMatchScratch(uint k) {
    uint o = scratchFirst + 4u * k;
    return vec4(sharedPositions[o], sharedPositions[o + 1u], sharedPositions[o + 2u], sharedPositions[o + 3u]);
}
void setShapeMatchScratch(uint k, vec4 v) {
    uint o = scratchFirst + 4u * k;
    sharedPositions[o] = v.x;
    sharedPositions[o + 1u] = v.y;
    sharedPositions[o + 2u] = v.z;
    sharedPositions[o + 3u] = v.w;
}
#include "math/svd3.glsl"
#include "pbd/shape_matching.glsl"
#include "pbd/project_shape_match.glsl"

// Buffer writes of this invocation made visible to the workgroup, then
// everyone waits (barrier() alone orders shared memory only).
void workgroupSync() {
    memoryBarrierBuffer();
    barrier();
}

#ifndef VKSIM_CLUSTER_SWEEP_CPU
#include "pbd/workgroup_contacts.glsl"
// Whether this dispatch projects contacts in its object's iterations: the
// workgroup path's substeps of an object with contact particles, the
// contacts solved by colours (WorkgroupSolvePush::contactCapacity).
bool objectContactsInIterations(WorkgroupObject object) {
    return object.contactListFirst != kNoContactList && pc.contactCapacity != 0u;
}
#endif

// docs/physics.md §1 steps 1-3 for the owned particles: symplectic Euler
// prediction (with the object's air drag) into shared memory, then the
// contact candidates.
void predict(uint count, float drag) {
    for (uint l = gl_LocalInvocationID.x; l < count; l += kSize) {
        uint i = objectFirst + l;
        vec4 x = positions[i];
        vec3 v = predictedVelocity(velocities[i].xyz, x.w, particleGravity(pc.particles.gravity, i),
                                   pc.particles.damping, drag, pc.particles.dt);
        velocities[i] = vec4(v, 0.0);
        vec3 p = driftedPosition(x.xyz - origin, v, pc.particles.dt);  // relative to the range's origin
        setSharedPosition(l, p);
        if (pc.particles.colliderCount > 0u)
            contacts[i] = generateContact(p, x.w, v, copies[i].x, pc.particles.collisionMargin,
                                          pc.particles.stencilStep, origin);
    }
}

// What ends a phase: a workgroup barrier; in the CPU sweep, its buffer and
// image writes made visible first, and where its workgroup is one subgroup
// a subgroup barrier instead, which does both for every invocation of it
// (pbd/cluster_sweep_cpu.comp). kSweepIsOneSubgroup is a specialization
// constant, so the other branch is compiled out: lavapipe turns any
// workgroup barrier in a shader into a coroutine switch.
void phaseBarrier() {
#ifdef VKSIM_CLUSTER_SWEEP_CPU
    if (kSweepIsOneSubgroup != 0u) {
        subgroupBarrier();
        return;
    }
    memoryBarrier();
#endif
    barrier();
}

// Every phase of one iteration, each followed by phaseBarrier(): a
// colour, of one family or of several (sim/colour_steps.h), spread over
// the invocations, or an overflow share walked in order by invocation 0.
// One loop per family, its start and stride chosen per phase and empty
// where the phase has none of the family, so that each projection is
// compiled once and a phase's families are not a branch (a CPU driver
// would run every branch under a mask; a loop ends when its last lane
// does).
void projectPhases(WorkgroupObject object, uint iteration) {
    uint t = gl_LocalInvocationID.x;
    for (uint k = 0u; k < object.phaseCount; ++k) {
        WorkgroupPhase phase = phases[object.firstPhase + k];
        bool serial = phase.serial != 0u;
        uint start = serial && t != 0u ? 0xffffffffu : (serial ? 0u : t);
        uint stride = serial ? 1u : kSize;
        for (uint j = start; j < phase.count[kPbdFamilyDistance]; j += stride)
            projectDistance(phase.first[kPbdFamilyDistance] + j, iteration, pc.particles.dt);
        for (uint j = start; j < phase.count[kPbdFamilyBending]; j += stride)
            projectBending(phase.first[kPbdFamilyBending] + j, iteration, pc.particles.dt);
        for (uint j = start; j < phase.count[kPbdFamilyAttachment]; j += stride)
            projectAttachment(phase.first[kPbdFamilyAttachment] + j, iteration, pc.particles.dt);
        for (uint j = start; j < phase.count[kPbdFamilyTetrahedron]; j += stride)
            projectTetrahedron(phase.first[kPbdFamilyTetrahedron] + j, iteration, pc.particles.dt);
        phaseBarrier();
    }
}

// The collision constraints of particle l of the object (what
// particle/project_collision.comp does for one particle), in shared memory
// or, for a cluster sweep on a CPU driver, in the predicted positions.
void projectOwnedContact(uint l) {
    uint i = objectFirst + l;
    uint candidates = contacts[i].candidates;
    if (candidates == 0u) return;
    vec4 x = inDeviceMemory ? predictedAt(i) : vec4(sharedPosition(l), 0.0);
    BodyPush record = bodyPushes[i];
    ProjectedContact r = projectContacts(x.xyz, candidates, contacts[i].touching, contacts[i].pushedOut, copies[i].x,
                                         pc.particles.stencilStep, origin, positions[i].xyz - origin,
                                         pc.particles.dt, pc.particles.colliderFrictionInSolve, kPushStaticFriction,
                                         record);
    if (inDeviceMemory)
        setPredicted(i, vec4(r.p, x.w));
    else
        setSharedPosition(l, r.p);
    contacts[i].touching = r.touching;
    contacts[i].pushedOut = r.pushed;
    bodyPushes[i] = record;
}

// Those of every owned particle.
void projectOwnedContacts(uint count) {
    for (uint l = gl_LocalInvocationID.x; l < count; l += kSize) projectOwnedContact(l);
}

#ifdef VKSIM_CLUSTER_SWEEP_CPU
// The same for a cluster of the CPU sweep, skipping the particles without a
// candidate: a CPU driver runs an `if` under a mask, the untaken side too,
// so a particle far from every collider costs its whole projection
// (math/sdf.glsl); a loop, though, stops when its last lane does. So
// iteration 0 of a substep (generation has just set the candidates, which
// hold until the next) lists each invocation's particles that have one, and
// every iteration loops over that list. The same projections in the same
// order per particle: the same bits.
void projectListedContacts(WorkgroupObject object, uint iteration) {
    uint t = gl_LocalInvocationID.x;
    uint list = object.contactListFirst + t;
    uint listed = 0u;
    for (uint l = t; l < (iteration == 0u ? object.particleCount : 0u); l += kSize)
        if (contacts[objectFirst + l].candidates != 0u) contactLists[list + kSize * ++listed] = l;
    if (iteration == 0u)
        contactLists[list] = listed;
    else
        listed = contactLists[list];
    for (uint k = 1u; k <= listed; ++k) projectOwnedContact(contactLists[list + kSize * k]);
}
#endif

// One Gauss-Seidel iteration: the mouse, every phase, the object's shape
// matching, the contacts within the object (pbd/workgroup_contacts.glsl),
// then the collision constraints of the owned particles.
void iterate(WorkgroupObject object, uint iteration) {
    uint t = gl_LocalInvocationID.x;
    uint mouse = pc.mouseParticle;
    if (t == 0u && mouse != kNoParticle && mouse - objectFirst < object.particleCount && positions[mouse].w != 0.0)
        setSharedPosition(mouse - objectFirst, pc.mouseTarget.xyz);
    barrier();
    projectPhases(object, iteration);
    if (object.shapeMatchGroup != kNoShapeMatch) {
        projectShapeMatch(object.shapeMatchGroup, pc.iterations);
        barrier();
    }
#ifndef VKSIM_CLUSTER_SWEEP_CPU
    if (objectContactsInIterations(object)) projectObjectContacts(object.contactListFirst);
#endif
    if (pc.particles.colliderCount == 0u) return;
    projectOwnedContacts(object.particleCount);
    barrier();
}

// docs/physics.md §1 steps 5-6 for the owned particles: v = (p - x)/h
// (positionBasedVelocity, from the velocity predict left), x = O + p,
// then friction and restitution where a collider pushed the particle.
void finish(uint count) {
    for (uint l = gl_LocalInvocationID.x; l < count; l += kSize) {
        uint i = objectFirst + l;
        vec4 x = positions[i];
        vec3 p = sharedPosition(l);
        vec3 v = positionBasedVelocity(x.xyz - origin, p, velocities[i].xyz, pc.particles.dt);
        vec3 world = origin + p;
        positions[i] = vec4(world, x.w);
        // At the world position, as particle/contact_velocity.comp: the same bits.
        if (pc.particles.colliderCount > 0u && contacts[i].touching != 0u)
            v = contactResponse(world, v, contacts[i], copies[i].x, pc.particles.stencilStep,
                                particleRestitutionThreshold(pc.particles.gravity, pc.particles.restitutionThreshold,
                                                             pc.particles.dt, i),
                                vec3(0.0), pc.particles.colliderFrictionInSolve, pc.particles.dt);
        velocities[i] = vec4(v, 0.0);
    }
}

// The object's positions into shared memory from where the last dispatch left them.
void loadPredicted(uint count) {
    for (uint l = gl_LocalInvocationID.x; l < count; l += kSize)
        setSharedPosition(l, predictedAt(objectFirst + l).xyz);
}

// Back into the predicted positions, with the inverse mass the per-colour
// path leaves there.
void storePredicted(uint count) {
    for (uint l = gl_LocalInvocationID.x; l < count; l += kSize)
        setPredicted(objectFirst + l, vec4(sharedPosition(l), constraintInverseMass(objectFirst + l)));
}

void main() {
    // The predicted positions are relative to the range's origin
    // (particle/collider_stages.glsl moves the colliders by it).
    origin = vec3(pc.particles.originX, pc.particles.originY, pc.particles.originZ);
    WorkgroupObject object = objects[pc.firstObject + gl_WorkGroupID.x];
    objectFirst = object.firstParticle;
    objectGravity = vec4(object.gravityX, object.gravityY, object.gravityZ, object.twiceGravity);
    scratchFirst = 3u * object.particleCount;
    // The cluster path (sim/pbd_clusters.h): one iteration's phases of one
    // cluster; the rest of the iteration is passes of its own.
    // The second sweep may end with the collision constraints: each
    // invocation's particles after every phase's barrier, so after every
    // constraint on them.
    bool collide = (pc.stages & kStageClusterCollide) != 0u;
    if (inDeviceMemory) {  // a constant: the rest of main() is compiled out
#ifdef VKSIM_CLUSTER_SWEEP_CPU
        projectPhases(object, pc.firstIteration);
        if (collide) projectListedContacts(object, pc.firstIteration);
#endif
        return;
    }
    if ((pc.stages & kStageClusterSweep) != 0u) {
        loadPredicted(object.particleCount);
        barrier();
        projectPhases(object, pc.firstIteration);
        if (collide) projectOwnedContacts(object.particleCount);
        storePredicted(object.particleCount);
        return;
    }
    bool predictFirst = (pc.stages & kStagePredictFirst) != 0u;
    // A dispatch that continues a substep picks up the positions the last one left.
    if (!predictFirst) loadPredicted(object.particleCount);
    for (uint s = 0u; s < pc.substeps; ++s) {
        bool last = s + 1u == pc.substeps;
        if (s > 0u || predictFirst) predict(object.particleCount, object.drag);
        workgroupSync();
        uint begin = s == 0u ? pc.firstIteration : 0u;
        uint end = last ? pc.lastIterationEnd : pc.iterations;
#ifndef VKSIM_CLUSTER_SWEEP_CPU
        // The substep's contact set was detected before this dispatch.
        if (begin == 0u && objectContactsInIterations(object)) listObjectContacts(object.contactListFirst);
#endif
        for (uint it = begin; it < end; ++it) iterate(object, it);
        if (!last || (pc.stages & kStageFinishLast) != 0u) finish(object.particleCount);
        workgroupSync();
    }
    // What the per-colour path leaves in the predicted positions, and what
    // the next dispatch of a split substep starts from.
    storePredicted(object.particleCount);
}
