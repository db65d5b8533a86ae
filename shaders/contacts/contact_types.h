// The structs and push constants of the contact passes between objects
// (shaders/contacts, engine/contacts), shared by GLSL and C++.
#ifndef VKSIM_CONTACT_TYPES_H
#define VKSIM_CONTACT_TYPES_H
#include "shaders/shared/gpu_compat.h"

GPU_NAMESPACE_BEGIN

// Neighbour-list entries per contact particle that the list is sized for
// (ContactModel: capacity = count * this). Each pair is two entries and one
// constraint, so the constraints are sized for half as many.
GPU_CONST(uint, kContactsPerParticle, 32);
// Neighbours the pairs' counting run keeps for each contact particle, the
// first it finds, in its order: the writing run reads them back instead of
// searching again, and searches again only for a particle that found more
// (contact_pairs.comp; kKeptPartners is the four-particle searches' own).
GPU_CONST(uint, kKeptNeighbours, 16);

// The colours of the contact constraints' Gauss-Seidel sweep
// (contact_colour.comp): the colouring runs kContactColourRounds rounds of
// proposals per substep and hands out at most kContactColours colours; a
// constraint left without one is projected after the colours by the Jacobi
// average (contact_project.comp), and counted.
GPU_CONST(uint, kContactColours, 16);
GPU_CONST(uint, kContactColourRounds, 8);
// A constraint's colour or proposal before it has one; and the colour of
// one the colouring left out.
GPU_CONST(uint, kNoColour, 0xFFFFFFFFu);
GPU_CONST(uint, kLeftoverColour, 0xFFFFFFFEu);
// A particle that is not a contact particle (ContactModel::contactOf).
GPU_CONST(uint, kNotAContactParticle, 0xFFFFFFFFu);
// No constraint (an entry whose constraint did not fit the list).
GPU_CONST(uint, kNoConstraint, 0xFFFFFFFFu);
// ContactModel::triangleNeighbours' entry for an edge on a border, or
// shared by more than two triangles: no triangle across it.
GPU_CONST(uint, kNoNeighbourTriangle, 0xFFFFFFFFu);

// One particle of an object with a "contacts" block, uploaded once. Contact
// particles are numbered k = 0..count-1 in ascending particle order.
struct ContactParticle {
    vec4 rest;       // xyz: its position in the rest shape (the model's initial state); w: thickness [m]
    uint particle;   // its index in the particle store
    uint object;     // its object's index (SharedModel::objects)
    uint flags;      // kContactSelf | kContactInIterations | kContactSpare | kContactUnused, the group above
    float friction;  // its object's kinetic Coulomb coefficient mu_k
    float staticFriction;  // its object's static Coulomb coefficient mu_s >= friction
    float pad0, pad1, pad2;
};
GPU_CHECK_SIZE(ContactParticle, 48);
// ContactParticle::flags: it touches the non-neighbour particles of its own
// object; its solver projects contacts inside its iterations (PBD).
GPU_CONST(uint, kContactSelf, 1u);
GPU_CONST(uint, kContactInIterations, 2u);
// A spare particle of a cloth that splits torn vertices (docs/physics.md
// §1, "Tearing"); while no split has taken it, also kContactUnused, and it
// touches nothing. contact_follow_splits.comp sets both from the particle
// store's vertex-triangle rows before each detection.
GPU_CONST(uint, kContactSpare, 4u);
GPU_CONST(uint, kContactUnused, 8u);
// ContactParticle::flags from this bit up: its contact group, the batch
// copy its object belongs to (ObjectRange::copy; 0 in a scene's world).
GPU_CONST(uint, kContactGroupShift, 8u);

// A contact group's part of the detection's hash table: buckets
// [firstBucket, firstBucket + tableMask], as many as a world of the group's
// particles alone has (ContactModel), hashed the same way, so that the
// group's pairs are found in the order that world finds them. Groups share
// no bucket: particles of two groups never pair (a batch's copies, in the
// same place, do not touch).
struct ContactGroup {
    uint firstBucket;
    uint tableMask;  // its buckets - 1 (a power of two)
};
GPU_CHECK_SIZE(ContactGroup, 8);

