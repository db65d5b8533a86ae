#version 460
// Vertex-triangle detection, one thread per triangle of an object with
// "triangles": the contact particles closer to the triangle than
// t_k + t_tri + margin, found in the surface grid (particle_grid.h, cells
// sized by surface_cell.comp from the longest edge; the pairs' grid where
// those cells are the pairs', surface_grid.glsl) over every cell of the
// triangle's box grown by the largest such distance: at most 4 cells along
// each axis, however large the triangle. A particle is taken only in the
// cell it lies in, so a bucket that two cells of the box share yields each
// particle once. Run twice per substep, as contact_pairs.comp: with
// write = 0 it counts the triangle's constraints into counts[t] and
// offsets[t], and keeps the first kKeptPartners particles in kept[]; the
// offsets are then scanned; with write = 1 it writes them, with the
// weights of the closest point, to triangleContacts[offsets[t]...],
// uncoloured and with their colouring priorities (contact_colour.comp), in
// a fixed order (cells in z, y, x order, each bucket's particles
// ascending), dropping, and so leaving for the stats to count, what does
// not fit the capacity. The writing run takes the kept particles where
// they are all of t's, and searches again only where t found more.
//
// A vertex k and a triangle are left out (docs/physics.md, "Contacts
// between objects"):
// - when k is one of the triangle's corners;
// - when they belong to one object without "self";
// - when they belong to one object and k is closer to the triangle in its
//   rest shape than the detection distance t_k + t_tri + margin: the
//   triangles around k's neighbours, which a flat cloth would otherwise
//   detect in its own plane every substep (the rest-shape rule of the
//   pairs, at the detection distance);
// - when none of the four can move;
// - when they belong to different contact groups (a batch's copies): the
//   triangle searches its group's part of the table (ContactGroup) only;
// - when the closest point is not one the triangle owns (ownsClosestPoint):
//   one constraint for each closest feature of the surface, not one for
//   each triangle around it.
#extension GL_GOOGLE_include_directive : require
#include "contacts/contact_types.h"
#include "contacts/contact_grid.glsl"
#include "math/real_glsl.h"
#include "math/coulomb_friction.glsl"
#include "contacts/contact_math.glsl"
#include "contacts/contact_dispatch.glsl"
layout(local_size_x = 64) in;

layout(push_constant) uniform Push { ContactPush pc; };
layout(std430, binding = 0) readonly buffer Positions { vec4 p[]; };
layout(std430, binding = 1) readonly buffer Particles { ContactParticle particles[]; };
layout(std430, binding = 2) readonly buffer Triangles { ContactTriangle triangles[]; };
layout(std430, binding = 3) readonly buffer BucketStart { uint bucketStart[]; };
layout(std430, binding = 4) readonly buffer BucketFill { uint bucketCount[]; };
layout(std430, binding = 5) readonly buffer Sorted { uint sorted[]; };
layout(std430, binding = 6) buffer Counts { uint counts[]; };
layout(std430, binding = 7) buffer Offsets { uint offsets[]; };
layout(std430, binding = 8) writeonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 9) writeonly buffer Colours { uint colours[]; };
layout(std430, binding = 10) writeonly buffer Proposals { uint proposals[]; };
layout(std430, binding = 11) buffer Stats { ContactStats stats; };
layout(std430, binding = 12) readonly buffer Totals { uint totals[]; };  // ContactDetection::totals()
layout(std430, binding = 13) readonly buffer Groups { ContactGroup groups[]; };
layout(std430, binding = 14) readonly buffer LocalIndices { uint localIndices[]; };  // ContactModel::localIndices
// ContactModel::triangleLocalIndices
layout(std430, binding = 15) readonly buffer TriangleLocalIndices { uint triangleLocalIndices[]; };
layout(std430, binding = 16) writeonly buffer Priorities { uint priorities[]; };  // contact_colour.comp's
layout(std430, binding = 17) readonly buffer Scale { float scale[]; };  // surface_cell.comp's: [0] the cell edge
// The pairs' grid (ContactDetection::grid), read instead where it is the surface grid.
layout(std430, binding = 18) readonly buffer PairBucketStart { uint pairBucketStart[]; };
layout(std430, binding = 19) readonly buffer PairBucketCount { uint pairBucketCount[]; };
layout(std430, binding = 20) readonly buffer PairSorted { uint pairSorted[]; };
// ContactModel::triangleNeighbours: [i] the triangle across the edge opposite corner i.
layout(std430, binding = 21) readonly buffer TriangleNeighbours { uvec4 triangleNeighbours[]; };
// The counting run's first kKeptPartners partners of each triangle, then of each edge.
layout(std430, binding = 22) buffer Kept { uint kept[]; };
#include "contacts/surface_grid.glsl"

