#version 460
// Edge-edge detection, one thread per surface edge e of an object with
// "triangles" (ContactModel::edges): the edges f > e whose closest points
// to e are closer than t_e + t_f + margin. Another edge within that
// distance has an end within it plus half its length of e, so e searches
// the surface grid (particle_grid.h, cells sized by surface_cell.comp from
// the longest edge L; the pairs' grid where those cells are the pairs',
// surface_grid.glsl) over its box grown by that, with L: at most 7 cells
// along each axis, however long the edges, and looks at the edges of every
// particle it finds there. A particle is taken only in the cell it
// lies in, and an edge f through its first end f.a, or through f.b when
// f.a lies outside the box, so each pair is found once, by its lower edge.
// Run twice per substep after triangle_pairs.comp's count, as it is:
// with write = 0 it counts e's constraints into counts[triangles + e] and
// offsets[triangles + e], after the triangles', and keeps the first
// kKeptPartners edges f in kept[]; the offsets of both kinds are then
// scanned together; with write = 1 it writes them, with the weights of the
// closest points, to triangleContacts[offsets[triangles + e]...], after
// every vertex-triangle constraint, uncoloured and with their colouring
// priorities (contact_colour.comp), in a fixed order (cells in z, y, x
// order, each bucket's particles ascending, each particle's edges
// ascending), dropping, and so leaving for the stats to count, what does
// not fit the capacity. The writing run takes the kept edges where they are
// all of e's, and searches again only where e found more.
//
// Two edges e and f are left out (docs/physics.md, "Contacts between
// objects"):
// - when they share an end;
// - when they belong to one object without "self";
// - when they belong to one object and are closer in its rest shape than
//   the detection distance t_e + t_f + margin (the rest-shape rule of the
//   vertex-triangle constraints);
// - when none of the four ends can move;
// - when they belong to different contact groups (a batch's copies): e
//   searches its group's part of the table (ContactGroup) only;
// - when a closest point is an end of its edge (contactEdgesCrossInside).
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
layout(std430, binding = 2) readonly buffer Edges { ContactEdge edges[]; };
layout(std430, binding = 3) readonly buffer ParticleEdgeStart { uint particleEdgeStart[]; };
layout(std430, binding = 4) readonly buffer ParticleEdges { uint particleEdges[]; };
layout(std430, binding = 5) readonly buffer BucketStart { uint bucketStart[]; };
layout(std430, binding = 6) readonly buffer BucketFill { uint bucketCount[]; };
layout(std430, binding = 7) readonly buffer Sorted { uint sorted[]; };
layout(std430, binding = 8) buffer Counts { uint counts[]; };
layout(std430, binding = 9) buffer Offsets { uint offsets[]; };
layout(std430, binding = 10) writeonly buffer TriangleContacts { TriangleContact triangleContacts[]; };
layout(std430, binding = 11) writeonly buffer Colours { uint colours[]; };
layout(std430, binding = 12) writeonly buffer Proposals { uint proposals[]; };
layout(std430, binding = 13) buffer Stats { ContactStats stats; };
layout(std430, binding = 14) readonly buffer Totals { uint totals[]; };  // ContactDetection::totals()
layout(std430, binding = 15) readonly buffer Groups { ContactGroup groups[]; };
layout(std430, binding = 16) readonly buffer EdgeLocalIndices { uint edgeLocalIndices[]; };  // ContactModel's
layout(std430, binding = 17) writeonly buffer Priorities { uint priorities[]; };  // contact_colour.comp's
// surface_cell.comp's: [0] the cell edge, [1] the longest edge
layout(std430, binding = 18) readonly buffer Scale { float scale[]; };
// The pairs' grid (ContactDetection::grid), read instead where it is the surface grid.
layout(std430, binding = 19) readonly buffer PairBucketStart { uint pairBucketStart[]; };
layout(std430, binding = 20) readonly buffer PairBucketCount { uint pairBucketCount[]; };
layout(std430, binding = 21) readonly buffer PairSorted { uint pairSorted[]; };
// The counting run's first kKeptPartners partners of each triangle, then of each edge.
layout(std430, binding = 22) buffer Kept { uint kept[]; };
#include "contacts/surface_grid.glsl"

bool inBox(ivec3 cell, ivec3 lo, ivec3 hi) { return all(greaterThanEqual(cell, lo)) && all(lessThanEqual(cell, hi)); }

// An edge with its ends and their positions.
struct SurfaceEdge {
    ContactEdge ends;
    ContactParticle a, b;
    vec4 pa, pb;
};

SurfaceEdge loadEdge(uint e) {
    ContactEdge edge = edges[e];
    ContactParticle a = particles[edge.a], b = particles[edge.b];
    return SurfaceEdge(edge, a, b, p[a.particle], p[b.particle]);
}