// Vertex-triangle constraints per contact particle that the list of
// four-particle constraints is sized for (ContactModel::triangleCapacity),
// where some object offers its triangles ("contacts": { "triangles": true });
// each constraint has four entries in the particles' incidence lists (a pair
// has two).
GPU_CONST(uint, kTriangleContactsPerParticle, 32);
// A triangle whose box, grown by the detection distance, spans more grid
// cells than this is not searched, and counted
// (ContactStats::oversizedTriangles): no thread loops over a billion cells.
// The same bound holds an edge's search box (ContactStats::oversizedEdges).
// The surface grid's cells (surface_cell.comp) hold any such box in 4 or 7
// along each axis, so only positions that are not finite (a blown-up
// simulation) pass it.
GPU_CONST(uint, kMaxTriangleCells, 4096);

// Partners (contact particles of a triangle, edges of an edge) that the
// four-particle searches' counting run keeps for each triangle and edge,
// the first it finds, in its order: the writing run reads them back instead
// of searching again, and searches again only for a triangle or edge that
// found more (triangle_pairs.comp, edge_pairs.comp; docs/benchmarks.md
// measures what the writing runs cost with it).
GPU_CONST(uint, kKeptPartners, 4);

// A triangle of an object with "triangles": its corners' contact particle
// numbers, uploaded once; the object and thickness are its corners'.
struct ContactTriangle {
    uint a;
    uint b;
    uint c;
    uint object;
};
GPU_CHECK_SIZE(ContactTriangle, 16);

// Edge-edge constraints per contact particle that the four-particle list
// is also sized for (ContactModel::triangleCapacity holds both kinds).
GPU_CONST(uint, kEdgeContactsPerParticle, 16);

// A surface edge of an object with "triangles" (each edge of its triangles
// once): its ends' contact particle numbers, a < b, uploaded once; the
// object and thickness are its ends'.
struct ContactEdge {
    uint a;
    uint b;
    uint object;
    uint pad0;
};
GPU_CHECK_SIZE(ContactEdge, 16);

// One constraint of four particles on the triangle surfaces
// (docs/physics.md §14), the closest points at detection frozen for the
// substep: a vertex-triangle constraint, contact particle `vertex` against
// triangle `triangle` (ContactModel::triangles) at the point of barycentric
// weights `weights.xyz`; or an edge-edge constraint, edge `vertex` against
// edge `triangle` (ContactModel::edges) at the points of weights
// (weights.x, weights.y) on the first and (weights.z, weights.w) on the
// second. `particles` holds its four contact particles in role order (the
// vertex, then corners a, b, c; or the first edge's ends, then the
// second's), which every pass over the set reads.
struct TriangleContact {
    uint vertex;
    uint triangle;
    uint kind;  // kSurfaceVertexTriangle or kSurfaceEdgeEdge
    uint pad0;
    uvec4 particles;
    vec4 weights;
};
GPU_CHECK_SIZE(TriangleContact, 48);
GPU_CONST(uint, kSurfaceVertexTriangle, 0u);
GPU_CONST(uint, kSurfaceEdgeEdge, 1u);

// Which pairs a response pass projects (ContactPush::pairs): every pair
// (the passes after every solver's solve, docs/physics.md §14), or those
// whose particles both belong to a solver that projects contacts in its
// iterations (its iterations' passes).
GPU_CONST(uint, kContactPairsAll, 0u);
GPU_CONST(uint, kContactPairsInIterations, 1u);
// The PBD workgroup path's iterations: the coloured constraints whose
// particles all belong to one object, each object's in its workgroup
// (pbd/workgroup_contacts.glsl lists them itself; the CPU reference's
// ContactReferenceSolve takes this).
GPU_CONST(uint, kContactPairsWithinObjects, 2u);

