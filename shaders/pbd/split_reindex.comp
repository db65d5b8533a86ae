#version 460
// Splitting torn vertices of PBD cloths, the last run (docs/physics.md §1,
// "Tearing"; pbd/split.comp has the first ones): a thread per splitting
// cloth, per triangle, per stretch and per bending constraint. The reserve
// takes its new fill level; each triangle takes its corners' new indices,
// or leaves the surface (degenerate, on its first vertex) where one is
// kSplitDrop; each whole constraint takes, for each of its particles, the
// new index of the triangle corner it follows (built at load). A constraint
// of a colour moves from a particle only to a spare one nothing else holds,
// so the colouring stays valid; a broken constraint never moves. A kernel
// of its own, without split.comp's fan arrays, which a CPU driver pays for
// in every invocation.
#include "shared/kernel.glsl"
#include "pbd/pbd_types.h"

layout(push_constant) uniform Push { SplitPush pc; };
layout(std430, binding = 0) buffer Triangles { uint triangles[]; };
layout(std430, binding = 1) buffer Distance { DistanceConstraint distanceConstraints[]; };
layout(std430, binding = 2) buffer Bending { BendingConstraint bendingConstraints[]; };
layout(std430, binding = 3) readonly buffer Cloths { SplitCloth cloths[]; };
layout(std430, binding = 4) buffer Fill { uint fill[]; };  // four per cloth (pbd/split.comp)
layout(std430, binding = 5) readonly buffer Corners { uint corners[]; };  // per triangle corner of the model
// Per stretch constraint: the corners (3 triangle + corner) its p0 follows
// (x, fallback y) and its p1 follows (z, w); kSplitNone for none.
layout(std430, binding = 6) readonly buffer DistanceFollow { uvec4 distanceFollow[]; };
// Per bending constraint, two entries: particles x, y, then z, w, as above.
layout(std430, binding = 7) readonly buffer BendingFollow { uvec4 bendingFollow[]; };

// The new index of the corner a constraint's particle follows, else its own.
uint followed(uint first, uint fallback, uint own) {
    uint to = first != kSplitNone ? corners[first] : kSplitDrop;
    if (to == kSplitDrop && fallback != kSplitNone) to = corners[fallback];
    return to == kSplitDrop ? own : to;
}

void reindex(uint k) {
    if (k < pc.clothCount) {
        fill[4u * k] = fill[4u * k + 3u];
        return;
    }
    k -= pc.clothCount;
    if (k < pc.triangleThreads) {
        uint c = 0u;
        while (c + 1u < pc.clothCount && k >= cloths[c + 1u].firstTriangleThread) ++c;
        uint t = cloths[c].firstTriangle + k - cloths[c].firstTriangleThread;
        uvec3 to = uvec3(corners[3u * t], corners[3u * t + 1u], corners[3u * t + 2u]);
        if (any(equal(to, uvec3(kSplitDrop)))) to = uvec3(triangles[3u * t]);
        triangles[3u * t] = to.x;
        triangles[3u * t + 1u] = to.y;
        triangles[3u * t + 2u] = to.z;
        return;
    }
    k -= pc.triangleThreads;
    if (k < pc.distanceCount) {
        if (distanceConstraints[k].restLength < 0.0) return;
        uvec4 f = distanceFollow[k];
        distanceConstraints[k].p0 = followed(f.x, f.y, distanceConstraints[k].p0);
        distanceConstraints[k].p1 = followed(f.z, f.w, distanceConstraints[k].p1);
        return;
    }
    k -= pc.distanceCount;
    if (k >= pc.bendingCount || bendingConstraints[k].scale < 0.0) return;
    uvec4 f0 = bendingFollow[2u * k], f1 = bendingFollow[2u * k + 1u];
    uvec4 q = bendingConstraints[k].particles;
    bendingConstraints[k].particles =
        uvec4(followed(f0.x, f0.y, q.x), followed(f0.z, f0.w, q.y), followed(f1.x, f1.y, q.z),
              followed(f1.z, f1.w, q.w));
}

void main() { reindex(gl_GlobalInvocationID.x); }