// A triangle with its corners and their positions.
struct SurfaceTriangle {
    ContactTriangle corners;
    ContactParticle a, b, c;
    vec4 pa, pb, pcorner;
};

SurfaceTriangle loadTriangle(uint t) {
    ContactTriangle tri = triangles[t];
    ContactParticle a = particles[tri.a], b = particles[tri.b], c = particles[tri.c];
    return SurfaceTriangle(tri, a, b, c, p[a.particle], p[b.particle], p[c.particle]);
}

// Whether triangle s takes vertex k (contact particle v at pk) by the rules
// above but the groups' (the caller's) and the closest point's, and the
// weights of the closest point.
bool takesVertex(SurfaceTriangle s, uint k, ContactParticle v, vec4 pk, out vec3 weights) {
    weights = vec3(0.0);
    if (k == s.corners.a || k == s.corners.b || k == s.corners.c) return false;
    if (pk.w == 0.0 && s.pa.w + s.pb.w + s.pcorner.w == 0.0) return false;
    float reach = v.rest.w + s.a.rest.w + pc.margin;
    if (v.object == s.a.object) {
        if ((s.a.flags & kContactSelf) == 0u) return false;
        vec3 restWeights = contactClosestOnTriangle(v.rest.xyz, s.a.rest.xyz, s.b.rest.xyz, s.c.rest.xyz);
        vec3 rest = contactTriangleOffset(restWeights, v.rest.xyz, s.a.rest.xyz, s.b.rest.xyz, s.c.rest.xyz);
        if (dot(rest, rest) < reach * reach) return false;
    }
    weights = contactClosestOnTriangle(pk.xyz, s.pa.xyz, s.pb.xyz, s.pcorner.xyz);
    vec3 d = contactTriangleOffset(weights, pk.xyz, s.pa.xyz, s.pb.xyz, s.pcorner.xyz);
    return dot(d, d) < reach * reach;
}

// Whether triangle t (s) keeps the constraint of vertex k whose closest
// point has `weights` (docs/physics.md, "Vertex-triangle contacts"): on
// the face, yes; at a corner, no (the pair of k and that corner is the
// same constraint); on an edge, unless the triangle across it takes k too
// and either its closest point lies off the edge (nearer) or, on it,
// that triangle is the lower-numbered. contactClosestOnTriangle gives an
// edge's or a corner's point with weights exactly 0.
bool ownsClosestPoint(uint t, SurfaceTriangle s, uint k, ContactParticle v, vec4 pk, vec3 weights) {
    uint zeros = contactZeroWeights(weights);
    if (zeros == 0u) return true;
    if (zeros > 1u) return false;
    uint across = triangleNeighbours[t][contactOppositeCorner(weights)];
    if (across == kNoNeighbourTriangle) return true;
    SurfaceTriangle n = loadTriangle(across);
    vec3 acrossWeights;
    if (!takesVertex(n, k, v, pk, acrossWeights)) return true;
    uint off = contactCornerOff(uvec3(s.corners.a, s.corners.b, s.corners.c),
                                uvec3(n.corners.a, n.corners.b, n.corners.c));
    if (acrossWeights[off] != 0.0) return false;
    return t < across;
}