// Push constants of every contact pass.
struct ContactPush {
    uint count;       // contact particles
    uint tableMask;   // hash table size - 1: every group's buckets (one group's, a power of two, in a scene's world)
    float cellSize;   // [m] grid cell edge: at least the largest detection distance
    float margin;     // [m] detected pairs are those closer than t_a + t_b + margin
    uint capacity;    // entries of the neighbour list
    uint write;       // contact_pairs.comp: 0 counts each particle's pairs, 1 writes them
    uint round;       // contact_colour.comp: the round; contact_project_colour.comp: the colour;
                      // the dispatch writers: maxComputeWorkGroupCount[0]
    uint leftoverOnly;// the Jacobi passes: 1 projects only the constraints the colouring left out
    uint pairs;       // the response passes: kContactPairs*
    uint edges;       // the surface edges (ContactModel::edges); 0 without triangles
    uint triangles;   // the triangles (ContactModel::triangles); 0: no four-particle constraints
    uint triangleCapacity;  // four-particle constraints their list holds (ContactModel::triangleCapacity)
};
GPU_CHECK_SIZE(ContactPush, 48);

// A group count the GPU writes for an indirect dispatch over the contact
// constraints (VkDispatchIndirectCommand, then the threads it starts, the
// stride of the shader's loop over more elements than that).
struct ContactDispatch {
    uint groupsX;
    uint groupsY;
    uint groupsZ;
    uint threads;
};
GPU_CHECK_SIZE(ContactDispatch, 16);
// The dispatches: every constraint of the set (both kinds), then one per
// colour, then the particles of the Jacobi average's leftovers
// (contact_leftover_list.comp).
GPU_CONST(uint, kAllConstraintsDispatch, 0);
GPU_CONST(uint, kFirstColourDispatch, 1);
GPU_CONST(uint, kLeftoverParticlesDispatch, kFirstColourDispatch + kContactColours);
GPU_CONST(uint, kContactDispatches, kLeftoverParticlesDispatch + 1u);

// Per colour, its constraints' count, first slot in the colour lists and
// fill cursor (contact_colour_lists.comp); and how many contact particles
// have some constraint the colouring left out, the length of their list
// (contact_leftover_list.comp).
struct ContactColourTable {
    uint counts[kContactColours];
    uint offsets[kContactColours];
    uint fill[kContactColours];
    uint leftoverParticles;
};
GPU_CHECK_SIZE(ContactColourTable, 196);
// leftoverParticles' index in the table read as 32-bit values (the scan
// that counts them writes it there).
GPU_CONST(uint, kLeftoverParticlesIndex, 3u * kContactColours);

// What the detection found, kept since the last reset (read by
// World::contactStats, shown by the viewer): integers, so the same
// whatever order the GPU ran in.
struct ContactStats {
    uint lastEntries;       // neighbour-list entries of the last substep (each pair twice)
    uint mostEntries;       // the most in any substep
    uint overflowSubsteps;  // substeps whose pairs did not all fit the list
    uint detections;        // substeps detected
    uint mostColours;       // the most colours the colouring used in a substep
    uint leftoverConstraints;// constraints (of either kind) the colouring left to the Jacobi average, every substep
    uint colourings;        // substeps coloured
    uint lastTriangleContacts;     // vertex-triangle constraints of the last substep
    uint mostTriangleContacts;     // the most in any substep
    uint triangleOverflowSubsteps; // substeps whose vertex-triangle constraints did not all fit their list
    uint oversizedTriangles;       // triangles left unsearched, over every substep (kMaxTriangleCells)
    uint lastEdgeContacts;         // edge-edge constraints of the last substep
    uint mostEdgeContacts;         // the most in any substep
    uint oversizedEdges;           // edges left unsearched, over every substep (kMaxTriangleCells)
    uint pad0;
    uint pad1;
};
GPU_CHECK_SIZE(ContactStats, 64);

GPU_NAMESPACE_END

#endif
