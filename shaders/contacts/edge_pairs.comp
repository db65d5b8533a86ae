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
// offsets[triangles + e], after the triangles'; the offsets of both kinds
// are then scanned together; with write = 1 it writes them, with the
// weights of the closest points, to triangleContacts[offsets[triangles + e]
// ...], after every vertex-triangle constraint, uncoloured and with their
// colouring priorities (contact_colour.comp), in a fixed order (cells in
// z, y, x order, each bucket's particles ascending, each particle's edges
// ascending), dropping, and so leaving for the stats to count, what does
// not fit the capacity.
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
#include "contacts/surface_grid.glsl"

bool inBox(ivec3 cell, ivec3 lo, ivec3 hi) { return all(greaterThanEqual(cell, lo)) && all(lessThanEqual(cell, hi)); }

void main() {
    uint e = gl_GlobalInvocationID.x;
    if (e >= pc.edges) return;
    ContactEdge edge = edges[e];
    ContactParticle a0 = particles[edge.a], a1 = particles[edge.b];
    vec4 pa0 = p[a0.particle], pa1 = p[a1.particle];
    float thickness = a0.rest.w;
    // The largest thickness is the margin (ContactModel).
    float grow = thickness + 2.0 * pc.margin + 0.5 * scale[1];
    float cellSize = scale[0];
    bool pairGrid = surfaceGridIsPairs();
    ivec3 lo = contactCell(min(pa0.xyz, pa1.xyz) - vec3(grow), cellSize);
    ivec3 hi = contactCell(max(pa0.xyz, pa1.xyz) + vec3(grow), cellSize);
    uvec3 extent = uvec3(hi - lo) + 1u;
    uint found = 0u;
    uint slotOf = pc.triangles + e;
    uint first = pc.write != 0u ? offsets[slotOf] : 0u;
    uint capacity = pc.triangleCapacity;
    // Their number in the constraint set, after the pairs (contact_constraint.glsl).
    uint firstInSet = pc.write != 0u ? contactConstraintCount(totals[2], pc.capacity) : 0u;
    bool endsMove = pa0.w + pa1.w > 0.0;
    // Its contact group's part of the grid: only its own copy's particles.
    ContactGroup group = groups[a0.flags >> kContactGroupShift];
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
                            ContactEdge other = edges[f];
                            ContactParticle b0 = particles[other.a], b1 = particles[other.b];
                            vec4 pb0 = p[b0.particle], pb1 = p[b1.particle];
                            // Through f.a; through f.b only where f.a is not in the box.
                            if (k == other.b && inBox(contactCell(pb0.xyz, cellSize), lo, hi)) continue;
                            if (other.a == edge.a || other.a == edge.b || other.b == edge.a || other.b == edge.b)
                                continue;
                            if (!endsMove && pb0.w + pb1.w == 0.0) continue;
                            float reach = thickness + b0.rest.w + pc.margin;
                            if (other.object == edge.object) {
                                if ((a0.flags & kContactSelf) == 0u) continue;
                                vec2 restAt = contactClosestOnSegments(a0.rest.xyz, a1.rest.xyz, b0.rest.xyz,
                                                                       b1.rest.xyz);
                                vec4 restWeights = vec4(1.0 - restAt.x, restAt.x, 1.0 - restAt.y, restAt.y);
                                vec3 rest = contactEdgeOffset(restWeights, a0.rest.xyz, a1.rest.xyz, b0.rest.xyz,
                                                              b1.rest.xyz);
                                if (dot(rest, rest) < reach * reach) continue;
                            }
                            vec2 at = contactClosestOnSegments(pa0.xyz, pa1.xyz, pb0.xyz, pb1.xyz);
                            // At an end of either edge: a vertex-triangle constraint or a pair.
                            if (!contactEdgesCrossInside(at)) continue;
                            vec4 weights = vec4(1.0 - at.x, at.x, 1.0 - at.y, at.y);
                            vec3 d = contactEdgeOffset(weights, pa0.xyz, pa1.xyz, pb0.xyz, pb1.xyz);
                            if (dot(d, d) >= reach * reach) continue;
                            uint slot = first + found;
                            if (pc.write != 0u && slot < capacity) {
                                triangleContacts[slot] =
                                    TriangleContact(e, f, kSurfaceEdgeEdge, 0u,
                                                    uvec4(edge.a, edge.b, other.a, other.b), weights);
                                priorities[firstInSet + slot] =
                                    contactPairHash(edgeLocalIndices[e], edgeLocalIndices[f]);
                                colours[firstInSet + slot] = kNoColour;
                                proposals[firstInSet + slot] = kNoColour;
                            }
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