// Writes t's constraint with vertex k, its `index`-th, at `first` + index
// where it fits the capacity; `firstInSet` is the first four-particle
// constraint's number in the constraint set.
void writeConstraint(uint t, ContactTriangle tri, uint k, vec3 weights, uint first, uint index, uint firstInSet) {
    uint slot = first + index;
    if (slot >= pc.triangleCapacity) return;
    triangleContacts[slot] =
        TriangleContact(k, t, kSurfaceVertexTriangle, 0u, uvec4(k, tri.a, tri.b, tri.c), vec4(weights, 0.0));
    priorities[firstInSet + slot] = contactPairHash(localIndices[k], triangleLocalIndices[t]);
    colours[firstInSet + slot] = kNoColour;
    proposals[firstInSet + slot] = kNoColour;
}

void main() {
    uint t = gl_GlobalInvocationID.x;
    if (t >= pc.triangles) return;
    SurfaceTriangle surface = loadTriangle(t);
    ContactTriangle tri = surface.corners;
    uint first = pc.write != 0u ? offsets[t] : 0u;
    // Their number in the constraint set, after the pairs (contact_constraint.glsl).
    uint firstInSet = pc.write != 0u ? contactConstraintCount(totals[2], pc.capacity) : 0u;
    uint keptAt = t * kKeptPartners;
    if (pc.write != 0u && counts[t] <= kKeptPartners) {
        for (uint i = 0u; i < counts[t]; ++i) {
            uint k = kept[keptAt + i];
            ContactParticle v = particles[k];
            vec3 weights;
            takesVertex(surface, k, v, p[v.particle], weights);  // true: the count took k; its weights again
            writeConstraint(t, tri, k, weights, first, i, firstInSet);
        }
        return;
    }
    ContactParticle a = surface.a;
    vec4 pa = surface.pa, pb = surface.pb, pcorner = surface.pcorner;
    // The largest thickness is the margin (ContactModel).
    float grow = a.rest.w + 2.0 * pc.margin;
    float cellSize = scale[0];
    bool pairGrid = surfaceGridIsPairs();
    ivec3 lo = contactCell(min(min(pa.xyz, pb.xyz), pcorner.xyz) - vec3(grow), cellSize);
    ivec3 hi = contactCell(max(max(pa.xyz, pb.xyz), pcorner.xyz) + vec3(grow), cellSize);
    uvec3 extent = uvec3(hi - lo) + 1u;
    uint found = 0u;
    // Its contact group's part of the grid: only its own copy's particles.
    ContactGroup group = groups[a.flags >> kContactGroupShift];
    // Only positions that are not finite (a blown-up simulation) pass the bound.
    bool oversized = extent.x > kMaxTriangleCells || extent.y > kMaxTriangleCells || extent.z > kMaxTriangleCells;
    oversized = oversized || extent.x * extent.y * extent.z > kMaxTriangleCells;
    if (oversized) {
        if (pc.write == 0u) atomicAdd(stats.oversizedTriangles, 1u);
    } else {
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) {
                    ivec3 cell = ivec3(x, y, z);
                    uint bucket = group.firstBucket + contactBucket(cell, group.tableMask);
                    uint start = surfaceBucketStart(pairGrid, bucket);
                    for (uint s = start; s < start + surfaceBucketCount(pairGrid, bucket); ++s) {
                        uint k = surfaceSorted(pairGrid, s);
                        ContactParticle v = particles[k];
                        vec4 pk = p[v.particle];
                        if (contactCell(pk.xyz, cellSize) != cell) continue;  // found in its own cell
                        vec3 weights;
                        if (!takesVertex(surface, k, v, pk, weights)) continue;
                        if (!ownsClosestPoint(t, surface, k, v, pk, weights)) continue;
                        if (pc.write != 0u) writeConstraint(t, tri, k, weights, first, found, firstInSet);
                        else if (found < kKeptPartners) kept[keptAt + found] = k;
                        ++found;
                    }
                }
    }
    if (pc.write == 0u) {
        counts[t] = found;
        offsets[t] = found;
    }
}