// Whether edges s and o make a constraint by the rules above but the
// groups' (the search's), and the weights of its closest points.
bool edgesTouch(SurfaceEdge s, SurfaceEdge o, out vec4 weights) {
    weights = vec4(0.0);
    if (o.ends.a == s.ends.a || o.ends.a == s.ends.b || o.ends.b == s.ends.a || o.ends.b == s.ends.b) return false;
    if (s.pa.w + s.pb.w == 0.0 && o.pa.w + o.pb.w == 0.0) return false;
    float reach = s.a.rest.w + o.a.rest.w + pc.margin;
    if (o.ends.object == s.ends.object) {
        if ((s.a.flags & kContactSelf) == 0u) return false;
        vec2 restAt = contactClosestOnSegments(s.a.rest.xyz, s.b.rest.xyz, o.a.rest.xyz, o.b.rest.xyz);
        vec4 restWeights = vec4(1.0 - restAt.x, restAt.x, 1.0 - restAt.y, restAt.y);
        vec3 rest = contactEdgeOffset(restWeights, s.a.rest.xyz, s.b.rest.xyz, o.a.rest.xyz, o.b.rest.xyz);
        if (dot(rest, rest) < reach * reach) return false;
    }
    vec2 at = contactClosestOnSegments(s.pa.xyz, s.pb.xyz, o.pa.xyz, o.pb.xyz);
    // At an end of either edge: a vertex-triangle constraint or a pair.
    if (!contactEdgesCrossInside(at)) return false;
    weights = vec4(1.0 - at.x, at.x, 1.0 - at.y, at.y);
    vec3 d = contactEdgeOffset(weights, s.pa.xyz, s.pb.xyz, o.pa.xyz, o.pb.xyz);
    return dot(d, d) < reach * reach;
}

// Writes e's constraint with f, its `index`-th, at `first` + index where
// it fits the capacity; `firstInSet` is the first four-particle
// constraint's number in the constraint set.
void writeConstraint(uint e, SurfaceEdge s, uint f, SurfaceEdge o, vec4 weights, uint first, uint index,
                     uint firstInSet) {
    uint slot = first + index;
    if (slot >= pc.triangleCapacity) return;
    triangleContacts[slot] =
        TriangleContact(e, f, kSurfaceEdgeEdge, 0u, uvec4(s.ends.a, s.ends.b, o.ends.a, o.ends.b), weights);
    priorities[firstInSet + slot] = contactPairHash(edgeLocalIndices[e], edgeLocalIndices[f]);
    colours[firstInSet + slot] = kNoColour;
    proposals[firstInSet + slot] = kNoColour;
}

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.edges) return;
    SurfaceEdge edge = loadEdge(e);
    uint slotOf = pc.triangles + e;
    uint first = pc.write != 0u ? offsets[slotOf] : 0u;
    // Their number in the constraint set, after the pairs (contact_constraint.glsl).
    uint firstInSet = pc.write != 0u ? contactConstraintCount(totals[2], pc.capacity) : 0u;
    uint keptAt = slotOf * kKeptPartners;
    if (pc.write != 0u && counts[slotOf] <= kKeptPartners) {
        for (uint i = 0u; i < counts[slotOf]; ++i) {
            uint f = kept[keptAt + i];
            SurfaceEdge other = loadEdge(f);
            vec4 weights;
            edgesTouch(edge, other, weights);  // true: the count took f; this recomputes its weights
            writeConstraint(e, edge, f, other, weights, first, i, firstInSet);
        }
        return;
    }
    vec4 pa0 = edge.pa, pa1 = edge.pb;
    // The largest thickness is the margin (ContactModel).
    float grow = edge.a.rest.w + 2.0 * pc.margin + 0.5 * scale[1];
    float cellSize = scale[0];
    bool pairGrid = surfaceGridIsPairs();
    ivec3 lo = contactCell(min(pa0.xyz, pa1.xyz) - vec3(grow), cellSize);
    ivec3 hi = contactCell(max(pa0.xyz, pa1.xyz) + vec3(grow), cellSize);
    uvec3 extent = uvec3(hi - lo) + 1u;
    uint found = 0u;
    // Its contact group's part of the grid: only its own copy's particles.
    ContactGroup group = groups[edge.a.flags >> kContactGroupShift];
    // Only positions that are not finite (a blown-up simulation) pass the bound.
    bool oversized = extent.x > kMaxTriangleCells || extent.y > kMaxTriangleCells || extent.z > kMaxTriangleCells;
    oversized = oversized || extent.x * extent.y * extent.z > kMaxTriangleCells;
    if (oversized) {
        if (pc.write == 0u) atomicAdd(stats.oversizedEdges, 1u);
    } else {
        for (int z = lo.z; z <= hi.z; ++z)
            for (int y = lo.y; y <= hi.y; ++y)
                for (int x = lo.x; x <= hi.x; ++x) {
                    ivec3 cell = ivec3(x, y, z);
                    uint bucket = group.firstBucket + contactBucket(cell, group.tableMask);
                    uint start = surfaceBucketStart(pairGrid, bucket);
                    for (uint s = start; s < start + surfaceBucketCount(pairGrid, bucket); ++s) {
                        uint k = surfaceSorted(pairGrid, s);
                        if (contactCell(p[particles[k].particle].xyz, cellSize) != cell) continue;
                        for (uint i = particleEdgeStart[k]; i < particleEdgeStart[k + 1u]; ++i) {
                            uint f = particleEdges[i];
                            if (f <= e) continue;
                            SurfaceEdge other = loadEdge(f);
                            // Through f.a; through f.b only where f.a is not in the box.
                            if (k == other.ends.b && inBox(contactCell(other.pa.xyz, cellSize), lo, hi)) continue;
                            vec4 weights;
                            if (!edgesTouch(edge, other, weights)) continue;
                            if (pc.write != 0u) writeConstraint(e, edge, f, other, weights, first, found, firstInSet);
                            else if (found < kKeptPartners) kept[keptAt + found] = f;
                            ++found;
                        }
                    }
                }
    }
    if (pc.write == 0u) {
        counts[slotOf] = found;
        offsets[slotOf] = found;
    }
}
